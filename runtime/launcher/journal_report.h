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

namespace msledger {

/// A site or chain of the journal as reports name it: "a.cpp:5 ← b.cpp:9".
std::string journalPlace(const JournalContents &contents, uint32_t id);

/// The report; false with *error set for a journal of another catalog.
bool journalReport(const JournalContents &contents, const std::string &path,
                   std::string *report, std::string *error);

} // namespace msledger

#endif
