//===- report.h - Leak and error reports, text and JSON ---------*- C++ -*-===//
//
// Contract: formatting only. Each formatter is handed what it reports --
// records, errors, and a ReportInput holding the site table, the process's
// pid and program, times and implicit releases -- and returns text: none
// reads the ledger, a clock, the process or a file, and none writes
// (output.h does, for the ledger). The text is byte for byte the format CANN
// users know from msSanitizer:
//
//   ====== ERROR: LeakCheck: detected memory leaks
//
//   ======    Direct leak of 32768 byte(s)
//   ======      at 0x124080024000 on GM allocated in main.cpp:55 (serialNo:0)
//
//   ====== SUMMARY: 32768 byte(s) leaked in 1 allocation(s)
//
// followed by a resource section in the same style; blocks come in serial
// order (or, grouped by site, largest first). Nothing leaked: no text at all.
// `titled` adds the level's name, used when both levels are checked. A call
// chain goes on lines of its own after the line naming the site.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_REPORT_H
#define MSLEDGER_RUNTIME_REPORT_H

#include "baseline.h"
#include "catalog_table.h"
#include "events.h"

#include <functional>
#include <string>
#include <vector>

namespace msledger {

struct LeakTotals {
  uint64_t bytes = 0;
  uint64_t allocations = 0;
  uint64_t resources = 0;
};

/// What the reports of a process read besides their records.
struct ReportInput {
  SiteTable sites;
  bool tracked[2] = {false, false}; // by Level
  int pid = 0;
  int parentPid = 0;
  int rank = -1;             // in a job of many processes (job.h); -1: none
  std::string program;       // the executable's path ("" if unknown)
  uint64_t startUnixMs = 0;  // when the ledger started
  uint64_t sinceStartMs = 0; // now
  /// When `serial` happened, in nanoseconds since the start.
  std::function<uint64_t(uint64_t serial)> timeOfSerialNs;
  std::vector<ImplicitReleaseEvent> implicit[2]; // by Level, in order
  std::vector<Annotation> annotations;           // in the order started
  /// The findings of an earlier run (--baseline), or null: then the JSON
  /// and SARIF reports say each finding's state, and list the gone ones.
  const Baseline *baseline = nullptr;
  /// Whether the reports list the baseline's findings the run did not
  /// report (false in one process of a job: BaselineTally::goneKnown).
  bool baselineGoneKnown = true;
};

/// What starts a line of a call chain in every report.
extern const char *const kCalledFrom;
/// Between the places of a chain named on one line (msledger diff, growth,
/// timeline): "a.cpp:5 <- b.cpp:9". ASCII, as every report.
extern const char *const kChainArrow;

/// How many findings a text report may still print in full (print_limit,
/// compute-sanitizer's --print-limit), and how many it left out: each
/// error, and each leak block (one per allocation or handle, per site when
/// grouped), is one. Summaries still count everything; machine-readable
/// reports are never limited.
struct PrintBudget {
  /// `limit` findings at most (print_limit); 0 or less: every one.
  explicit PrintBudget(int limit = 0)
      : limit(limit > 0 ? static_cast<uint64_t>(limit) : 0) {}
  uint64_t limit; // 0: print everything
  uint64_t printed = 0;
  uint64_t omitted = 0;
  /// Takes one finding's place: false if there is none left (then counted).
  bool take() {
    if (!limit || printed < limit) {
      ++printed;
      return true;
    }
    ++omitted;
    return false;
  }
};
/// The line that says what a limited report left out ("" if nothing):
/// "====== msledger: N more finding(s) not printed (--print-limit=L) ...".
std::string formatOmitted(const PrintBudget &budget);

/// Sorts `records` by serial and formats the leak sections of `level`;
/// with `budget`, only the blocks it has room for.
std::string formatLeaks(const SiteTable &sites, Level level,
                        std::vector<Record> &records, bool groupBySite,
                        bool includeResources, bool titled, LeakTotals *totals,
                        PrintBudget *budget = nullptr);
/// What is live at `level` now, one line per site (and API and space),
/// largest first: the on-demand report of a running process.
std::string formatLive(const ReportInput &input, Level level,
                       const std::vector<Record> &records, bool titled);
/// A snapshot (runtime/README.md): live bytes and counts per site.
std::string formatSnapshot(const ReportInput &input,
                           const std::vector<Record> (&live)[2],
                           uint64_t sequence);
/// The handles of `level` that calls released implicitly, a note after the
/// leaks (`titled`: with the level's title line); empty if there are none.
std::string
formatImplicitReleases(const SiteTable &sites, Level level,
                       const std::vector<ImplicitReleaseEvent> &list,
                       bool titled);
/// The leak report's sections: for each checked level, its leaks and, if
/// `noteImplicit`, the note of what was released implicitly (the report at
/// exit, reporter.h, and the one `msledger report` rebuilds from a journal).
struct LeakSections {
  bool checked[2] = {false, false}; // by Level
  bool groupBySite = false;
  bool includeResources = true;
  bool noteImplicit = true;
  PrintBudget *budget = nullptr; // null: every block
};
std::string
formatLeakSections(const SiteTable &sites, const LeakSections &what,
                   std::vector<Record> (&live)[2],
                   const std::vector<ImplicitReleaseEvent> (&implicit)[2],
                   LeakTotals *totals);
std::string formatError(const SiteTable &sites, const ErrorEvent &error,
                        bool titled);

/// A run's findings that a baseline knows, set apart from the new ones.
struct KnownFindings {
  std::vector<Record> live[2];    // by Level: the known leaks
  std::vector<ErrorEvent> errors; // the known errors, in order
  BaselineTally tally;            // every finding of the run, counted
};
/// Moves the records of `live` whose fingerprints `baseline` has into
/// known->live, copies the known `errors` into known->errors, and counts
/// every finding in known->tally (finished: its gone ones filled in, if
/// `goneKnown`).
void separateKnown(const SiteTable &sites, const Baseline &baseline,
                   std::vector<Record> (&live)[2],
                   const std::vector<ErrorEvent> &errors, KnownFindings *known,
                   bool goneKnown = true);
/// The known section of a text report, after the new findings: one line
/// per finding site and kind, with its call chain (no section if none is
/// known); then formatBaselineSummary. It starts with a blank line.
std::string formatKnown(const SiteTable &sites, const Baseline &baseline,
                        const KnownFindings &known);
/// The gone findings, one line each, and the line counting new, known and
/// gone findings (by site and kind): "====== SUMMARY: against the baseline
/// base.json: 1 new finding(s), 2 known, 0 gone" (when the tally does not
/// know what is gone, it says so instead of a count).
std::string formatBaselineSummary(const Baseline &baseline,
                                  const BaselineTally &tally);
/// The known section's heading, "====== KNOWN: ..." and a blank line
/// (`msledger merge` writes its own blocks after it).
std::string knownHeading(const Baseline &baseline);
/// What an error is, as its report's heading says: "double free",
/// "mismatched free: aclrtFreeHost on device memory allocated by aclrtMalloc".
/// With `sites`, an operator rule's call is named as called (calledName).
std::string errorTitle(const ErrorEvent &error,
                       const SiteTable *sites = nullptr);
/// What went wrong in an access error: "out of bounds: aclrtMemcpy writes
/// 320 bytes at 0x..., 64 past the end of 256 bytes", "use after free: ...",
/// "wrong direction: ...".
std::string accessProblem(const ErrorEvent &error);
/// An error in one phrase that names its call: accessProblem() or
/// errorTitle(), with " by API" where it does not name it ("double free by
/// aclrtFree").
std::string errorSummary(const SiteTable &sites, const ErrorEvent &error);
/// The errors of one kind at one site through one API, each the first of
/// its group with the group's count, in the order the first happened.
std::vector<std::pair<const ErrorEvent *, uint64_t>>
errorGroups(const std::vector<ErrorEvent> &errors);
/// The JSON document of a report (format in runtime/README.md).
std::string formatJson(const ReportInput &input,
                       const std::vector<Record> (&live)[2],
                       const std::vector<ErrorEvent> &errors, bool final);
/// "file:line", or "<unknown>:0".
std::string location(const msledger_site *site);
/// "0x7f00", as reports write addresses.
std::string hexText(uint64_t value);
/// A site with its callers on one line: "a.cpp:5 <- b.cpp:9".
std::string placeLine(const SiteTable &sites, uint32_t id);
/// What a level is called in titles: "device heap", "CANN heap".
const char *levelTitle(Level level);

} // namespace msledger

#endif
