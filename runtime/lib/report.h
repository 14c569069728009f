//===- report.h - Leak and error reports, text and JSON ---------*- C++ -*-===//
//
// Contract: formatting only, no bookkeeping. The text is byte for byte the
// format CANN users know from msSanitizer:
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
// `titled` adds the level's name, used when both levels are checked.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_REPORT_H
#define MSLEDGER_RUNTIME_REPORT_H

#include "ledger.h"

#include <functional>
#include <string>
#include <vector>

namespace msledger {

struct LeakTotals {
  uint64_t bytes = 0;
  uint64_t allocations = 0;
  uint64_t resources = 0;
};

/// How a report names an event's site id, from the running ledger's sites and
/// chains or from a journal's: `location` appends the site's own place
/// ("main.cpp:55"), inside a line that stays msSanitizer's byte for byte;
/// `callers` appends one line per call that led there, innermost first
/// (kCalledFrom + "main.cpp:111\n"), or nothing.
struct SiteNamer {
  std::function<void(std::string &out, uint32_t site)> location;
  std::function<void(std::string &out, uint32_t site)> callers;
};
SiteNamer ledgerSiteNamer(const Ledger &ledger);
/// What starts a line of a call chain in every report.
extern const char *const kCalledFrom;
/// Between the places of a chain named on one line (msledger diff, growth,
/// timeline): "a.cpp:5 <- b.cpp:9". ASCII, as every report.
extern const char *const kChainArrow;

/// Sorts `records` by serial and formats the leak sections of `level`.
std::string formatLeaks(const SiteNamer &names, Level level,
                        std::vector<Record> &records, bool groupBySite,
                        bool includeResources, bool titled, LeakTotals *totals);
inline std::string formatLeaks(const Ledger &ledger, Level level,
                               std::vector<Record> &records, bool groupBySite,
                               bool includeResources, bool titled,
                               LeakTotals *totals) {
  return formatLeaks(ledgerSiteNamer(ledger), level, records, groupBySite,
                     includeResources, titled, totals);
}
/// What is live at `level` now, one line per site (and API and space),
/// largest first: the on-demand report of a running process.
std::string formatLive(const Ledger &ledger, Level level,
                       const std::vector<Record> &records, bool titled, int pid,
                       uint64_t sinceStartMs);
/// A snapshot (runtime/README.md): live bytes and counts per site.
std::string formatSnapshot(const Ledger &ledger,
                           const std::vector<Record> (&live)[2],
                           uint64_t sequence, uint64_t sinceStartMs);
/// The handles of `level` that calls released implicitly, a note after the
/// leaks (`titled`: with the level's title line); empty if there are none.
std::string
formatImplicitReleases(const SiteNamer &names, Level level,
                       const std::vector<ImplicitReleaseEvent> &list,
                       bool titled);
inline std::string
formatImplicitReleases(const Ledger &ledger, Level level,
                       const std::vector<ImplicitReleaseEvent> &list,
                       bool titled) {
  return formatImplicitReleases(ledgerSiteNamer(ledger), level, list, titled);
}
/// The leak report's sections: for each checked level, its leaks and, if
/// `noteImplicit`, the note of what was released implicitly (Ledger's own
/// report, and the one `msledger report` rebuilds from a journal).
struct LeakSections {
  bool checked[2] = {false, false}; // by Level
  bool groupBySite = false;
  bool includeResources = true;
  bool noteImplicit = true;
};
std::string
formatLeakSections(const SiteNamer &names, const LeakSections &what,
                   std::vector<Record> (&live)[2],
                   const std::vector<ImplicitReleaseEvent> (&implicit)[2],
                   LeakTotals *totals);
std::string formatError(const Ledger &ledger, const ErrorEvent &error,
                        bool titled);
/// The JSON document of a report (format in runtime/README.md).
std::string formatJson(const Ledger &ledger,
                       const std::vector<Record> (&live)[2],
                       const std::vector<ErrorEvent> &errors, bool final);
/// "file:line", or "<unknown>:0".
std::string location(const msledger_site *site);
/// What a level is called in titles: "device heap", "CANN heap".
const char *levelTitle(Level level);

} // namespace msledger

#endif
