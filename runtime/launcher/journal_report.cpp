//===- journal_report.cpp - msledger report JOURNAL -----------------------===//
#include "journal_report.h"

#include "catalog_table.h"
#include "report.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace msledger {

namespace {

using Event = JournalContents::Event;

} // namespace

std::vector<std::string> journalPlaces(const JournalContents &contents,
                                       uint32_t id) {
  auto location = [&](uint32_t site) {
    auto it = contents.sites.find(site);
    return it == contents.sites.end()
               ? std::string("<unknown>:0")
               : it->second.file + ":" + std::to_string(it->second.line);
  };
  auto chain = contents.chains.find(id);
  if (chain == contents.chains.end() || chain->second.empty())
    return {id ? location(id) : "<unknown>:0"};
  std::vector<std::string> places;
  for (uint32_t site : chain->second)
    places.push_back(location(site));
  return places;
}

std::string journalPlace(const JournalContents &contents, uint32_t id) {
  std::vector<std::string> places = journalPlaces(contents, id);
  std::string text = places[0];
  for (size_t i = 1; i < places.size(); ++i)
    text += kChainArrow + places[i];
  return text;
}

bool journalReport(const JournalContents &contents, const std::string &path,
                   std::string *report, bool *leaked, std::string *error) {
  const JournalHeader &header = contents.header;
  if (header.apiCount != kApiCount ||
      header.catalogHash != journalCatalogHash()) {
    *error = path + ": written with another catalog than this msledger's";
    return false;
  }
  // What the ledger checked (version 1 journals do not say: every level
  // with something live, and implicit releases read as releases).
  const uint32_t flags = header.ledgerFlags;
  const bool known = flags & (kJournalDeviceLevel | kJournalCannLevel);
  const bool implicitIsLeak = flags & kJournalImplicitIsLeak;
  // Live records, rebuilt in serial order.
  struct Live {
    Event acquired;
    uint64_t references;
  };
  auto recordOf = [](const Event &e, uint64_t references) {
    Record record;
    record.key = e.key;
    record.size = familyOf(e.api).refcounted ? references : e.size;
    record.serial = e.serial;
    record.site = e.site;
    record.api = static_cast<uint16_t>(e.api);
    record.space = e.space;
    return record;
  };
  std::map<std::pair<int, uint64_t>, Live> live;
  std::vector<ImplicitReleaseEvent> implicit[2];
  for (const Event &event : contents.events) {
    if (event.api >= kApiCount)
      continue;
    auto key = std::make_pair(event.level, event.key);
    auto it = live.find(key);
    const FamilyInfo &family = familyOf(event.api);
    if (event.type == kJournalAcquire) {
      if (it != live.end() && family.refcounted)
        ++it->second.references;
      else
        live[key] = Live{event, 1};
    } else if (it != live.end()) {
      if (event.type == kJournalRelease && it->second.references > 1) {
        --it->second.references;
        continue;
      }
      if (event.type == kJournalReleaseAll && known) {
        FreedRecord release;
        release.serial = event.serial;
        release.site = event.site;
        release.api = static_cast<uint16_t>(event.api);
        implicit[event.level & 1].push_back(ImplicitReleaseEvent{
            recordOf(it->second.acquired, it->second.references), release});
      }
      live.erase(it);
    }
  }
  std::string out =
      "====== msledger: journal " + path + " of pid " +
      std::to_string(header.pid) + ": " +
      std::to_string(contents.events.size()) + " event(s), " +
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
  if (header.full)
    out += "====== WARNING: the journal was full: later events are not in it "
           "(journal_size_mb)\n";
  // The leak sections as the process itself writes them.
  SiteNamer names{[&contents](std::string &text, uint32_t id) {
                    text += journalPlaces(contents, id)[0];
                  },
                  [&contents](std::string &text, uint32_t id) {
                    std::vector<std::string> places =
                        journalPlaces(contents, id);
                    for (size_t i = 1; i < places.size(); ++i)
                      text += kCalledFrom + places[i] + "\n";
                  }};
  std::vector<Record> byLevel[2];
  for (const auto &entry : live)
    byLevel[entry.first.first & 1].push_back(
        recordOf(entry.second.acquired, entry.second.references));
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
  LeakTotals totals;
  std::string sections =
      formatLeakSections(names, what, byLevel, implicit, &totals);
  *leaked = totals.allocations + totals.resources > 0;
  if (!sections.empty())
    out += "\n" + sections;
  if (byLevel[0].empty() && byLevel[1].empty())
    out += "====== Nothing was live.\n";
  *report = out;
  return true;
}

} // namespace msledger
