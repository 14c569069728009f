//===- instrument.cpp - Turning collected call sites into file edits
//-------===//
#include "instrument.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>

namespace msledger {

const char *const kMarker = "/* msrewrite: instrumented for msledger;";

uint64_t fnv1a64(const std::string &text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

bool isInstrumented(const std::string &text) {
  return text.compare(0, strlen(kMarker), kMarker) == 0;
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

std::string tableName(const std::string &relativePath) {
  return "msledger_sites_" + hex(fnv1a64(relativePath));
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
  uint64_t base = (fnv1a64(relativePath) >> 24) << 24;
  for (size_t i = 0; i < sites.size(); ++i)
    sites[i].serial = base | i;
}

std::string instrument(const std::string &original,
                       const std::string &relativePath,
                       const std::vector<CallSite> &sites) {
  std::string table = tableName(relativePath);
  std::string guard = "MSLEDGER_SITES_" + hex(fnv1a64(relativePath));
  std::ostringstream prologue;
  prologue << kMarker << " msrewrite --revert restores the original (fnv1a64 "
           << hex(fnv1a64(original)) << ") */\n"
           << "#include \"msledger/track.h\"\n"
           << "#ifndef " << guard << "\n#define " << guard << "\n"
           << "static const msledger_site " << table
           << "[] __attribute__((unused)) = {\n";
  for (const CallSite &site : sites)
    prologue << "    {" << cString(relativePath) << ", " << site.line << ", "
             << site.column << ", 0x" << hex(site.serial) << "ULL, "
             << cString(site.callee) << ", "
             << (site.function.empty() ? std::string("0")
                                       : cString(site.function))
             << "},\n";
  prologue << "};\n#endif\n#line 1\n";

  std::string out = prologue.str();
  out.reserve(out.size() + original.size() + sites.size() * 48);
  size_t copied = 0;
  for (size_t i = 0; i < sites.size(); ++i) {
    const CallSite &site = sites[i];
    out.append(original, copied, site.nameOffset - copied);
    out += "msledger_";
    out += site.callee;
    copied = site.nameOffset + site.callee.size();
    out.append(original, copied, site.parenOffset + 1 - copied);
    out += "&" + table + "[" + std::to_string(i) + "]" +
           (site.hasArguments ? ", " : "");
    copied = site.parenOffset + 1;
  }
  out.append(original, copied, std::string::npos);
  return out;
}

std::optional<std::string> revert(const std::string &instrumented,
                                  bool *exact) {
  if (!isInstrumented(instrumented))
    return std::nullopt;
  size_t hashAt = instrumented.find("(fnv1a64 ");
  size_t end = instrumented.find("\n#line 1\n");
  if (hashAt == std::string::npos || end == std::string::npos)
    return std::nullopt;
  uint64_t recorded =
      std::strtoull(instrumented.c_str() + hashAt + 9, nullptr, 16);
  std::string body = instrumented.substr(end + 9);
  // Undo the call edits: msledger_NAME(&msledger_sites_H[K], -> NAME(
  // (Whatever stood between the name and its '(' -- spaces, comments, the
  // ')' of a parenthesised callee -- is kept.)
  static const std::regex call(
      R"(msledger_([A-Za-z_][A-Za-z0-9_]*)([^(]*)\(&msledger_sites_[0-9a-f]{16}\[[0-9]+\](, )?)");
  std::string original = std::regex_replace(body, call, "$1$2(");
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
  // The edits never add or remove a line of the original: after the
  // prologue, line k of the result is line k of the original, edited or not.
  // That makes the diff linear, however large the file.
  size_t end = instrumented.find("\n#line 1\n");
  if (end == std::string::npos)
    return unifiedDiff(path, original, instrumented);
  std::vector<std::string> a = lines(original), b = lines(instrumented);
  size_t prologue = lines(instrumented.substr(0, end + 9)).size();
  if (b.size() != prologue + a.size())
    return unifiedDiff(path, original, instrumented);
  std::vector<DiffOp> ops;
  for (size_t j = 0; j < prologue; ++j)
    ops.push_back({'+', 0, j});
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[prologue + i]) {
      ops.push_back({' ', i, prologue + i});
    } else {
      ops.push_back({'-', i, prologue + i});
      ops.push_back({'+', i + 1, prologue + i});
    }
  }
  return formatHunks(path, a, b, ops);
}

} // namespace msledger
