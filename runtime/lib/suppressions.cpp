//===- suppressions.cpp - Known findings a report leaves out --------------===//
#include "suppressions.h"

#include "catalog_table.h"
#include "report.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace msledger {

namespace {

/// Whether all of `text` matches `glob`, where '*' matches any run.
bool globMatches(const std::string &glob, const std::string &text) {
  size_t g = 0, t = 0;
  size_t star = std::string::npos, resume = 0;
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      resume = t;
    } else if (g < glob.size() && glob[g] == text[t]) {
      ++g, ++t;
    } else if (star != std::string::npos) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*')
    ++g;
  return g == glob.size();
}

std::string trimmed(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::string placeOf(const msledger_site *site) {
  return std::string(site->file) + ":" + std::to_string(site->line);
}

/// Whether `pattern` matches the file, place, function or callee of `site`.
bool matchesSite(const std::string &pattern, const msledger_site *site) {
  if (!site)
    return false;
  if (site->file && (patternMatches(pattern, site->file) ||
                     patternMatches(pattern, placeOf(site))))
    return true;
  return (site->function && patternMatches(pattern, site->function)) ||
         (site->callee && patternMatches(pattern, site->callee));
}

void appendColumn(std::string &out, uint64_t value, size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width)
    out.append(width - digits.size(), ' ');
  out += digits;
}

const char *const kRule =
    "-----------------------------------------------------\n";

const char *kindPrefix(SuppressionKind kind) {
  switch (kind) {
  case SuppressionKind::Leak:
    return "leak:";
  case SuppressionKind::Free:
    return "free:";
  case SuppressionKind::Access:
    return "access:";
  }
  return "";
}

} // namespace

bool patternMatches(const std::string &pattern, const std::string &text) {
  if (text.empty())
    return false;
  std::string glob = pattern;
  bool atStart = !glob.empty() && glob.front() == '^';
  if (atStart)
    glob.erase(0, 1);
  bool atEnd = !glob.empty() && glob.back() == '$';
  if (atEnd)
    glob.pop_back();
  if (!atStart)
    glob.insert(0, 1, '*');
  if (!atEnd)
    glob += '*';
  return globMatches(glob, text);
}

bool Suppressions::parse(const std::string &text, const std::string &fileName,
                         std::string *error) {
  std::vector<Suppression> parsed;
  size_t start = 0;
  for (unsigned line = 1; start <= text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string entry = trimmed(text.substr(start, end - start));
    start = end + 1;
    if (entry.empty() || entry[0] == '#')
      continue;
    size_t colon = entry.find(':');
    std::string type = colon == std::string::npos ? "" : entry.substr(0, colon);
    std::string where = fileName + ":" + std::to_string(line) + ": ";
    Suppression suppression;
    if (type == "leak") {
      suppression.kind = SuppressionKind::Leak;
    } else if (type == "free") {
      suppression.kind = SuppressionKind::Free;
    } else if (type == "access") {
      suppression.kind = SuppressionKind::Access;
    } else {
      *error = where +
               "expected 'leak:PATTERN', 'free:PATTERN' or 'access:PATTERN', "
               "not '" +
               entry + "'";
      return false;
    }
    suppression.pattern = trimmed(entry.substr(colon + 1));
    if (suppression.pattern.empty() || suppression.pattern == "^" ||
        suppression.pattern == "$" || suppression.pattern == "^$") {
      *error = where + "'" + entry + "' has no pattern";
      return false;
    }
    suppression.file = fileName;
    suppression.line = line;
    parsed.push_back(suppression);
  }
  std::lock_guard<std::mutex> lock(Mutex);
  List.insert(List.end(), parsed.begin(), parsed.end());
  return true;
}

bool Suppressions::load(const std::string &path, std::string *error) {
  std::ifstream in(path, std::ios::binary);
  std::string text;
  if (in)
    text.assign(std::istreambuf_iterator<char>(in),
                std::istreambuf_iterator<char>());
  if (!in.is_open() || in.bad()) {
    *error = "cannot read the suppressions " + path + ": " + strerror(errno);
    return false;
  }
  return parse(text, path, error);
}

bool Suppressions::suppress(SuppressionKind kind, const SiteTable &sites,
                            uint32_t site, unsigned api, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(Mutex);
  if (List.empty())
    return false;
  const msledger_site *own = site ? sites.site(site) : nullptr;
  std::vector<const msledger_site *> chain;
  if (site)
    chain = sites.callers(site);
  const char *apiName = apiInfo(api).name;
  for (Suppression &suppression : List) {
    if (suppression.kind != kind)
      continue;
    bool matched = matchesSite(suppression.pattern, own) ||
                   (apiName && patternMatches(suppression.pattern, apiName));
    for (size_t i = 0; !matched && i < chain.size(); ++i)
      matched = matchesSite(suppression.pattern, chain[i]);
    if (matched) {
      ++suppression.count;
      suppression.bytes += bytes;
      return true;
    }
  }
  return false;
}

size_t Suppressions::filterLeaks(const SiteTable &sites,
                                 std::vector<Record> &records) {
  size_t before = records.size();
  auto suppressed = [&](const Record &record) {
    uint64_t bytes =
        familyOf(record.api).kind == Kind::Memory ? record.size : 0;
    return suppress(SuppressionKind::Leak, sites, record.site, record.api,
                    bytes);
  };
  records.erase(std::remove_if(records.begin(), records.end(), suppressed),
                records.end());
  return before - records.size();
}

std::string Suppressions::formatUsed() const {
  std::lock_guard<std::mutex> lock(Mutex);
  std::string out;
  for (const Suppression &suppression : List) {
    if (!suppression.count)
      continue;
    if (out.empty())
      out = std::string(kRule) +
            "Suppressions used:\n  count      bytes template\n";
    appendColumn(out, suppression.count, 7);
    out += ' ';
    appendColumn(out, suppression.bytes, 10);
    out += ' ';
    out += kindPrefix(suppression.kind);
    out += suppression.pattern;
    out += '\n';
  }
  if (!out.empty())
    out += kRule;
  return out;
}

std::string Suppressions::formatUnused() const {
  std::lock_guard<std::mutex> lock(Mutex);
  std::string out;
  for (const Suppression &suppression : List)
    if (!suppression.count)
      out += "msledger: suppression '" +
             std::string(kindPrefix(suppression.kind)) + suppression.pattern +
             "' (" + suppression.file + ":" + std::to_string(suppression.line) +
             ") matched nothing\n";
  return out;
}

std::vector<Suppression> Suppressions::list() const {
  std::lock_guard<std::mutex> lock(Mutex);
  return List;
}

} // namespace msledger
