//===- instrument.cpp - Turning collected call sites into file edits ------===//
#include "instrument.h"
#include "fnv1a.h"
#include "paths.h"
#include "text_file.h"

#include "llvm/Support/FileSystem.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace msledger {

const char *const kMarker = "/* msrewrite: instrumented for msledger;";
const char *const kWrapperBegin = "/*msrewrite:wrapper{*/ ";
const char *const kWrapperEnd = " /*}msrewrite*/ ";

bool isInstrumented(const std::string &text) {
  size_t last = text.rfind(kMarker);
  return last != std::string::npos && text.find('\n', last) + 1 == text.size();
}

namespace {

std::string hex(uint64_t value) {
  char text[24];
  snprintf(text, sizeof(text), "%016llx",
           static_cast<unsigned long long>(value));
  return text;
}

std::string cString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n' || c == '\r')
      continue;
    out += c;
  }
  return out + "\"";
}

} // namespace

void assignSerials(const std::string &relativePath,
                   std::vector<CallSite> &sites) {
  std::sort(sites.begin(), sites.end(),
            [](const CallSite &a, const CallSite &b) {
              return a.nameOffset < b.nameOffset;
            });
  sites.erase(std::unique(sites.begin(), sites.end(),
                          [](const CallSite &a, const CallSite &b) {
                            return a.nameOffset == b.nameOffset;
                          }),
              sites.end());
  // What names a call to a person, not where it is: the file, the
  // enclosing function, the API and the call's ordinal among that
  // function's calls of the same API. Lines added or removed, and calls
  // added elsewhere, leave a site's serial as it was (SARIF fingerprints
  // and baselines follow findings by it); an equal call added before it in
  // the same function moves it.
  std::map<std::pair<std::string, std::string>, unsigned> ordinals;
  std::set<uint64_t> taken;
  for (CallSite &site : sites) {
    unsigned ordinal = ordinals[{site.scope, site.callee}]++;
    std::string identity = relativePath;
    for (const std::string *part : {&site.scope, &site.callee}) {
      identity += '\0';
      identity += *part;
    }
    identity += '\0' + std::to_string(ordinal);
    uint64_t serial = fnv1a64(identity);
    // Never 0 (no site) and, in the file, never one twice: a collision of
    // 64-bit hashes takes the next free value, deterministically.
    while (serial == 0 || !taken.insert(serial).second)
      ++serial;
    site.serial = serial;
  }
}

std::string instrument(const std::string &original,
                       const std::string &relativePath,
                       const std::vector<CallSite> &sites,
                       const WrapperInsertions &wrappers) {
  std::string out;
  out.reserve(original.size() + sites.size() * 96 + 256);
  size_t copied = 0;
  auto wrapper = wrappers.begin();
  // Wrapper definitions go in before the first edit at or after their offset.
  auto insertWrappersUpTo = [&](size_t offset) {
    for (; wrapper != wrappers.end() && wrapper->first <= offset; ++wrapper) {
      out.append(original, copied, wrapper->first - copied);
      copied = wrapper->first;
      std::string text = wrapper->second;
      std::replace(text.begin(), text.end(), '\n', ' '); // no line may move
      out += kWrapperBegin + text + kWrapperEnd;
    }
  };
  // The ')' that closes each helper call's MSLEDGER_CHAIN, by offset; calls
  // nest, so these interleave with the sites.
  std::multiset<unsigned> chainEnds;
  auto closeChainsUpTo = [&](size_t offset) {
    while (!chainEnds.empty() && *chainEnds.begin() <= offset) {
      unsigned end = *chainEnds.begin();
      chainEnds.erase(chainEnds.begin());
      out.append(original, copied, end - copied);
      copied = end;
      out += ')';
    }
  };
  for (const CallSite &site : sites) {
    closeChainsUpTo(site.nameOffset);
    insertWrappersUpTo(site.nameOffset);
    out.append(original, copied, site.nameOffset - copied);
    // The site is static data defined where it is used (MSLEDGER_SITE, in
    // msledger/track.h): nothing needs to be declared ahead of the call.
    std::string siteText =
        "MSLEDGER_SITE(" + cString(relativePath) + ", " +
        std::to_string(site.line) + ", " + std::to_string(site.column) +
        ", 0x" + hex(site.serial) + "ULL, " + cString(site.callee) + ", " +
        (site.function.empty() ? std::string("0") : cString(site.function)) +
        ")";
    if (site.frame) {
      out += "MSLEDGER_CHAIN(" + siteText + ", ";
      copied = site.nameOffset;
      chainEnds.insert(site.endOffset);
      continue;
    }
    // An operator of the catalog's rule has no msledger_NAME: its wrapper
    // is made where it is called (msledger/track.h).
    if (site.operatorPart != OperatorPart::None)
      out += std::string("MSLEDGER_OPERATOR(") +
             (site.operatorPart == OperatorPart::Prepare ? "Prepare" : "Run") +
             ", " + site.callee + ")";
    else
      out += "msledger_" + site.callee;
    copied = site.nameOffset + site.callee.size();
    out.append(original, copied, site.parenOffset + 1 - copied);
    out += siteText + (site.hasArguments ? ", " : "");
    copied = site.parenOffset + 1;
  }
  closeChainsUpTo(original.size());
  insertWrappersUpTo(original.size());
  out.append(original, copied, std::string::npos);
  // One line at the end says what was done: earlier lines never move, so
  // compilers and debuggers read the original line numbers and text.
  bool addedNewline = !original.empty() && original.back() != '\n';
  if (addedNewline)
    out += '\n';
  out += std::string(kMarker) +
         " msrewrite --revert restores the original (fnv1a64 " +
         hex(fnv1a64(original)) + (addedNewline ? ", newline added" : "") +
         ") */\n";
  return out;
}

namespace {

/// Undoes MSLEDGER_CHAIN(MSLEDGER_SITE(...), CALL) -> CALL. The ')' that
/// closes a chain is the first one back at the depth where it opened,
/// counting parentheses outside string and character literals and comments.
/// (A file whose code has unbalanced parentheses -- in a #define, say -- may
/// revert inexactly: revert()'s hash check says so.)
std::string revertChains(const std::string &text) {
  static const std::string prefix = "MSLEDGER_CHAIN(MSLEDGER_SITE(";
  if (text.find(prefix) == std::string::npos)
    return text;
  std::string out;
  out.reserve(text.size());
  std::vector<int> open; // the depth at which each open chain began
  int depth = 0;
  size_t i = 0;
  // Copies a literal that starts at i (a quote) through its closing quote.
  auto copyLiteral = [&] {
    char quote = text[i];
    size_t end = i + 1;
    for (; end < text.size() && text[end] != quote && text[end] != '\n'; ++end)
      if (text[end] == '\\')
        ++end;
    end = std::min(end + 1, text.size());
    out.append(text, i, end - i);
    i = end;
  };
  while (i < text.size()) {
    char c = text[i];
    if (text.compare(i, prefix.size(), prefix) == 0) {
      // Skip the prefix, the site's arguments and the ", " after them.
      size_t j = i + prefix.size();
      int siteDepth = 1;
      while (j < text.size() && siteDepth > 0) {
        if (text[j] == '"') {
          for (++j; j < text.size() && text[j] != '"'; ++j)
            if (text[j] == '\\')
              ++j;
        } else if (text[j] == '(') {
          ++siteDepth;
        } else if (text[j] == ')') {
          --siteDepth;
        }
        ++j;
      }
      if (text.compare(j, 2, ", ") == 0) {
        open.push_back(depth);
        i = j + 2;
        continue;
      }
    }
    if (c == '"' || c == '\'') {
      copyLiteral();
      continue;
    }
    if (c == '/' && i + 1 < text.size() &&
        (text[i + 1] == '/' || text[i + 1] == '*')) {
      size_t end =
          text[i + 1] == '/' ? text.find('\n', i) : text.find("*/", i + 2);
      end = end == std::string::npos ? text.size()
                                     : end + (text[i + 1] == '/' ? 0 : 2);
      out.append(text, i, end - i);
      i = end;
      continue;
    }
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (!open.empty() && open.back() == depth) {
        open.pop_back(); // the chain's own ')'
        ++i;
        continue;
      }
      --depth;
    }
    out += c;
    ++i;
  }
  return out;
}

} // namespace

std::optional<std::string> revert(const std::string &instrumented,
                                  bool *exact) {
  if (!isInstrumented(instrumented))
    return std::nullopt;
  size_t trailer = instrumented.rfind(kMarker);
  size_t hashAt = instrumented.find("(fnv1a64 ", trailer);
  if (hashAt == std::string::npos)
    return std::nullopt;
  uint64_t recorded =
      std::strtoull(instrumented.c_str() + hashAt + 9, nullptr, 16);
  bool addedNewline =
      instrumented.find(", newline added", hashAt) != std::string::npos;
  std::string body = instrumented.substr(0, trailer);
  if (addedNewline && !body.empty() && body.back() == '\n')
    body.pop_back();
  // Undo the call edits: msledger_NAME(MSLEDGER_SITE(...), -> NAME(
  // (Whatever stood between the name and its '(' -- spaces, comments, the
  // ')' of a parenthesised callee -- is kept.)
  static const std::string text = R"("(?:[^"\\]|\\.)*")";
  static const std::regex call(
      "msledger_([A-Za-z_][A-Za-z0-9_]*)([^(]*)\\(MSLEDGER_SITE\\(" + text +
      ", [0-9]+, [0-9]+, 0x[0-9a-f]+ULL, " + text + ", (?:0|" + text +
      ")\\)(, )?");
  static const std::regex operatorCall(
      "MSLEDGER_OPERATOR\\((?:Prepare|Run), ([A-Za-z_][A-Za-z0-9_]*)\\)([^(]*)"
      "\\(MSLEDGER_SITE\\(" +
      text + ", [0-9]+, [0-9]+, 0x[0-9a-f]+ULL, " + text + ", (?:0|" + text +
      ")\\)(, )?");
  std::string original = revertChains(std::regex_replace(
      std::regex_replace(body, operatorCall, "$1$2("), call, "$1$2("));
  // And the wrappers of catalog additions, each within its markers.
  for (size_t begin = original.find(kWrapperBegin); begin != std::string::npos;
       begin = original.find(kWrapperBegin, begin)) {
    size_t end = original.find(kWrapperEnd, begin);
    if (end == std::string::npos)
      break;
    original.erase(begin, end + strlen(kWrapperEnd) - begin);
  }
  *exact = fnv1a64(original) == recorded;
  return original;
}

namespace {

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size() - 1;
    out.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return out;
}

} // namespace

namespace {

struct DiffOp {
  char kind;   // ' ', '-', '+'
  size_t i, j; // line indices into before and after
};

std::string formatHunks(const std::string &path,
                        const std::vector<std::string> &a,
                        const std::vector<std::string> &b,
                        const std::vector<DiffOp> &ops) {
  std::ostringstream out;
  out << "--- " << path << "\n+++ " << path << "\n";
  const size_t context = 3;
  for (size_t k = 0; k < ops.size();) {
    if (ops[k].kind == ' ') {
      ++k;
      continue;
    }
    // A hunk: this change, the changes less than 2 * context lines after it,
    // and context lines around them.
    size_t start = k >= context ? k - context : 0;
    size_t last = k;
    for (size_t t = k; t < ops.size() && t <= last + 2 * context; ++t)
      if (ops[t].kind != ' ')
        last = t;
    size_t finish = std::min(ops.size(), last + 1 + context);
    size_t aStart = ops[start].i, bStart = ops[start].j, aCount = 0, bCount = 0;
    for (size_t t = start; t < finish; ++t) {
      aCount += ops[t].kind != '+';
      bCount += ops[t].kind != '-';
    }
    out << "@@ -" << (aCount ? aStart + 1 : aStart) << "," << aCount << " +"
        << (bCount ? bStart + 1 : bStart) << "," << bCount << " @@\n";
    for (size_t t = start; t < finish; ++t) {
      const std::string &text = ops[t].kind == '+' ? b[ops[t].j] : a[ops[t].i];
      out << ops[t].kind << text;
      if (text.empty() || text.back() != '\n')
        out << "\n\\ No newline at end of file\n";
    }
    k = finish;
  }
  return out.str();
}

} // namespace

std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after) {
  std::vector<std::string> a = lines(before), b = lines(after);
  // Longest common subsequence: quadratic, for small texts.
  size_t n = a.size(), m = b.size();
  std::vector<std::vector<unsigned>> lcs(n + 1,
                                         std::vector<unsigned>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1
                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffOp> ops;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j])
      ops.push_back({' ', i++, j++});
    else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]))
      ops.push_back({'-', i++, j}); // removals first, as diff -u prints them
    else
      ops.push_back({'+', i, j++});
  }
  return formatHunks(path, a, b, ops);
}

std::string instrumentationDiff(const std::string &path,
                                const std::string &original,
                                const std::string &instrumented) {
  // The edits never add or remove a line of the original: line k of the
  // result is line k of the original, edited or not, and one trailer line
  // follows. That makes the diff linear, however large the file.
  std::vector<std::string> a = lines(original), b = lines(instrumented);
  if (b.size() != a.size() + 1 ||
      (!original.empty() && original.back() != '\n'))
    return unifiedDiff(path, original, instrumented);
  std::vector<DiffOp> ops;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) {
      ops.push_back({' ', i, i});
    } else {
      ops.push_back({'-', i, i});
      ops.push_back({'+', i + 1, i});
    }
  }
  ops.push_back({'+', a.size(), a.size()});
  return formatHunks(path, a, b, ops);
}

RevertCount revertTree(const std::string &root,
                       llvm::function_ref<void(const std::string &)> message) {
  RevertCount count;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end;
       it != end && !ec; it.increment(ec)) {
    std::string path = it->path();
    if (it->type() == llvm::sys::fs::file_type::directory_file &&
        isMsledgerFile(path + "/.", root)) {
      it.no_push(); // msledger's install, build tree or kept copies
      continue;
    }
    if (it->type() != llvm::sys::fs::file_type::regular_file ||
        isMsledgerFile(path, root))
      continue;
    std::string error;
    std::optional<std::string> text = readTextFile(path, &error);
    if (!text || !isInstrumented(*text))
      continue;
    bool exact = false;
    std::optional<std::string> original = revert(*text, &exact);
    if (!original || !writeTextFileAtomically(path, *original, &error)) {
      message("msrewrite: error: cannot revert " + path +
              (error.empty() ? "" : ": " + error));
      ++count.failures;
      continue;
    }
    ++count.reverted;
    if (!exact) {
      ++count.inexact;
      message("msrewrite: warning: " + path +
              " was edited after it was rewritten: the edits are kept, so it "
              "differs from the original");
    }
  }
  return count;
}

std::string sitesManifest(const std::vector<FileRewrite> &plan,
                          const std::string &root) {
  boost::json::array list;
  for (const FileRewrite &file : plan)
    for (const CallSite &site : file.sites)
      list.push_back(
          boost::json::object{{"serial", std::to_string(site.serial)},
                              {"file", file.relative},
                              {"line", site.line},
                              {"column", site.column},
                              {"callee", site.callee},
                              {"function", site.function},
                              {"text", site.lineText}});
  boost::json::object manifest{{"tool", "msrewrite"},
                               {"format", 1},
                               {"root", root},
                               {"sites", std::move(list)}};
  return boost::json::serialize(manifest) + "\n";
}

} // namespace msledger
