//===- journal_report.h - msledger report JOURNAL ---------------*- C++ -*-===//
//
// Contract: what a journal says was live, rebuilt one way for every reader.
// JournalReplay starts from the journal's last complete checkpoint, if it
// has one, and applies its events in serial order, counting the references
// of refcounted handles (an acquisition of a live one is another reference;
// only its last release ends it) and keeping what calls released
// implicitly; a release never ends what was acquired after it. `msledger
// report` and `msledger timeline` both read it.
// JournalSites gives the journal's sites and chains to the report formatters
// as the ledger's own do. journalReport formats the leak report the process
// would have written, in the same format, after a header that says what was
// recovered: events, sites, whether the process exited, and any incomplete
// records, truncation or a full journal.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_JOURNAL_REPORT_H
#define MSLEDGER_LAUNCHER_JOURNAL_REPORT_H

#include "journal.h"
#include "report.h"
#include "suppressions.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msledger {

/// A handle live in a replayed journal.
struct JournalLive {
  JournalContents::Event acquired;
  uint64_t references = 1;
  /// As the ledger's records are: a refcounted handle's size is its count.
  Record record() const;
};

class JournalReplay {
public:
  /// `keepImplicit`: note the handles released implicitly (the journal says
  /// which levels were checked).
  explicit JournalReplay(bool keepImplicit) : KeepImplicit(keepImplicit) {}
  /// Starts from what `contents`' checkpoint holds, if it has one: its
  /// events follow it.
  JournalReplay(const JournalContents &contents, bool keepImplicit);

  /// What one event did to what is live.
  struct Step {
    const JournalLive *started = nullptr; // a handle became live
    std::optional<JournalLive> ended;     // one stopped being live
  };
  /// Applies the next event (events of APIs this catalog lacks do nothing).
  Step apply(const JournalContents::Event &event);

  /// What is live now at `level`, in key order.
  std::vector<Record> live(int level) const;
  const std::vector<ImplicitReleaseEvent> &implicit(int level) const {
    return Implicit[level & 1];
  }

private:
  bool KeepImplicit;
  std::map<std::pair<int, uint64_t>, JournalLive> Live; // (level, key)
  std::vector<ImplicitReleaseEvent> Implicit[2];
};

/// A journal's sites and chains as msledger_site data, for the formatters.
class JournalSites {
public:
  explicit JournalSites(const JournalContents &contents);
  JournalSites(const JournalSites &) = delete;
  JournalSites &operator=(const JournalSites &) = delete;
  /// Valid as long as this object.
  SiteTable table() const;

private:
  std::map<uint32_t, msledger_site> Sites; // the strings are Contents'
  const JournalContents &Contents;
};

/// What `msledger report` is asked for besides the text report.
struct JournalReportRequest {
  Suppressions *suppressions = nullptr; // leaks it matches are left out
  bool sarif = false;                   // also the SARIF log (sarif.h)
  bool junit = false;                   // also the JUnit report (junit.h)
  std::string projectRoot;              // the SARIF log's, absolute
  int printLimit = 0; // leak blocks printed in full at most; 0: all
  /// Findings known from earlier runs: listed apart, after the new ones,
  /// and not `leaked`; null: none.
  const Baseline *baseline = nullptr;
};
struct JournalReportResult {
  std::string report; // the text, with the suppressions' table if any
  std::string sarif;
  std::string junit;
  bool leaked = false;     // it lists new leaks (memory or resources)
  bool incomplete = false; // the process did not exit, or the journal was
                           // full: what it lists may not be all
};

/// Whether this msledger can read what `contents` records (the same
/// catalog); false with *error naming `path`. Every reader of a journal
/// (report, timeline) asks first.
bool journalReadable(const JournalContents &contents, const std::string &path,
                     std::string *error);

/// The report; false with *error set for a journal of another catalog.
/// `leaked` and `incomplete` are what the exit status reports, as the
/// launcher's does for the application's run (runtime/README.md).
bool journalReport(const JournalContents &contents, const std::string &path,
                   const JournalReportRequest &request,
                   JournalReportResult *result, std::string *error);

} // namespace msledger

#endif
