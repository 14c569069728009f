//===- journal_report.cpp - msledger report JOURNAL -----------------------===//
#include "journal_report.h"

#include "catalog_table.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace msledger {

namespace {

using Event = JournalContents::Event;

std::string hex(uint64_t value) {
  char text[24];
  snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

} // namespace

std::string journalPlace(const JournalContents &contents, uint32_t id) {
  auto location = [&](uint32_t site) {
    auto it = contents.sites.find(site);
    return it == contents.sites.end()
               ? std::string("<unknown>:0")
               : it->second.file + ":" + std::to_string(it->second.line);
  };
  auto chain = contents.chains.find(id);
  if (chain == contents.chains.end() || chain->second.empty())
    return id ? location(id) : "<unknown>:0";
  std::string text = location(chain->second[0]);
  for (size_t i = 1; i < chain->second.size(); ++i)
    text += " \u2190 " + location(chain->second[i]);
  return text;
}

bool journalReport(const JournalContents &contents, const std::string &path,
                   std::string *report, std::string *error) {
  const JournalHeader &header = contents.header;
  if (header.apiCount != kApiCount ||
      header.catalogHash != journalCatalogHash()) {
    *error = path + ": written with another catalog than this msledger's";
    return false;
  }
  // Live records, rebuilt in serial order.
  struct Live {
    Event acquired;
    uint64_t references;
  };
  std::map<std::pair<int, uint64_t>, Live> live;
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
      if (event.type == kJournalRelease && it->second.references > 1)
        --it->second.references;
      else
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
  std::vector<const Live *> byLevel[2];
  for (const auto &entry : live)
    byLevel[entry.first.first & 1].push_back(&entry.second);
  bool titled = !byLevel[0].empty() && !byLevel[1].empty();
  for (int level = 0; level < 2; ++level) {
    std::vector<const Live *> &records = byLevel[level];
    if (records.empty())
      continue;
    std::sort(records.begin(), records.end(), [](const Live *a, const Live *b) {
      return a->acquired.serial < b->acquired.serial;
    });
    out += '\n';
    if (titled)
      out += level == 0 ? "====== LeakCheck of the device heap (driver calls)\n"
                        : "====== LeakCheck of the CANN heap (ACL calls)\n";
    std::string memory, resources;
    uint64_t bytes = 0, allocations = 0, handles = 0;
    for (const Live *r : records) {
      const Event &e = r->acquired;
      const FamilyInfo &family = familyOf(e.api);
      uint64_t handle = e.key & 0x00FFFFFFFFFFFFFFULL;
      std::string where = journalPlace(contents, e.site) +
                          " (serialNo:" + std::to_string(e.serial) + ")\n\n";
      if (family.kind == Kind::Memory) {
        memory += "======    Direct leak of " + std::to_string(e.size) +
                  " byte(s)\n======      at " + hex(handle) + " on " +
                  spaceName(static_cast<Space>(e.space)) + " allocated in " +
                  where;
        bytes += e.size;
        ++allocations;
        continue;
      }
      resources += std::string("======    Leaked ") + family.display;
      if (family.refcounted && r->references > 1)
        resources += " (" + std::to_string(r->references) + " references)";
      else if (!family.refcounted && !family.perDevice && e.size)
        resources += " of " + std::to_string(e.size) + " byte(s)";
      resources += "\n======      ";
      if (family.hasHandle)
        resources += family.handleIsPointer
                         ? "at " + hex(handle) + " "
                         : "id " + std::to_string(handle) + " ";
      resources +=
          std::string("acquired by ") + apiInfo(e.api).name + " in " + where;
      ++handles;
    }
    if (!memory.empty())
      out += "====== ERROR: LeakCheck: detected memory leaks\n\n" + memory +
             "====== SUMMARY: " + std::to_string(bytes) +
             " byte(s) leaked in " + std::to_string(allocations) +
             " allocation(s)\n";
    if (!resources.empty())
      out += std::string(memory.empty() ? "" : "\n") +
             "====== ERROR: LeakCheck: detected resource leaks\n\n" +
             resources + "====== SUMMARY: " + std::to_string(handles) +
             " resource(s) leaked\n";
  }
  if (live.empty())
    out += "====== Nothing was live.\n";
  *report = out;
  return true;
}

} // namespace msledger
