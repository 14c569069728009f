//===- suppressions.h - Known findings a report leaves out ------*- C++ -*-===//
//
// Contract: a suppression file in LeakSanitizer's format, one suppression a
// line:
//
//   # a comment; blank lines are skipped
//   leak:PATTERN   a memory or resource leak
//   free:PATTERN   an illegal, double or mismatched release
//   access:PATTERN a copy or set that touches freed memory, runs out of
//                  bounds or goes the wrong way (Ledger::access)
//
// PATTERN is matched as LeakSanitizer matches one: anywhere in the text
// unless it starts with '^' (then at the start) or ends with '$' (then at
// the end); '*' matches any run of characters. A finding is suppressed by
// the first suppression of its kind whose pattern matches one of: its site's
// file, "file:line", enclosing function and callee (the API called), the
// API's name (also when the call was not rewritten and has no site), or the
// file, "file:line", function or callee of a frame of its call chain. parse()
// takes a file whole or rejects it: a line that is none of the above is an
// error naming the file and line. match() counts what each suppression
// silenced (findings and bytes) and may be called from any thread;
// formatUsed() is LeakSanitizer's "Suppressions used:" table, formatUnused()
// names the suppressions that matched nothing, so a file does not rot.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_SUPPRESSIONS_H
#define MSLEDGER_RUNTIME_SUPPRESSIONS_H

#include "record_table.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace msledger {

struct SiteTable; // report.h

enum class SuppressionKind { Leak, Free, Access };

struct Suppression {
  SuppressionKind kind = SuppressionKind::Leak;
  std::string pattern;
  std::string file; // where it was read, for messages
  unsigned line = 0;
  uint64_t count = 0; // findings it silenced
  uint64_t bytes = 0;
};

/// LeakSanitizer's template match: '*' wildcards, '^' and '$' anchors,
/// anywhere in `text` otherwise.
bool patternMatches(const std::string &pattern, const std::string &text);

class Suppressions {
public:
  /// Reads `text`, the contents of `fileName`; false with "FILE:LINE: what"
  /// in *error on the first bad line (nothing is kept then).
  bool parse(const std::string &text, const std::string &fileName,
             std::string *error);
  /// Reads and parses the file at `path`.
  bool load(const std::string &path, std::string *error);
  bool empty() const { return List.empty(); }

  /// Whether a finding of `kind` whose call is `api` (a catalog index) at
  /// `site` is suppressed; if so it is counted with `bytes`.
  bool suppress(SuppressionKind kind, const SiteTable &sites, uint32_t site,
                unsigned api, uint64_t bytes);
  /// Leaves out of `records` the leaks a suppression matches; returns how
  /// many it left out.
  size_t filterLeaks(const SiteTable &sites, std::vector<Record> &records);

  /// "Suppressions used:" with count, bytes and pattern of each that
  /// matched, between dashed lines; empty if none matched.
  std::string formatUsed() const;
  /// One line per suppression that matched nothing; empty if all did.
  std::string formatUnused() const;
  /// Every suppression, with its counts.
  std::vector<Suppression> list() const;

private:
  mutable std::mutex Mutex;
  std::vector<Suppression> List;
};

} // namespace msledger

#endif
