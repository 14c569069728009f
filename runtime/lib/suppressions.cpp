//===- suppressions.cpp - Known findings a report leaves out --------------===//
#include "suppressions.h"

#include "escape.h"

#include "catalog_table.h"
#include "events.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace msledger {

namespace {

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

/// A line of a suppression file as a message quotes it (escape.h): what
/// does not show and bytes that are not UTF-8 as \xNN, at most 256 bytes.
std::string quoted(std::string_view line) { return printable(line, 256); }

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

SuppressionPattern::SuppressionPattern(std::string_view pattern) {
  AtStart = !pattern.empty() && pattern.front() == '^';
  if (AtStart)
    pattern.remove_prefix(1);
  AtEnd = !pattern.empty() && pattern.back() == '$';
  if (AtEnd)
    pattern.remove_suffix(1);
  // A '*' at either end undoes the anchor there; runs of '*' leave empty
  // pieces, which match anywhere and are dropped. Without a '*' the one
  // piece is kept, empty or not: "^$" matches only an empty text.
  bool star = pattern.find('*') != std::string_view::npos;
  if (star && pattern.front() == '*')
    AtStart = false;
  if (star && pattern.back() == '*')
    AtEnd = false;
  for (size_t begin = 0; begin <= pattern.size();) {
    size_t end = std::min(pattern.find('*', begin), pattern.size());
    if (end > begin || !star) {
      Pieces.emplace_back(pattern.substr(begin, end - begin));
      Literal += end - begin;
    }
    begin = end + 1;
  }
}

bool SuppressionPattern::matches(std::string_view text) const {
  if (text.empty() || text.size() < Literal)
    return false;
  if (Pieces.empty()) // only '*'s
    return true;
  // Both anchors kept on one piece: there was no '*' (a '*' leaves two).
  if (Pieces.size() == 1 && AtStart && AtEnd)
    return text == Pieces[0];
  size_t begin = 0, end = text.size();
  size_t first = 0, last = Pieces.size(); // the pieces found anywhere
  if (AtStart) {
    const std::string &piece = Pieces.front();
    if (text.compare(0, piece.size(), piece) != 0)
      return false;
    begin = piece.size();
    ++first;
  }
  if (AtEnd) {
    const std::string &piece = Pieces.back();
    if (end - begin < piece.size() ||
        text.compare(end - piece.size(), piece.size(), piece) != 0)
      return false;
    end -= piece.size();
    --last;
  }
  // Between the anchored pieces, each piece leftmost after the one before:
  // if any placement matches, this one does (a '*' takes what lies between).
  std::string_view middle = text.substr(begin, end - begin);
  size_t at = 0;
  for (size_t i = first; i < last; ++i) {
    at = middle.find(Pieces[i], at);
    if (at == std::string_view::npos)
      return false;
    at += Pieces[i].size();
  }
  return true;
}

bool patternMatches(const std::string &pattern, const std::string &text) {
  return SuppressionPattern(pattern).matches(text);
}

bool Suppressions::parse(const std::string &text, const std::string &fileName,
                         std::string *error) {
  std::vector<Suppression> parsed;
  std::vector<SuppressionPattern> compiled;
  // A byte-order mark an editor wrote is not part of the first line.
  size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
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
               quoted(entry) + "'";
      return false;
    }
    suppression.pattern = trimmed(entry.substr(colon + 1));
    if (suppression.pattern.empty() || suppression.pattern == "^" ||
        suppression.pattern == "$" || suppression.pattern == "^$") {
      *error = where + "'" + quoted(entry) + "' has no pattern";
      return false;
    }
    suppression.file = fileName;
    suppression.line = line;
    compiled.emplace_back(suppression.pattern);
    parsed.push_back(std::move(suppression));
  }
  std::lock_guard<std::mutex> lock(Mutex);
  List.insert(List.end(), parsed.begin(), parsed.end());
  Patterns.insert(Patterns.end(), compiled.begin(), compiled.end());
  Matched.clear(); // a site that matched nothing may match a new one
  return true;
}

bool Suppressions::load(const std::string &path, std::string *error) {
  auto refuse = [&](const std::string &why) {
    *error = "cannot read the suppressions " + path + ": " + why;
    return false;
  };
  auto tooLarge = [&](uint64_t size) {
    return refuse(std::to_string(size) +
                  " bytes, more than a suppression file may have (" +
                  std::to_string(kMaxFileBytes >> 20) + " MiB)");
  };
  // Looked at before it is opened: opening a FIFO could wait for a writer,
  // opening a device could do anything.
  struct stat status;
  if (stat(path.c_str(), &status) != 0)
    return refuse(strerror(errno));
  if (!S_ISREG(status.st_mode))
    return refuse("not a regular file");
  if (static_cast<uint64_t>(status.st_size) > kMaxFileBytes)
    return tooLarge(status.st_size);
  // O_NONBLOCK: should the path have become a FIFO since, open() does not
  // wait; fstat() then refuses it.
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return refuse(strerror(errno));
  std::string text;
  std::string why;
  if (fstat(fd, &status) != 0) {
    why = strerror(errno);
  } else if (!S_ISREG(status.st_mode)) {
    why = "not a regular file";
  } else {
    // Up to one byte past the limit: a file that grew is refused too.
    char buffer[65536];
    while (text.size() <= kMaxFileBytes) {
      ssize_t got = read(fd, buffer, sizeof(buffer));
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0) {
        why = strerror(errno);
        break;
      }
      if (got == 0)
        break;
      text.append(buffer, static_cast<size_t>(got));
    }
  }
  close(fd);
  if (!why.empty())
    return refuse(why);
  if (text.size() > kMaxFileBytes)
    return tooLarge(text.size());
  return parse(text, path, error);
}

size_t Suppressions::firstMatch(SuppressionKind kind, const msledger_site *own,
                                const std::vector<const msledger_site *> &chain,
                                unsigned api) const {
  // Every text of the finding, once; then the suppressions in order.
  std::vector<std::string> texts;
  auto addSite = [&](const msledger_site *site) {
    if (!site)
      return;
    if (site->file) {
      texts.emplace_back(site->file);
      texts.push_back(placeOf(site));
    }
    if (site->function)
      texts.emplace_back(site->function);
    if (site->callee)
      texts.emplace_back(site->callee);
  };
  addSite(own);
  if (const char *apiName = apiInfo(api).name)
    texts.emplace_back(apiName);
  for (const msledger_site *frame : chain)
    addSite(frame);
  for (size_t i = 0; i < List.size(); ++i) {
    if (List[i].kind != kind)
      continue;
    for (const std::string &text : texts)
      if (Patterns[i].matches(text))
        return i;
  }
  return kNone;
}

bool Suppressions::suppress(SuppressionKind kind, const SiteTable &sites,
                            uint32_t site, unsigned api, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(Mutex);
  if (List.empty())
    return false;
  SiteKey key{kind, site, api};
  size_t index = kNone;
  auto known = Matched.find(key);
  if (known != Matched.end()) {
    index = known->second;
  } else {
    const msledger_site *own = site ? sites.site(site) : nullptr;
    std::vector<const msledger_site *> chain;
    if (site)
      chain = sites.callers(site);
    index = firstMatch(kind, own, chain, api);
    // A site the table cannot name yet is asked again next time.
    if (!site || own)
      Matched.emplace(key, index);
  }
  if (index == kNone)
    return false;
  ++List[index].count;
  List[index].bytes += bytes;
  return true;
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
    out += quoted(suppression.pattern);
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
             std::string(kindPrefix(suppression.kind)) +
             quoted(suppression.pattern) + "' (" + suppression.file + ":" +
             std::to_string(suppression.line) + ") matched nothing\n";
  return out;
}

std::vector<Suppression> Suppressions::list() const {
  std::lock_guard<std::mutex> lock(Mutex);
  return List;
}

} // namespace msledger
