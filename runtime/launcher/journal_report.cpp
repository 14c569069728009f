//===- journal_report.cpp - msledger report JOURNAL -----------------------===//
#include "journal_report.h"

#include "catalog_table.h"
#include "junit.h"
#include "sarif.h"

namespace msledger {

Record JournalLive::record() const {
  Record record;
  record.key = acquired.key;
  record.size = familyOf(acquired.api).refcounted ? references : acquired.size;
  record.serial = acquired.serial;
  record.site = acquired.site;
  record.api = static_cast<uint16_t>(acquired.api);
  record.space = acquired.space;
  return record;
}

JournalReplay::JournalReplay(const JournalContents &contents, bool keepImplicit)
    : KeepImplicit(keepImplicit) {
  auto liveOf = [](const JournalContents::Event &acquired) {
    // A refcounted handle's size in a checkpoint is its reference count.
    bool counted =
        acquired.api < kApiCount && familyOf(acquired.api).refcounted;
    return JournalLive{acquired,
                       counted ? std::max<uint64_t>(1, acquired.size) : 1};
  };
  for (const JournalContents::Event &acquired : contents.checkpoint.live)
    if (acquired.api < kApiCount)
      Live[{acquired.level, acquired.key}] = liveOf(acquired);
  if (!KeepImplicit)
    return;
  for (const auto &entry : contents.checkpoint.implicit) {
    if (entry.acquired.api >= kApiCount)
      continue;
    FreedRecord release;
    release.serial = entry.release.serial;
    release.site = entry.release.site;
    release.api = static_cast<uint16_t>(entry.release.api);
    Implicit[entry.acquired.level & 1].push_back(
        ImplicitReleaseEvent{liveOf(entry.acquired).record(), release});
  }
}

JournalReplay::Step JournalReplay::apply(const JournalContents::Event &event) {
  Step step;
  if (event.api >= kApiCount)
    return step;
  auto key = std::make_pair(event.level, event.key);
  auto it = Live.find(key);
  const FamilyInfo &family = familyOf(event.api);
  if (event.type == kJournalAcquire) {
    if (it != Live.end() && family.refcounted) {
      ++it->second.references;
      return step;
    }
    if (it != Live.end()) // released by something not journaled
      step.ended = it->second;
    JournalLive &started = Live[key];
    started = JournalLive{event, 1};
    step.started = &started;
    return step;
  }
  // A release ends only what was acquired before it: an implicit one read
  // after a checkpoint that no longer holds what it took out finds a later
  // handle of the same value, or none.
  if (it == Live.end() || it->second.acquired.serial > event.serial)
    return step;
  if (event.type == kJournalRelease && it->second.references > 1) {
    --it->second.references;
    return step;
  }
  if (event.type == kJournalReleaseAll && KeepImplicit) {
    FreedRecord release;
    release.serial = event.serial;
    release.site = event.site;
    release.api = static_cast<uint16_t>(event.api);
    Implicit[event.level & 1].push_back(
        ImplicitReleaseEvent{it->second.record(), release});
  }
  step.ended = it->second;
  Live.erase(it);
  return step;
}

std::vector<Record> JournalReplay::live(int level) const {
  std::vector<Record> records;
  for (const auto &entry : Live)
    if ((entry.first.first & 1) == (level & 1))
      records.push_back(entry.second.record());
  return records;
}

JournalSites::JournalSites(const JournalContents &contents)
    : Contents(contents) {
  for (const auto &[id, site] : contents.sites)
    Sites[id] =
        msledger_site{site.file.c_str(),
                      site.line,
                      site.column,
                      site.siteSerial,
                      site.callee.c_str(),
                      site.function.empty() ? nullptr : site.function.c_str()};
}

SiteTable JournalSites::table() const {
  // A chain's first place is its site, then the calls that led there.
  auto siteOf = [this](uint32_t id) -> const msledger_site * {
    auto chain = Contents.chains.find(id);
    if (chain != Contents.chains.end() && !chain->second.empty())
      id = chain->second[0];
    auto it = Sites.find(id);
    return it == Sites.end() ? nullptr : &it->second;
  };
  auto callersOf = [this](uint32_t id) {
    std::vector<const msledger_site *> callers;
    auto chain = Contents.chains.find(id);
    if (chain == Contents.chains.end())
      return callers;
    for (size_t i = 1; i < chain->second.size(); ++i) {
      auto it = Sites.find(chain->second[i]);
      callers.push_back(it == Sites.end() ? nullptr : &it->second);
    }
    return callers;
  };
  return {siteOf, callersOf};
}

namespace {

/// What was recovered, and how well.
std::string journalHeading(const JournalContents &contents,
                           const std::string &path) {
  const JournalHeader &header = contents.header;
  const JournalContents::Checkpoint &checkpoint = contents.checkpoint;
  std::string recovered =
      checkpoint.number
          ? "checkpoint " + std::to_string(checkpoint.number) + " (" +
                std::to_string(checkpoint.live.size()) +
                " live record(s)) and " +
                std::to_string(contents.events.size()) + " later event(s), "
          : std::to_string(contents.events.size()) + " event(s), ";
  std::string out =
      "====== msledger: journal " + path + " of pid " +
      std::to_string(header.pid) + ": " + recovered +
      std::to_string(contents.sites.size()) +
      " site(s) recovered; the process " +
      (header.exited ? "exited normally"
                     : "did not exit (killed, or still running)") +
      "\n";
  if (contents.skipped)
    out += "====== WARNING: " + std::to_string(contents.skipped) +
           " incomplete record(s) skipped: written when the process died\n";
  if (contents.truncated)
    out += "====== WARNING: the journal is truncated: what it still holds is "
           "recovered\n";
  if (contents.eventsMissing())
    out += header.version < 4 || header.healedBy == kNeverHealed
               ? "====== WARNING: the journal was full: later events are not "
                 "in it (journal_size_mb)\n"
               : "====== WARNING: the journal dropped events (every block was "
                 "still needed: journal_size_mb is too small for what is live "
                 "or for the event rate), and no complete checkpoint came "
                 "after: what is live may be wrong\n";
  else if (header.full)
    out += "====== NOTE: the journal dropped events while every block was "
           "still needed; a later checkpoint holds what they did\n";
  return out;
}

} // namespace

bool journalReadable(const JournalContents &contents, const std::string &path,
                     std::string *error) {
  if (contents.header.apiCount != kApiCount ||
      contents.header.catalogHash != journalCatalogHash()) {
    *error = path + ": written with another catalog than this msledger's";
    return false;
  }
  return true;
}

bool journalReport(const JournalContents &contents, const std::string &path,
                   const JournalReportRequest &request,
                   JournalReportResult *result, std::string *error) {
  const JournalHeader &header = contents.header;
  if (!journalReadable(contents, path, error))
    return false;
  // What the ledger checked (version 1 journals do not say: every level
  // with something live, and implicit releases read as releases).
  const uint32_t flags = header.ledgerFlags;
  const bool known = flags & (kJournalDeviceLevel | kJournalCannLevel);
  const bool implicitIsLeak = flags & kJournalImplicitIsLeak;
  JournalReplay replay(contents, known);
  for (const JournalContents::Event &event : contents.events)
    replay.apply(event);
  std::vector<Record> byLevel[2] = {replay.live(0), replay.live(1)};
  std::vector<ImplicitReleaseEvent> implicit[2] = {replay.implicit(0),
                                                   replay.implicit(1)};
  if (implicitIsLeak)
    for (int level = 0; level < 2; ++level)
      for (const ImplicitReleaseEvent &entry : implicit[level])
        byLevel[level].push_back(entry.acquired);
  // The sections as the ledger's own report has them.
  LeakSections what;
  for (int level = 0; level < 2; ++level)
    what.checked[level] =
        known ? (flags &
                 (level == 0 ? kJournalDeviceLevel : kJournalCannLevel)) != 0
              : !byLevel[level].empty();
  what.noteImplicit = !implicitIsLeak;
  PrintBudget budget(request.printLimit);
  what.budget = &budget;
  LeakTotals totals;
  JournalSites sites(contents);
  bool anyLive = !byLevel[0].empty() || !byLevel[1].empty();
  if (request.suppressions)
    for (std::vector<Record> &records : byLevel)
      request.suppressions->filterLeaks(sites.table(), records);
  // The SARIF and JUnit reports list every finding, known ones too.
  std::vector<Record> listed[2] = {byLevel[0], byLevel[1]};
  // A journal records no errors: only the baseline's leaks are compared,
  // those of the levels the journal's process checked.
  std::optional<Baseline> leakBaseline;
  if (request.baseline)
    leakBaseline = request.baseline->only([&](const BaselineFinding &f) {
      std::optional<Level> level = levelNamed(f.level);
      return isLeakRule(f.rule) &&
             (!known || (level && what.checked[static_cast<int>(*level)]));
    });
  const Baseline *baseline = leakBaseline ? &*leakBaseline : nullptr;
  KnownFindings knownFindings;
  if (baseline)
    separateKnown(sites.table(), *baseline, byLevel, {}, &knownFindings);
  std::string sections =
      formatLeakSections(sites.table(), what, byLevel, implicit, &totals);
  result->leaked = totals.allocations + totals.resources > 0;
  result->incomplete = !header.exited || contents.eventsMissing();
  std::string out = journalHeading(contents, path);
  if (!sections.empty())
    out += "\n" + sections;
  if (!anyLive)
    out += "====== Nothing was live.\n";
  if (baseline) {
    out += formatKnown(sites.table(), *baseline, knownFindings);
    size_t left =
        request.baseline->findings().size() - baseline->findings().size();
    if (left)
      out += "====== msledger: " + std::to_string(left) +
             " finding(s) of the baseline not compared: a journal records "
             "leaks only, of the levels its process checked\n";
  }
  out += formatOmitted(budget);
  if (request.suppressions)
    out += request.suppressions->formatUsed() +
           request.suppressions->formatUnused();
  result->report = out;
  ReportInput input;
  input.sites = sites.table();
  input.pid = static_cast<int>(contents.header.pid);
  input.startUnixMs = contents.header.startUnixMs;
  for (int level = 0; level < 2; ++level)
    input.tracked[level] = what.checked[level];
  input.baseline = baseline;
  if (request.sarif)
    result->sarif = formatSarif(input, listed, {}, request.projectRoot);
  if (request.junit)
    result->junit = formatJunit(input, listed, {});
  return true;
}

} // namespace msledger
