//===- report.cpp - Leak and error reports, text and JSON -----------------===//
#include "report.h"

#include "access.h"
#include "catalog_table.h"
#include "escape.h"
#include "fingerprint.h"
#include "json_io.h"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <tuple>

namespace json = boost::json;

namespace msledger {

namespace {

const char *const kPrefix = "====== ";

void appendNumber(std::string &out, uint64_t value) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
  out.append(digits, end);
}

void appendHex(std::string &out, uint64_t value) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof(digits), value, 16).ptr;
  out += "0x";
  out.append(digits, end);
}

void appendLocation(std::string &out, const msledger_site *site) {
  if (site && site->file) {
    out += printable(site->file); // escape.h: a name cannot break the report
    out += ':';
    appendNumber(out, site->line);
  } else {
    out += "<unknown>:0";
  }
}

/// The lines of an event's call chain, after the line naming its site: the
/// calls that led to it, innermost first, "called from model.cpp:77".
void appendCallerLines(std::string &out, const SiteTable &sites, uint32_t id) {
  for (const msledger_site *caller : sites.callers(id)) {
    out += kCalledFrom;
    appendLocation(out, caller);
    out += '\n';
  }
}

void appendSerial(std::string &out, uint64_t serial) {
  out += " (serialNo:";
  appendNumber(out, serial);
  out += ')';
}

/// A handle as its family writes it: an address in hex, an id in decimal.
void appendHandleValue(std::string &out, const FamilyInfo &family,
                       uint64_t handle) {
  if (family.handleIsPointer)
    appendHex(out, handle);
  else
    appendNumber(out, handle);
}

/// "at 0x..." for addresses, "id N" for ids, "key 0x..." (the hash) for
/// keys.
void appendHandleWords(std::string &out, const FamilyInfo &family,
                       uint64_t handle) {
  out += family.handleIsKey ? "key " : family.handleIsPointer ? "at " : "id ";
  appendHandleValue(out, family, handle);
}

/// "at 0x... " / "id N " in a leak's line, nothing for handle-less APIs.
void appendHandle(std::string &out, const FamilyInfo &family, uint64_t handle) {
  if (!family.hasHandle)
    return;
  appendHandleWords(out, family, handle);
  out += ' ';
}

/// " (N references)" after a refcounted handle held more than once.
void appendReferences(std::string &out, const FamilyInfo &family,
                      const Record &r) {
  if (!family.refcounted || r.size <= 1)
    return;
  out += " (";
  appendNumber(out, r.size);
  out += " references)";
}

const char *article(const char *noun) {
  return strchr("aeiouAEIOU", noun[0]) ? "an " : "a ";
}

/// "double release: aclrtDestroyStream of a stream already released"
std::string releaseOf(const char *what, const char *called,
                      const FamilyInfo &family, const char *how) {
  return std::string(what) + called + " of " + article(family.display) +
         family.display + how;
}

struct Group {
  uint32_t site;
  uint16_t api;
  uint8_t space;
  uint64_t bytes = 0;
  uint64_t count = 0;
  uint64_t firstSerial = 0;
};

/// Live records folded by (site, API, space), largest first.
std::vector<Group> groupBySite(const std::vector<Record> &records) {
  std::map<std::tuple<uint32_t, uint16_t, uint8_t>, Group> groups;
  for (const Record &r : records) {
    auto key = std::make_tuple(r.site, r.api, r.space);
    auto it = groups.find(key);
    if (it == groups.end())
      it = groups.emplace(key, Group{r.site, r.api, r.space, 0, 0, r.serial})
               .first;
    if (familyOf(r.api).kind == Kind::Memory)
      it->second.bytes += r.size;
    it->second.count += 1;
    it->second.firstSerial = std::min(it->second.firstSerial, r.serial);
  }
  std::vector<Group> ordered;
  for (auto &entry : groups)
    ordered.push_back(entry.second);
  std::sort(ordered.begin(), ordered.end(), [](const Group &a, const Group &b) {
    return a.bytes != b.bytes   ? a.bytes > b.bytes
           : a.count != b.count ? a.count > b.count
                                : a.firstSerial < b.firstSerial;
  });
  return ordered;
}

/// "32768 byte(s) in 1 allocation(s) on GM", or "2 stream(s)", for a group.
void appendGroupAmount(std::string &out, const Group &g) {
  const FamilyInfo &family = familyOf(g.api);
  if (family.kind == Kind::Memory) {
    appendNumber(out, g.bytes);
    out += " byte(s) in ";
    appendNumber(out, g.count);
    out += " allocation(s) on ";
    out += spaceName(static_cast<Space>(g.space));
  } else {
    appendNumber(out, g.count);
    out += ' ';
    out += family.display;
    out += "(s)";
  }
}

/// "aclrtMalloc in main.cpp:55 (first serialNo:6)", for a group.
void appendGroupCall(std::string &out, const SiteTable &sites, const Group &g) {
  out += calledName(g.api, sites.site(g.site));
  out += " in ";
  appendLocation(out, sites.site(g.site));
  out += " (first serialNo:";
  appendNumber(out, g.firstSerial);
  out += ')';
}

} // namespace

const char *levelTitle(Level level) {
  return level == Level::Device ? "device heap" : "CANN heap";
}

std::string location(const msledger_site *site) {
  std::string out;
  appendLocation(out, site);
  return out;
}

std::string hexText(uint64_t value) {
  std::string out;
  appendHex(out, value);
  return out;
}

std::string placeLine(const SiteTable &sites, uint32_t id) {
  std::string out;
  appendLocation(out, sites.site(id));
  for (const msledger_site *caller : sites.callers(id)) {
    out += kChainArrow;
    appendLocation(out, caller);
  }
  return out;
}

namespace {

void appendTitle(std::string &out, Level level) {
  out += kPrefix;
  out += "LeakCheck of the ";
  out += levelTitle(level);
  out += level == Level::Device ? " (driver calls)\n" : " (ACL calls)\n";
}

/// "acquired by aclrtCreateStream in main.cpp:12 (serialNo:4)".
void appendCall(std::string &out, const SiteTable &sites, const char *how,
                unsigned api, uint32_t site, uint64_t serial) {
  out += how;
  out += calledName(api, sites.site(site));
  out += " in ";
  appendLocation(out, sites.site(site));
  appendSerial(out, serial);
}

/// "stream: 2, context: 1", in first-seen order.
class KindCounts {
public:
  void add(const char *display) {
    auto kind =
        std::find_if(Kinds.begin(), Kinds.end(),
                     [&](const auto &entry) { return entry.first == display; });
    if (kind == Kinds.end())
      Kinds.emplace_back(display, 1);
    else
      ++kind->second;
  }
  /// "====== SUMMARY: 3 resource(s) leaked (stream: 2, context: 1)".
  void appendSummary(std::string &out, size_t count, const char *what) const {
    out += "====== SUMMARY: ";
    appendNumber(out, count);
    out += " resource(s) ";
    out += what;
    out += " (";
    for (size_t i = 0; i < Kinds.size(); ++i) {
      if (i)
        out += ", ";
      out += Kinds[i].first;
      out += ": ";
      appendNumber(out, Kinds[i].second);
    }
    out += ")\n";
  }

private:
  std::vector<std::pair<const char *, uint64_t>> Kinds;
};

} // namespace

const char *const kCalledFrom = "======      called from ";
const char *const kChainArrow = " <- ";

namespace {

/// "======      workspace of aclnnAdd (its phase 1 in main.cpp:23)" for a
/// workspace (Record::workspaceOf: the phase 1's site).
void appendWorkspaceLine(std::string &out, const SiteTable &sites,
                         uint32_t phase1) {
  const msledger_site *site = phase1 ? sites.site(phase1) : nullptr;
  if (!site || !site->callee)
    return;
  out += "======      workspace of ";
  out += operatorAt(site);
  out += " (its phase 1 in ";
  appendLocation(out, site);
  out += ")\n";
}

/// The memory section of a leak report: one block per allocation (a
/// workspace says its operator), or per site when grouped; its total goes to
/// *bytes.
void appendMemoryLeaks(std::string &out, const SiteTable &sites,
                       const std::vector<const Record *> &memory,
                       bool groupBySite, uint64_t *bytes, PrintBudget &budget) {
  out += "====== ERROR: LeakCheck: detected memory leaks\n\n";
  if (groupBySite) {
    std::vector<Record> folded;
    for (const Record *r : memory)
      folded.push_back(*r);
    for (const Group &g : msledger::groupBySite(folded)) {
      *bytes += g.bytes;
      if (!budget.take())
        continue;
      out += "======    Direct leak of ";
      appendNumber(out, g.bytes);
      out += " byte(s) in ";
      appendNumber(out, g.count);
      out += " allocation(s)\n======      on ";
      out += spaceName(static_cast<Space>(g.space));
      out += " allocated by ";
      appendGroupCall(out, sites, g);
      out += '\n';
      appendCallerLines(out, sites, g.site);
      out += '\n';
    }
  } else {
    for (const Record *r : memory) {
      *bytes += r->size;
      if (!budget.take())
        continue;
      out += "======    Direct leak of ";
      appendNumber(out, r->size);
      out += " byte(s)\n======      at ";
      appendHex(out, handleOf(r->key));
      out += " on ";
      out += spaceName(static_cast<Space>(r->space));
      out += " allocated in ";
      appendLocation(out, sites.site(r->site));
      appendSerial(out, r->serial);
      out += '\n';
      appendCallerLines(out, sites, r->site);
      appendWorkspaceLine(out, sites, r->workspaceOf);
      out += '\n';
    }
  }
  out += "====== SUMMARY: ";
  appendNumber(out, *bytes);
  out += " byte(s) leaked in ";
  appendNumber(out, memory.size());
  out += " allocation(s)\n";
}

/// " of aclnnAdd" for an executor (the operator rule's family) whose phase 1
/// is known.
void appendOperator(std::string &out, const FamilyInfo &family,
                    const msledger_site *site) {
  std::string name = operatorName(family, site);
  if (!name.empty())
    out += " of " + name;
}

/// The resource section of a leak report: one block per handle.
void appendResourceLeaks(std::string &out, const SiteTable &sites,
                         const std::vector<const Record *> &resources,
                         PrintBudget &budget) {
  out += "====== ERROR: LeakCheck: detected resource leaks\n\n";
  KindCounts kinds;
  for (const Record *r : resources) {
    const FamilyInfo &family = familyOf(r->api);
    kinds.add(family.display);
    if (!budget.take())
      continue;
    out += "======    Leaked ";
    out += family.display;
    appendOperator(out, family, sites.site(r->site));
    appendReferences(out, family, *r);
    if (!family.refcounted && !family.perDevice && r->size) {
      out += " of ";
      appendNumber(out, r->size);
      out += " byte(s)";
    }
    out += "\n======      ";
    appendHandle(out, family, handleOf(family, r->key));
    appendCall(out, sites, "acquired by ", r->api, r->site, r->serial);
    out += '\n';
    appendCallerLines(out, sites, r->site);
    out += '\n';
  }
  kinds.appendSummary(out, resources.size(), "leaked");
}

} // namespace

std::string formatOmitted(const PrintBudget &budget) {
  if (!budget.omitted)
    return "";
  std::string out = "====== msledger: ";
  appendNumber(out, budget.omitted);
  out += " more finding(s) not printed (--print-limit=";
  appendNumber(out, budget.limit);
  out += "); the summaries count them, and the JSON and SARIF reports have "
         "them all\n";
  return out;
}

std::string formatLeaks(const SiteTable &sites, Level level,
                        std::vector<Record> &records, bool groupBySite,
                        bool includeResources, bool titled, LeakTotals *totals,
                        PrintBudget *budget) {
  PrintBudget unlimited;
  PrintBudget &print = budget ? *budget : unlimited;
  std::sort(
      records.begin(), records.end(),
      [](const Record &a, const Record &b) { return a.serial < b.serial; });
  std::vector<const Record *> memory, resources;
  for (const Record &record : records) {
    const FamilyInfo &family = familyOf(record.api);
    if (family.kind == Kind::Memory)
      memory.push_back(&record);
    else if (includeResources)
      resources.push_back(&record);
  }
  std::string out;
  if (memory.empty() && resources.empty())
    return out;
  out.reserve(memory.size() * 128 + resources.size() * 128 + 256);
  if (titled)
    appendTitle(out, level);
  if (!memory.empty()) {
    uint64_t bytes = 0;
    appendMemoryLeaks(out, sites, memory, groupBySite, &bytes, print);
    if (totals) {
      totals->bytes += bytes;
      totals->allocations += memory.size();
    }
  }
  if (!resources.empty()) {
    if (!memory.empty())
      out += '\n';
    appendResourceLeaks(out, sites, resources, print);
    if (totals)
      totals->resources += resources.size();
  }
  return out;
}

std::string formatLive(const ReportInput &input, Level level,
                       const std::vector<Record> &records, bool titled) {
  std::string out = "====== LeakCheck: ";
  out += records.empty() ? "nothing is live now" : "live now";
  if (titled) {
    out += " in the ";
    out += levelTitle(level);
  }
  out += " (pid ";
  appendNumber(out, static_cast<uint64_t>(input.pid));
  out += ", ";
  appendNumber(out, input.sinceStartMs);
  out += " ms after start)\n";
  if (records.empty())
    return out;
  out += '\n';
  uint64_t bytes = 0, allocations = 0, resources = 0;
  for (const Group &g : groupBySite(records)) {
    const FamilyInfo &family = familyOf(g.api);
    out += "======    ";
    appendGroupAmount(out, g);
    if (family.kind == Kind::Memory) {
      bytes += g.bytes;
      allocations += g.count;
    } else {
      resources += g.count;
    }
    out += " by ";
    appendGroupCall(out, input.sites, g);
    out += '\n';
    appendCallerLines(out, input.sites, g.site);
  }
  out += "\n====== SUMMARY: ";
  appendNumber(out, bytes);
  out += " byte(s) in ";
  appendNumber(out, allocations);
  out += " allocation(s) and ";
  appendNumber(out, resources);
  out += " resource(s) live\n";
  return out;
}

std::string
formatImplicitReleases(const SiteTable &sites, Level level,
                       const std::vector<ImplicitReleaseEvent> &list,
                       bool titled) {
  std::string out;
  if (list.empty())
    return out;
  if (titled)
    appendTitle(out, level);
  out += "====== NOTE: LeakCheck: resources released implicitly\n\n";
  KindCounts kinds;
  for (const ImplicitReleaseEvent &entry : list) {
    const Record &r = entry.acquired;
    const FamilyInfo &family = familyOf(r.api);
    out += "======    Implicitly released ";
    out += family.display;
    appendReferences(out, family, r);
    out += "\n======      ";
    appendHandle(out, family, handleOf(family, r.key));
    appendCall(out, sites, "acquired by ", r.api, r.site, r.serial);
    out += '\n';
    appendCallerLines(out, sites, r.site);
    out += "======      ";
    appendCall(out, sites, "released by ", entry.release.api,
               entry.release.site, entry.release.serial);
    out += '\n';
    appendCallerLines(out, sites, entry.release.site);
    out += '\n';
    kinds.add(family.display);
  }
  kinds.appendSummary(out, list.size(), "released implicitly");
  return out;
}

std::string
formatLeakSections(const SiteTable &sites, const LeakSections &what,
                   std::vector<Record> (&live)[2],
                   const std::vector<ImplicitReleaseEvent> (&implicit)[2],
                   LeakTotals *totals) {
  bool titled = what.checked[0] && what.checked[1];
  std::string out;
  for (Level level : {Level::Device, Level::Cann}) {
    int index = static_cast<int>(level);
    if (!what.checked[index])
      continue;
    std::string section =
        formatLeaks(sites, level, live[index], what.groupBySite,
                    what.includeResources, titled, totals, what.budget);
    if (what.noteImplicit) {
      std::string note = formatImplicitReleases(sites, level, implicit[index],
                                                titled && section.empty());
      if (!note.empty() && !section.empty())
        section += '\n';
      section += note;
    }
    if (!section.empty() && !out.empty())
      out += '\n';
    out += section;
  }
  return out;
}

/// "illegal free()", "double release: aclrtDestroyStream of a stream already
/// released", "mismatched free: aclrtFreeHost on device memory allocated by
/// aclrtMalloc", "illegal write of size 64", ...
std::string errorTitle(const ErrorEvent &error, const SiteTable *sites) {
  const ApiInfo &api = apiInfo(error.api);
  const char *called =
      calledName(error.api, sites ? sites->site(error.site) : nullptr);
  const FamilyInfo &family = familyInfo(api.family);
  bool memory = family.kind == Kind::Memory;
  if (isAccessError(error.kind))
    return std::string(error.write ? "illegal write" : "illegal read") +
           " of size " + std::to_string(error.badBytes);
  switch (error.kind) {
  case ErrorKind::IllegalRelease:
    return memory ? "illegal free()"
                  : releaseOf("illegal release: ", called, family,
                              " that was never acquired");
  case ErrorKind::DoubleRelease:
    return memory ? "double free"
                  : releaseOf("double release: ", called, family,
                              " already released");
  case ErrorKind::MismatchedRelease:
  case ErrorKind::UseAfterFree:
  case ErrorKind::OutOfBounds:
  case ErrorKind::WrongDirection:
    break;
  }
  const ApiInfo &allocator = apiInfo(error.acquired.api);
  const FamilyInfo &allocated = familyInfo(allocator.family);
  bool memoryAllocated = allocated.kind == Kind::Memory;
  std::string out = memory ? "mismatched free: " : "mismatched release: ";
  out += called;
  out += " on ";
  if (!memoryAllocated)
    out += article(allocated.display);
  out += allocated.display;
  out += memoryAllocated ? " allocated by " : " acquired by ";
  out += calledName(error.acquired.api,
                    sites ? sites->site(error.acquired.site) : nullptr);
  return out;
}

namespace {

/// "======    code in main.cpp:9 (serialNo:4)" and the site's callers.
void appendEventLine(std::string &out, const SiteTable &sites, const char *what,
                     uint32_t site, uint64_t serial) {
  out += "======    ";
  out += what;
  appendLocation(out, sites.site(site));
  appendSerial(out, serial);
  out += '\n';
  appendCallerLines(out, sites, site);
}

} // namespace

std::string accessProblem(const ErrorEvent &error) {
  const char *name = apiInfo(error.api).name;
  const char *verb = error.write ? " writes " : " reads ";
  std::string out;
  switch (error.kind) {
  case ErrorKind::UseAfterFree:
    out = std::string("use after free: ") + name + verb;
    appendNumber(out, error.accessSize);
    out += " bytes of memory already freed";
    break;
  case ErrorKind::OutOfBounds:
    out = std::string("out of bounds: ") + name + verb;
    appendNumber(out, error.accessSize);
    out += " bytes at ";
    appendHex(out, error.accessStart);
    out += ", ";
    appendNumber(out, error.badBytes);
    out += " past the end of ";
    appendNumber(out, error.acquired.size);
    out += " bytes";
    break;
  default: {
    bool host = static_cast<Space>(error.acquired.space) == Space::Host;
    out = std::string("wrong direction: ") + name;
    if (*directionName(error.direction)) {
      out += " (";
      out += directionName(error.direction);
      out += ')';
    }
    out += verb;
    out +=
        host ? "host memory as device memory" : "device memory as host memory";
    break;
  }
  }
  return out;
}

namespace {

/// An access error, in msSanitizer's words: "illegal write of size N", where
/// (address, space, the call's site), what went wrong, then the memory's
/// free and allocation.
std::string formatAccessError(const SiteTable &sites, const ErrorEvent &error,
                              bool titled) {
  std::string out = "====== ERROR: " + errorTitle(error, &sites);
  if (titled) {
    out += " [";
    out += levelTitle(familyOf(error.api).level);
    out += ']';
  }
  out += "\n======    at ";
  appendHex(out, error.handle);
  out += " on ";
  out += spaceName(static_cast<Space>(error.acquired.space));
  out += " in ";
  appendLocation(out, sites.site(error.site));
  appendSerial(out, error.serial);
  out += '\n';
  appendCallerLines(out, sites, error.site);
  out += "======    " + accessProblem(error) + "\n";
  if (error.hasPrevious)
    appendEventLine(out, sites, "freed in ", error.previous.site,
                    error.previous.serial);
  appendEventLine(out, sites, "allocated in ", error.acquired.site,
                  error.acquired.serial);
  out += '\n';
  return out;
}

} // namespace

std::string formatError(const SiteTable &sites, const ErrorEvent &error,
                        bool titled) {
  if (isAccessError(error.kind))
    return formatAccessError(sites, error, titled);
  const FamilyInfo &family = familyInfo(apiInfo(error.api).family);
  bool memory = family.kind == Kind::Memory;
  std::string out = "====== ERROR: " + errorTitle(error, &sites);
  if (titled) {
    out += " [";
    out += levelTitle(family.level);
    out += ']';
  }
  out += "\n======    ";
  appendHandleWords(out, family, error.handle);
  Space space = error.hasAcquired ? static_cast<Space>(error.acquired.space)
                                  : error.space;
  if (space != Space::None) {
    out += " on ";
    out += spaceName(space);
  }
  out += '\n';
  appendEventLine(out, sites, "code in ", error.site, error.serial);
  if (error.hasPrevious)
    appendEventLine(out, sites,
                    memory ? "freed before in " : "released before in ",
                    error.previous.site, error.previous.serial);
  if (error.hasAcquired)
    appendEventLine(out, sites, memory ? "allocated in " : "acquired in ",
                    error.acquired.site, error.acquired.serial);
  if (error.callFailed)
    out += "======    the call returned an error\n";
  out += '\n';
  return out;
}

void separateKnown(const SiteTable &sites, const Baseline &baseline,
                   std::vector<Record> (&live)[2],
                   const std::vector<ErrorEvent> &errors, KnownFindings *known,
                   bool goneKnown) {
  for (Level level : {Level::Device, Level::Cann}) {
    std::vector<Record> &records = live[static_cast<int>(level)];
    std::vector<Record> kept;
    for (const Record &r : records)
      (known->tally.count(baseline, leakFingerprint(sites, level, r))
           ? known->live[static_cast<int>(level)]
           : kept)
          .push_back(r);
    records = std::move(kept);
  }
  for (const ErrorEvent &e : errors)
    if (known->tally.count(baseline, errorFingerprint(sites, e)))
      known->errors.push_back(e);
  known->tally.finish(baseline, goneKnown);
}

std::string errorSummary(const SiteTable &sites, const ErrorEvent &error) {
  std::string what = isAccessError(error.kind) ? accessProblem(error)
                                               : errorTitle(error, &sites);
  const char *called = calledName(error.api, sites.site(error.site));
  if (what.find(called) == std::string::npos)
    what += std::string(" by ") + called;
  return what;
}

std::vector<std::pair<const ErrorEvent *, uint64_t>>
errorGroups(const std::vector<ErrorEvent> &errors) {
  std::map<std::tuple<int, uint32_t, unsigned>, size_t> index;
  std::vector<std::pair<const ErrorEvent *, uint64_t>> groups;
  for (const ErrorEvent &e : errors) {
    auto key = std::make_tuple(static_cast<int>(e.kind), e.site, e.api);
    auto [found, added] = index.emplace(key, groups.size());
    if (added)
      groups.emplace_back(&e, 0);
    ++groups[found->second].second;
  }
  return groups;
}

std::string knownHeading(const Baseline &baseline) {
  return std::string(kPrefix) + "KNOWN: findings in the baseline " +
         printable(baseline.name()) + ", not counted for the exit status\n\n";
}

std::string formatKnown(const SiteTable &sites, const Baseline &baseline,
                        const KnownFindings &known) {
  std::string out;
  for (const auto &[e, count] : errorGroups(known.errors)) {
    out += "======    " + errorSummary(sites, *e) + " in ";
    appendLocation(out, sites.site(e->site));
    out += ", ";
    appendNumber(out, count);
    out += " time(s) [";
    out += levelTitle(familyOf(e->api).level);
    out += "]\n";
    appendCallerLines(out, sites, e->site);
  }
  for (Level level : {Level::Device, Level::Cann})
    for (const Group &g : groupBySite(known.live[static_cast<int>(level)])) {
      out += familyOf(g.api).kind == Kind::Memory ? "======    memory leak: "
                                                  : "======    resource leak: ";
      appendGroupAmount(out, g);
      out += " by ";
      appendGroupCall(out, sites, g);
      out += " [";
      out += levelTitle(level);
      out += "]\n";
      appendCallerLines(out, sites, g.site);
    }
  if (!out.empty())
    out = "\n" + knownHeading(baseline) + out;
  return out + "\n" + formatBaselineSummary(baseline, known.tally);
}

std::string formatBaselineSummary(const Baseline &baseline,
                                  const BaselineTally &tally) {
  std::string out;
  if (!tally.gone.empty()) {
    out += std::string(kPrefix) + "GONE: findings in the baseline " +
           printable(baseline.name()) +
           " that this run did not report (fixed? then make the baseline "
           "again)\n\n";
    for (const BaselineFinding *gone : tally.gone) {
      out += "======    " + printable(gone->rule) + " by " +
             printable(gone->api) + " in ";
      out += gone->file.empty()
                 ? "<unknown>:0"
                 : printable(gone->file) + ":" + std::to_string(gone->line);
      if (!gone->function.empty())
        out += " (" + printable(gone->function) + ")";
      std::optional<Level> level = levelNamed(gone->level);
      out += std::string(" [") + (level ? levelTitle(*level) : "?") + "]\n";
    }
    out += '\n';
  }
  out += std::string(kPrefix) + "SUMMARY: against the baseline " +
         printable(baseline.name()) + ": ";
  appendNumber(out, tally.fresh.size());
  out += " new finding(s), ";
  appendNumber(out, tally.known.size());
  out += " known, ";
  if (tally.goneKnown) {
    appendNumber(out, tally.gone.size());
    out += " gone\n";
  } else {
    out += "gone ones not known to one process of a job (msledger merge "
           "--baseline tells)\n";
  }
  return out;
}

namespace {

json::object siteFields(const msledger_site *site) {
  json::object out;
  out["file"] = site && site->file ? site->file : "<unknown>";
  out["line"] = site ? site->line : 0;
  out["column"] = site ? site->column : 0;
  if (site) {
    // 64 bits: a JSON number loses what is above 2^53 in jq and JavaScript.
    out["site_serial"] = std::to_string(site->serial);
    if (site->function)
      out["function"] = site->function;
  } else {
    out["site_serial"] = nullptr;
  }
  return out;
}

/// The site's fields and, for a call chain, "chain": its callers'.
json::object siteJson(const SiteTable &sites, uint32_t id) {
  json::object out = siteFields(sites.site(id));
  std::vector<const msledger_site *> callers = sites.callers(id);
  if (!callers.empty()) {
    json::array chain;
    for (const msledger_site *caller : callers)
      chain.push_back(siteFields(caller));
    out["chain"] = std::move(chain);
  }
  return out;
}

double milliseconds(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string handleText(const FamilyInfo &family, uint64_t handle) {
  std::string out;
  appendHandleValue(out, family, handle);
  return out;
}

json::object eventJson(const ReportInput &input, unsigned api, uint64_t serial,
                       uint32_t site, uint16_t thread) {
  json::object out = siteJson(input.sites, site);
  out["callee"] = calledName(api, input.sites.site(site));
  out["serialNo"] = serial;
  out["thread"] = thread;
  out["time_ms"] = milliseconds(input.timeOfSerialNs(serial));
  return out;
}

json::object recordJson(const ReportInput &input, Level level,
                        const Record &r) {
  const FamilyInfo &family = familyOf(r.api);
  json::object out = eventJson(input, r.api, r.serial, r.site, r.thread);
  out["level"] = levelName(level);
  out["family"] = family.name;
  out["kind"] = kindName(family.kind);
  out["handle"] = handleText(family, handleOf(family, r.key));
  if (family.refcounted)
    out["references"] = r.size;
  else if (family.perDevice)
    out["device"] =
        r.size == UINT32_MAX ? json::value(nullptr) : json::value(r.size);
  else
    out["size"] = r.size;
  out["space"] = spaceName(static_cast<Space>(r.space));
  // The operator an executor or a workspace belongs to.
  std::string op = r.workspaceOf
                       ? operatorAt(input.sites.site(r.workspaceOf))
                       : operatorName(family, input.sites.site(r.site));
  if (!op.empty())
    out["operator"] = op;
  return out;
}

/// Memory on a device: the spaces npu-smi counts (GM, DVPP).
bool deviceMemory(const Record &r) {
  Space space = static_cast<Space>(r.space);
  return familyOf(r.api).kind == Kind::Memory &&
         (space == Space::GM || space == Space::DVPP);
}

struct DeviceShare {
  uint64_t bytes = 0, count = 0;
};
using DeviceShares = std::map<uint8_t, DeviceShare>; // kNoDevice last

/// [{"device": 0, "live_bytes": ..., <countName>: ...}], "device": null for
/// memory whose device is not known.
json::array deviceSharesJson(const DeviceShares &shares,
                             const char *countName) {
  json::array out;
  for (const auto &[device, share] : shares) {
    json::object entry;
    if (device == kNoDevice)
      entry["device"] = nullptr;
    else
      entry["device"] = device;
    entry["live_bytes"] = share.bytes;
    entry[countName] = share.count;
    out.push_back(std::move(entry));
  }
  return out;
}

} // namespace

std::string formatSnapshot(const ReportInput &input,
                           const std::vector<Record> (&live)[2],
                           uint64_t sequence) {
  json::object root;
  root["tool"] = "msledger";
  root["format"] = 1;
  root["kind"] = "snapshot";
  root["pid"] = input.pid;
  root["sequence"] = sequence;
  root["time_ms"] = input.sinceStartMs;
  root["started_unix_ms"] = input.startUnixMs;
  json::array sites;
  json::object totals;
  for (Level level : {Level::Device, Level::Cann}) {
    if (!input.tracked[static_cast<int>(level)])
      continue;
    const std::vector<Record> &records = live[static_cast<int>(level)];
    // Device memory per device: of each site (same key as groupBySite's)
    // and in all.
    std::map<std::tuple<uint32_t, uint16_t, uint8_t>, DeviceShares> bySite;
    DeviceShares byDevice;
    for (const Record &r : records) {
      if (!deviceMemory(r))
        continue;
      for (DeviceShare *share :
           {&bySite[std::make_tuple(r.site, r.api, r.space)][r.device],
            &byDevice[r.device]}) {
        share->bytes += r.size;
        share->count += 1;
      }
    }
    uint64_t bytes = 0, allocations = 0, resources = 0;
    for (const Group &g : groupBySite(records)) {
      const FamilyInfo &family = familyOf(g.api);
      json::object site = siteJson(input.sites, g.site);
      site["level"] = levelName(level);
      site["callee"] = calledName(g.api, input.sites.site(g.site));
      site["family"] = family.name;
      site["kind"] = kindName(family.kind);
      site["space"] = spaceName(static_cast<Space>(g.space));
      site["live_bytes"] = g.bytes;
      site["live_count"] = g.count;
      auto shares = bySite.find(std::make_tuple(g.site, g.api, g.space));
      if (shares != bySite.end())
        site["devices"] = deviceSharesJson(shares->second, "live_count");
      sites.push_back(std::move(site));
      bytes += g.bytes;
      (family.kind == Kind::Memory ? allocations : resources) += g.count;
    }
    totals[levelName(level)] = json::object{
        {"live_bytes", bytes},
        {"live_allocations", allocations},
        {"live_resources", resources},
        {"devices", deviceSharesJson(byDevice, "live_allocations")}};
  }
  root["sites"] = std::move(sites);
  root["totals"] = std::move(totals);
  json::array annotations;
  for (const Annotation &a : input.annotations) {
    json::object out{{"kind", a.range ? "range" : "mark"},
                     {"message", a.message},
                     {"start_ms", a.startMs}};
    if (a.range)
      out["end_ms"] = a.endMs >= 0 ? json::value(a.endMs) : nullptr;
    annotations.push_back(std::move(out));
  }
  root["annotations"] = std::move(annotations);
  return writeJson(root);
}

namespace {

/// "leaks" and "resources": the live records of every level, in serial
/// order, with each level's totals in `summary`.
void addLiveJson(json::object &root, json::object &summary,
                 const ReportInput &input,
                 const std::vector<Record> (&live)[2]) {
  json::array leaks, resources;
  for (Level level : {Level::Device, Level::Cann}) {
    uint64_t bytes = 0, allocations = 0, handles = 0;
    std::vector<Record> sorted = live[static_cast<int>(level)];
    std::sort(
        sorted.begin(), sorted.end(),
        [](const Record &a, const Record &b) { return a.serial < b.serial; });
    for (const Record &r : sorted) {
      json::object leak = recordJson(input, level, r);
      leak["fingerprint"] = leakFingerprint(input.sites, level, r);
      if (familyOf(r.api).kind == Kind::Memory) {
        leaks.push_back(std::move(leak));
        bytes += r.size;
        ++allocations;
      } else {
        resources.push_back(std::move(leak));
        ++handles;
      }
    }
    if (input.tracked[static_cast<int>(level)])
      summary[levelName(level)] =
          json::object{{"leaked_bytes", bytes},
                       {"leaked_allocations", allocations},
                       {"leaked_resources", handles}};
  }
  root["leaks"] = std::move(leaks);
  root["resources"] = std::move(resources);
}

json::object errorJson(const ReportInput &input, const ErrorEvent &e) {
  const FamilyInfo &family = familyOf(e.api);
  json::object out = eventJson(input, e.api, e.serial, e.site, e.thread);
  out["kind"] = errorKindName(e.kind);
  out["level"] = levelName(family.level);
  out["fingerprint"] = errorFingerprint(input.sites, e);
  out["family"] = family.name;
  out["handle"] = handleText(family, e.handle);
  out["space"] =
      spaceName(e.hasAcquired ? static_cast<Space>(e.acquired.space) : e.space);
  out["call_failed"] = e.callFailed;
  out["time_ms"] = milliseconds(e.timeNs);
  if (e.hasAcquired) {
    json::object acquired = eventJson(input, e.acquired.api, e.acquired.serial,
                                      e.acquired.site, e.acquired.thread);
    acquired["family"] = familyOf(e.acquired.api).name;
    out["acquired"] = std::move(acquired);
  }
  if (e.hasPrevious)
    out["previous_release"] =
        eventJson(input, e.previous.api, e.previous.serial, e.previous.site,
                  e.previous.thread);
  if (isAccessError(e.kind)) {
    out["access"] = e.write ? "write" : "read";
    out["bad_bytes"] = e.badBytes;
    out["range"] = json::object{{"address", handleText(family, e.accessStart)},
                                {"size", e.accessSize}};
    if (*directionName(e.direction))
      out["direction"] = directionName(e.direction);
    out["message"] = accessProblem(e);
  }
  return out;
}

} // namespace

std::string formatJson(const ReportInput &input,
                       const std::vector<Record> (&live)[2],
                       const std::vector<ErrorEvent> &errors, bool final) {
  json::object root;
  root["tool"] = "msledger";
  root["format"] = 1;
  root["pid"] = input.pid;
  root["ppid"] = input.parentPid;
  root["rank"] = input.rank >= 0 ? json::value(input.rank) : nullptr;
  root["program"] = input.program;
  root["final"] = final;
  root["started_unix_ms"] = input.startUnixMs;
  json::array levels;
  for (Level level : {Level::Device, Level::Cann})
    if (input.tracked[static_cast<int>(level)])
      levels.emplace_back(levelName(level));
  root["levels"] = std::move(levels);
  json::object summary;
  addLiveJson(root, summary, input, live);
  json::array errorList;
  for (const ErrorEvent &e : errors)
    errorList.push_back(errorJson(input, e));
  json::array implicit;
  for (Level level : {Level::Device, Level::Cann})
    for (const ImplicitReleaseEvent &entry :
         input.implicit[static_cast<int>(level)]) {
      json::object out = recordJson(input, level, entry.acquired);
      out["released_by"] =
          eventJson(input, entry.release.api, entry.release.serial,
                    entry.release.site, entry.release.thread);
      implicit.push_back(std::move(out));
    }
  summary["errors"] = errors.size();
  root["errors"] = std::move(errorList);
  root["implicit_releases"] = std::move(implicit);
  root["summary"] = std::move(summary);
  // The start's report lists nothing yet: it says nothing of the baseline.
  if (input.baseline && final)
    markBaseline(*input.baseline, root, input.baselineGoneKnown);
  return writeJson(root);
}

} // namespace msledger
