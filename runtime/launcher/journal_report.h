//===- journal_report.h - msledger report JOURNAL ---------------*- C++ -*-===//
//
// Contract: rebuilds what was live from a journal's events (in serial order,
// references counted for refcounted handles) and formats the leak report the
// process would have written, in the same format, after a header that says
// what was recovered: events, sites, whether the process exited, and any
// incomplete records, truncation or a full journal.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_JOURNAL_REPORT_H
#define MSLEDGER_LAUNCHER_JOURNAL_REPORT_H

#include "journal.h"

#include <string>
#include <vector>

namespace msledger {

/// The places of a site or chain of the journal, the site's own first, then
/// the calls that led there.
std::vector<std::string> journalPlaces(const JournalContents &contents,
                                       uint32_t id);
/// The same on one line: "a.cpp:5 <- b.cpp:9" (kChainArrow).
std::string journalPlace(const JournalContents &contents, uint32_t id);

/// The report; false with *error set for a journal of another catalog.
/// *leaked says whether it lists leaks (memory or resources), which the
/// launcher's exit status reports as the application's run would have.
bool journalReport(const JournalContents &contents, const std::string &path,
                   std::string *report, bool *leaked, std::string *error);

} // namespace msledger

#endif
