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
// the end); '*' matches any run of characters. A pattern is compiled once,
// when it is read (SuppressionPattern): matching it against a text costs
// about text length x pattern length at worst, never more, whatever its
// '*'s. A finding is suppressed by the first suppression of its kind whose
// pattern matches one of: its site's file, "file:line", enclosing function
// and callee (the API called), the API's name (also when the call was not
// rewritten and has no site), or the file, "file:line", function or callee
// of a frame of its call chain.
//
// Which suppression (or none) takes the findings of one (kind, site id, API)
// is decided once and remembered: 20,000 leaks at 50 sites cost 50 matches.
// So a site id must name the same site and call chain for the life of a
// Suppressions object, as the ledger's and a journal's site tables do; a
// site id the table cannot resolve (yet) is matched each time, never
// remembered. parse() forgets what was remembered.
//
// parse() takes a file whole or rejects it: a line that is none of the above
// is an error naming the file and line. A UTF-8 byte-order mark at the start
// of the text is skipped, as editors on Windows write one. Every message and
// table that quotes a line or a pattern shows control characters, invisible
// ones (a byte-order mark, zero-width and direction marks) and bytes that are
// not UTF-8 as \xNN, so a bad line never reads as a good one, and at most
// 256 bytes of it ("... (N bytes)" after).
// load() reads only a regular file of at most kMaxFileBytes: a directory, a
// FIFO (never opened, so never waited on) or a device is refused with
// "PATH: not a regular file", a larger file with its size.
//
// suppress() counts what each suppression silenced (findings and bytes) and
// may be called from any thread; formatUsed() is LeakSanitizer's
// "Suppressions used:" table, formatUnused() names the suppressions that
// matched nothing, so a file does not rot.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_SUPPRESSIONS_H
#define MSLEDGER_RUNTIME_SUPPRESSIONS_H

#include "msledger/msledger.h"
#include "record_table.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
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

/// A pattern compiled: the literal pieces between its '*'s, its anchors.
class SuppressionPattern {
public:
  explicit SuppressionPattern(std::string_view pattern);
  /// LeakSanitizer's template match: '*' wildcards, '^' and '$' anchors,
  /// anywhere in `text` otherwise; never matches an empty text. Each piece
  /// is searched for once, leftmost first, after the one before it.
  bool matches(std::string_view text) const;

private:
  bool AtStart = false, AtEnd = false; // anchored by a piece, not by '*'
  std::vector<std::string> Pieces;     // the literal pieces, none empty
                                       // unless the only one
  size_t Literal = 0;                  // their bytes, together
};

/// SuppressionPattern(pattern).matches(text).
bool patternMatches(const std::string &pattern, const std::string &text);

class Suppressions {
public:
  /// Reads `text`, the contents of `fileName`; false with "FILE:LINE: what"
  /// in *error on the first bad line (nothing is kept then).
  bool parse(const std::string &text, const std::string &fileName,
             std::string *error);
  /// Reads and parses the file at `path`: a regular file of at most
  /// kMaxFileBytes.
  bool load(const std::string &path, std::string *error);
  static constexpr size_t kMaxFileBytes = size_t{16} << 20;
  bool empty() const { return List.empty(); }

  /// Whether a finding of `kind` whose call is `api` (a catalog index) at
  /// `site` is suppressed; if so it is counted with `bytes`. The answer for
  /// (kind, site, api) is remembered (above).
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
  static constexpr size_t kNone = static_cast<size_t>(-1);
  struct SiteKey {
    SuppressionKind kind;
    uint32_t site;
    unsigned api;
    bool operator==(const SiteKey &other) const {
      return kind == other.kind && site == other.site && api == other.api;
    }
  };
  struct SiteKeyHash {
    size_t operator()(const SiteKey &key) const {
      return std::hash<uint64_t>()((uint64_t(key.site) << 32) ^
                                   (uint64_t(key.api) << 2) ^
                                   uint64_t(key.kind));
    }
  };
  /// The index in List of the first suppression of `kind` that matches one
  /// of the texts of `own`, `api` or `chain`; kNone if none does.
  size_t firstMatch(SuppressionKind kind, const msledger_site *own,
                    const std::vector<const msledger_site *> &chain,
                    unsigned api) const;

  mutable std::mutex Mutex;
  std::vector<Suppression> List;
  std::vector<SuppressionPattern> Patterns;                 // List's, compiled
  std::unordered_map<SiteKey, size_t, SiteKeyHash> Matched; // index or kNone
};

} // namespace msledger

#endif
