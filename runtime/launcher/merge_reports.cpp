//===- merge_reports.cpp - One report of a job's processes ----------------===//
#include "merge_reports.h"

#include "access.h"
#include "catalog_table.h"
#include "escape.h"
#include "events.h"
#include "fingerprint.h"
#include "job.h"
#include "json_io.h"
#include "junit.h"
#include "report.h"
#include "sarif.h"
#include "text_file.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <deque>
#include <optional>
#include <sys/stat.h>

namespace json = boost::json;

namespace msledger {

namespace {

const char *const kPrefix = "====== ";

/// `sum` + `add`, held at UINT64_MAX rather than wrapped: each size is at
/// most 2^53, but sums of many are not.
void addSaturating(uint64_t &sum, uint64_t add) {
  sum = add > UINT64_MAX - sum ? UINT64_MAX : sum + add;
}

/// A field of an object merge has checked (checkEvent): it reads as it was
/// checked, through the one reader of JSON inputs.
int64_t integer(const json::object &in, const char *name, int64_t fallback) {
  return JsonFields(in, "").integer(name, INT64_MIN, INT64_MAX, fallback,
                                    /*nullable=*/true);
}

std::string text(const json::object &in, const char *name) {
  return JsonFields(in, "").string(name);
}

std::optional<ErrorKind> errorKindNamed(const std::string &kind) {
  for (ErrorKind known : kErrorKinds)
    if (kind == errorKindName(known))
      return known;
  return std::nullopt;
}

/// The copy direction `name` (access.h's directionName) stands for.
std::optional<int> directionNamed(const std::string &name) {
  for (int kind = 0; kind < 8; ++kind)
    if (name == directionName(kind))
      return kind;
  return std::nullopt;
}

/// The checks of a site's fields: the event's own, a caller's of its chain,
/// an allocation's or an earlier release's.
void checkSite(JsonFields &in) {
  in.string("file");
  in.string("function");
  in.integer("line", 0, UINT32_MAX, 0);
  in.integer("column", 0, UINT32_MAX, 0);
  const json::value *serial = in.fields().if_contains("site_serial");
  if (serial && !serial->is_null()) {
    std::string digits = in.string("site_serial");
    errno = 0;
    char *end = nullptr;
    strtoull(digits.c_str(), &end, 10);
    if (in.ok() &&
        (digits.empty() ||
         digits.find_first_not_of("0123456789") != std::string::npos || *end ||
         errno))
      in.fail("site_serial",
              "\"" + printable(digits) + "\" is not a site's serial number");
  }
  in.forEachObject("chain", "a caller is not an object", checkSite);
}

/// Checks an event of `category` ("leaks", "resources", "errors"): the
/// names it gives must be this msledger's, numbers exact and in range.
void checkEvent(JsonFields &in, const std::string &category) {
  checkSite(in);
  std::string level = in.string("level"), callee = in.string("callee"),
              space = in.string("space");
  in.string("family");
  in.count("size");
  in.count("serialNo");
  // A callee this msledger's catalog does not list (one the application
  // registered, msledger_register_api) is merged all the same; the SARIF
  // log, whose rules come from the catalog, says it leaves it out.
  if (!levelNamed(level))
    in.fail("level",
            "\"" + printable(level) + "\" is not a level (device, cann)");
  else if (callee.empty())
    in.fail("callee", "no API named");
  else if (!spaceNamed(space))
    in.fail("space", "\"" + printable(space) + "\" is not a memory space");
  if (category != "errors")
    return;
  std::string kind = in.string("kind");
  if (in.ok() && !errorKindNamed(kind))
    in.fail("kind", "\"" + printable(kind) + "\" is not an error kind");
  for (const char *related : {"acquired", "previous_release"})
    if (const json::object *event = in.object(related)) {
      JsonFields fields = in.nested(*event, related);
      checkSite(fields);
      fields.string("callee");
    }
  // An access error's details: each one of the values the ledger writes.
  std::string access = in.string("access");
  if (in.ok() && !access.empty() && access != "read" && access != "write")
    in.fail("access", "\"" + printable(access) + "\" is not read or write");
  in.count("bad_bytes");
  if (const json::object *range = in.object("range")) {
    JsonFields fields = in.nested(*range, "range");
    fields.count("size");
    std::string address = fields.string("address");
    char *end = nullptr;
    errno = 0;
    strtoull(address.c_str(), &end, 16);
    if (fields.ok() && !address.empty() && (*end || errno))
      fields.fail("address", "\"" + printable(address) +
                                 "\" is not a hexadecimal address");
  }
  std::string direction = in.string("direction");
  if (in.ok() && !direction.empty() && !directionNamed(direction))
    in.fail("direction",
            "\"" + printable(direction) + "\" is not a copy direction");
}

/// Checks a report as merge reads it; false with *error naming the file
/// and the field.
bool checkReport(const MergeInput &input, std::string *error) {
  JsonFields in(input.report, input.path);
  if (!input.report.contains("pid"))
    in.fail("pid", "missing: every report names its process");
  in.integer("pid", 1, INT32_MAX, 0);
  in.integer("rank", 0, INT32_MAX, -1, /*nullable=*/true);
  in.string("program");
  in.boolean("final", false);
  for (const char *category : {"leaks", "resources", "errors"})
    in.forEachObject(category, "an entry is not an object",
                     [&](JsonFields &event) { checkEvent(event, category); });
  *error = in.error();
  return in.ok();
}

/// The fields of an event that name its site.
json::object siteOf(const json::object &event) {
  json::object site;
  for (const char *name :
       {"file", "line", "column", "site_serial", "function", "chain"})
    if (const json::value *field = event.if_contains(name))
      site[name] = *field;
  return site;
}

/// "job.c:30", or "<unknown>:0".
std::string place(const json::object &site) {
  std::string file = printable(text(site, "file"));
  return (file.empty() ? "<unknown>" : file) + ":" +
         std::to_string(integer(site, "line", 0));
}

/// "rank 1 (pid 102)" or "pid 102 (no rank)".
std::string processName(const MergedProcess &process) {
  return process.rank >= 0
             ? rankText(process.rank) + " (pid " + std::to_string(process.pid) +
                   ")"
             : "pid " + std::to_string(process.pid) + " (no rank)";
}

const char *levelTitleOf(const std::string &level) {
  return levelTitle(levelNamed(level).value_or(Level::Cann));
}

std::string familyDisplay(const MergedFinding &finding) {
  int api = apiIndex(finding.callee.c_str());
  return api >= 0 ? familyOf(static_cast<unsigned>(api)).display
                  : printable(finding.family);
}

const char *errorWords(const std::string &kind) {
#define MSLEDGER_ERROR_KIND(Name, json, access, sarifId, sarifName, brief,     \
                            full, mergeWords)                                  \
  if (kind == json)                                                            \
    return mergeWords;
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
  return "mismatched free or release";
}

void appendShares(std::string &out, const MergedJob &job,
                  const MergedFinding &finding, bool bytes) {
  for (const auto &[index, share] : finding.byProcess) {
    out += kPrefix;
    out += "     ";
    out += processName(job.processes[index]) + ": ";
    if (bytes)
      out += std::to_string(share.bytes) + " byte(s) in " +
             std::to_string(share.count) + " allocation(s)\n";
    else
      out += std::to_string(share.count) + "\n";
  }
}

void appendChain(std::string &out, const json::object &site) {
  const json::value *chain = site.if_contains("chain");
  if (!chain || !chain->is_array())
    return;
  for (const json::value &caller : chain->as_array())
    if (caller.is_object())
      out += std::string(kPrefix) + "     called from " +
             place(caller.as_object()) + "\n";
}

/// How many processes have new findings of `category`.
size_t processesWith(const MergedJob &job, const std::string &category) {
  std::vector<bool> seen(job.processes.size());
  for (const MergedFinding &finding : job.findings)
    if (finding.category == category && !finding.known)
      for (const auto &share : finding.byProcess)
        seen[share.first] = true;
  return static_cast<size_t>(std::count(seen.begin(), seen.end(), true));
}

/// The synthetic sites and chains a SARIF log of the job reads.
struct MergedSites {
  std::deque<std::string> strings;
  std::deque<msledger_site> sites;
  std::vector<const msledger_site *> byId{nullptr};
  std::vector<std::vector<const msledger_site *>> callers{{}};

  const char *keep(const std::string &value) {
    if (value.empty())
      return nullptr;
    strings.push_back(value);
    return strings.back().c_str();
  }
  const msledger_site *make(const json::object &fields, const char *callee) {
    std::string file = text(fields, "file");
    if (file.empty() || file == "<unknown>")
      return nullptr;
    msledger_site site{};
    site.file = keep(file);
    site.line = static_cast<uint32_t>(integer(fields, "line", 0));
    site.column = static_cast<uint32_t>(integer(fields, "column", 0));
    site.serial =
        std::strtoull(text(fields, "site_serial").c_str(), nullptr, 10);
    site.callee = callee ? keep(callee) : nullptr;
    site.function = keep(text(fields, "function"));
    sites.push_back(site);
    return &sites.back();
  }
  /// The id of a finding's site (0: none), its chain registered with it.
  uint32_t add(const json::object &fields, const std::string &callee) {
    const msledger_site *site = make(fields, callee.c_str());
    if (!site)
      return 0;
    std::vector<const msledger_site *> chain;
    if (const json::value *list = fields.if_contains("chain"))
      if (list->is_array())
        for (const json::value &caller : list->as_array())
          if (caller.is_object())
            if (const msledger_site *made = make(caller.as_object(), nullptr))
              chain.push_back(made);
    byId.push_back(site);
    callers.push_back(std::move(chain));
    return static_cast<uint32_t>(byId.size() - 1);
  }
  SiteTable table() const {
    return {
        [this](uint32_t id) { return id < byId.size() ? byId[id] : nullptr; },
        [this](uint32_t id) {
          return id < callers.size() ? callers[id]
                                     : std::vector<const msledger_site *>{};
        }};
  }
};

/// The rule of a finding (SARIF's, the fingerprint's, JUnit's type).
const char *ruleOf(const MergedFinding &finding) {
  return finding.category == "error"
             ? errorRule(errorKindNamed(finding.kind)
                             .value_or(ErrorKind::IllegalRelease))
         : finding.category == "leak" ? "memory-leak"
                                      : "resource-leak";
}

/// An access error's details, from its first report's JSON.
void describeAccess(const json::object &first, ErrorEvent *event) {
  event->write = text(first, "access") == "write";
  event->badBytes = static_cast<uint64_t>(integer(first, "bad_bytes", 0));
  if (const json::value *range = first.if_contains("range");
      range && range->is_object()) {
    event->accessSize =
        static_cast<uint64_t>(integer(range->as_object(), "size", 0));
    event->accessStart =
        std::strtoull(text(range->as_object(), "address").c_str(), nullptr, 16);
  }
  if (std::optional<int> direction = directionNamed(text(first, "direction")))
    event->direction = *direction;
}

} // namespace

bool parseMergeInput(const std::string &bytes, const std::string &path,
                     MergeInput *input, std::string *error) {
  std::unique_ptr<json::object> report = parseJsonObject(bytes, path, error);
  if (!report)
    return false;
  const json::value *tool = report->if_contains("tool");
  if (!tool || !tool->is_string() || tool->get_string() != "msledger" ||
      !report->contains("leaks")) {
    *error = path + ": not a JSON report of msledger (--json=FILE)";
    return false;
  }
  if (const json::value *merged = report->if_contains("merged");
      merged && !(merged->is_bool() && !merged->get_bool())) {
    *error = path +
             ": a report of msledger merge, not of one process: merge the "
             "processes' own reports";
    return false;
  }
  *input = MergeInput{path, std::move(*report)};
  return checkReport(*input, error);
}

bool readMergeInputs(const std::vector<std::string> &paths,
                     std::vector<MergeInput> *inputs, std::string *error,
                     std::vector<std::string> *warnings) {
  std::map<std::pair<dev_t, ino_t>, std::string> seen;
  for (const std::string &path : paths) {
    std::optional<std::string> bytes = readTextFile(path, error);
    if (!bytes)
      return false;
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
      auto [first, added] =
          seen.emplace(std::make_pair(st.st_dev, st.st_ino), path);
      if (!added) {
        if (warnings)
          warnings->push_back(path + " is the report " + first->second +
                              " again: counted once");
        continue;
      }
    }
    MergeInput input;
    if (!parseMergeInput(*bytes, path, &input, error))
      return false;
    inputs->push_back(std::move(input));
  }
  return true;
}

MergedJob mergeReports(const std::vector<MergeInput> &inputs) {
  MergedJob job;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const json::object &report = inputs[i].report;
    MergedProcess process;
    process.path = inputs[i].path;
    process.pid = static_cast<int>(integer(report, "pid", 0));
    process.rank = static_cast<int>(integer(report, "rank", -1));
    process.program = text(report, "program");
    const json::value *final = report.if_contains("final");
    process.reported = final && final->is_bool() && final->as_bool();
    job.processes.push_back(process);
  }
  // Ranks first, in order; then the processes without one, by pid.
  std::vector<size_t> sorted(inputs.size());
  for (size_t i = 0; i < sorted.size(); ++i)
    sorted[i] = i;
  std::stable_sort(sorted.begin(), sorted.end(), [&](size_t a, size_t b) {
    const MergedProcess &x = job.processes[a], &y = job.processes[b];
    return std::make_tuple(x.rank < 0, x.rank, x.pid) <
           std::make_tuple(y.rank < 0, y.rank, y.pid);
  });
  std::vector<MergedProcess> processes;
  for (size_t i : sorted)
    processes.push_back(job.processes[i]);
  job.processes = processes;

  std::map<std::string, size_t> index;
  for (size_t p = 0; p < sorted.size(); ++p) {
    const json::object &report = inputs[sorted[p]].report;
    MergedProcess &process = job.processes[p];
    for (const char *category : {"leaks", "resources", "errors"}) {
      const json::value *list = report.if_contains(category);
      if (!list || !list->is_array())
        continue;
      for (const json::value &item : list->as_array()) {
        if (!item.is_object())
          continue;
        const json::object &event = item.as_object();
        MergedFinding finding;
        finding.category = category == std::string("leaks")       ? "leak"
                           : category == std::string("resources") ? "resource"
                                                                  : "error";
        if (finding.category == "error")
          finding.kind = text(event, "kind");
        finding.level = text(event, "level");
        finding.family = text(event, "family");
        finding.callee = text(event, "callee");
        finding.space = text(event, "space");
        finding.site = siteOf(event);
        std::string key = finding.category + "|" + finding.kind + "|" +
                          finding.level + "|" + finding.callee + "|" +
                          finding.space + "|" + json::serialize(finding.site);
        auto found = index.find(key);
        if (found == index.end()) {
          if (const json::value *acquired = event.if_contains("acquired"))
            finding.acquired = *acquired;
          if (const json::value *previous =
                  event.if_contains("previous_release"))
            finding.previous = *previous;
          if (finding.category == "error")
            finding.first = event;
          finding.firstSerial =
              static_cast<uint64_t>(integer(event, "serialNo", 0));
          found = index.emplace(key, job.findings.size()).first;
          job.findings.push_back(std::move(finding));
        }
        MergedFinding &merged = job.findings[found->second];
        if (apiIndex(merged.callee.c_str()) < 0)
          job.uncataloged.insert(merged.callee);
        uint64_t bytes = merged.category == "leak"
                             ? static_cast<uint64_t>(integer(event, "size", 0))
                             : 0;
        ++merged.count;
        addSaturating(merged.bytes, bytes);
        Share &share = merged.byProcess[p];
        ++share.count;
        addSaturating(share.bytes, bytes);
        if (merged.category == "leak") {
          ++process.leaks;
          addSaturating(process.leakedBytes, bytes);
        } else if (merged.category == "resource") {
          ++process.resources;
        } else {
          ++process.errors;
        }
      }
    }
  }
  MergedSites sites; // the fingerprints' (fingerprint.h), as each report's
  for (MergedFinding &finding : job.findings)
    finding.fingerprint = findingFingerprint(
        ruleOf(finding), levelNamed(finding.level).value_or(Level::Cann),
        sites.table(), sites.add(finding.site, finding.callee), finding.callee);
  auto rankOf = [](const std::string &category) {
    return category == "error" ? 0 : category == "leak" ? 1 : 2;
  };
  std::stable_sort(job.findings.begin(), job.findings.end(),
                   [&](const MergedFinding &a, const MergedFinding &b) {
                     if (rankOf(a.category) != rankOf(b.category))
                       return rankOf(a.category) < rankOf(b.category);
                     if (a.bytes != b.bytes)
                       return a.bytes > b.bytes;
                     return a.count > b.count;
                   });
  return job;
}

namespace {

/// A finding's block of the text report: what, where, and each rank's
/// share. A known error's heading is not an "ERROR:" line, as a known
/// leak's is not.
std::string findingBlock(const MergedJob &job, const MergedFinding &finding) {
  std::string out;
  std::string level = std::string(" [") + levelTitleOf(finding.level) + "]";
  if (finding.category == "error") {
    out += std::string(kPrefix) + (finding.known ? "   " : "ERROR: ") +
           errorWords(finding.kind) + " by " + printable(finding.callee) +
           ", " + std::to_string(finding.count) + " time(s)" + level + "\n";
    out += std::string(kPrefix) + "   code in " + place(finding.site) + "\n";
    appendChain(out, finding.site);
    if (finding.acquired.is_object())
      out += std::string(kPrefix) + "   allocated in " +
             place(finding.acquired.as_object()) + "\n";
    appendShares(out, job, finding, false);
    return out;
  }
  bool memory = finding.category == "leak";
  if (memory) {
    out += std::string(kPrefix) + "   Direct leak of " +
           std::to_string(finding.bytes) + " byte(s) in " +
           std::to_string(finding.count) + " allocation(s)" + level + "\n";
    out += std::string(kPrefix) + "     on " + finding.space +
           " allocated by " + printable(finding.callee) + " in " +
           place(finding.site) + "\n";
  } else {
    out += std::string(kPrefix) + "   Leaked " + familyDisplay(finding) + ": " +
           std::to_string(finding.count) + level + "\n";
    out += std::string(kPrefix) + "     acquired by " +
           printable(finding.callee) + " in " + place(finding.site) + "\n";
  }
  appendChain(out, finding.site);
  appendShares(out, job, finding, memory);
  return out;
}

/// A process that did not report at exit, as the text report says it.
std::string unreportedLine(const MergedProcess &process) {
  return std::string(kPrefix) + "ERROR: " + processName(process) + ", " +
         printable(process.program) +
         ", did not report at exit: killed, ended without exit() (_exit, "
         "abort), or exec()ed a program msledger does not track (" +
         printable(process.path) + " is the report written when it started)\n";
}

} // namespace

bool MergedJob::anyNew() const {
  return std::any_of(
      findings.begin(), findings.end(),
      [](const MergedFinding &finding) { return !finding.known; });
}

void compareWithBaseline(MergedJob &job, const Baseline &baseline) {
  job.baseline = &baseline;
  for (MergedFinding &finding : job.findings)
    finding.known = job.tally.count(baseline, finding.fingerprint);
  job.tally.finish(baseline);
}

std::string formatMergedText(const MergedJob &job) {
  size_t reported = 0;
  for (const MergedProcess &process : job.processes)
    reported += process.reported;
  std::string out = std::string(kPrefix) +
                    "msledger merge: " + std::to_string(job.processes.size()) +
                    " process(es), " + std::to_string(reported) +
                    " reported at exit\n";
  uint64_t bytes = 0, allocations = 0, handles = 0;
  bool leakTitle = false, resourceTitle = false;
  for (const MergedFinding &finding : job.findings) {
    if (finding.known)
      continue; // listed after the new ones
    if (finding.category == "error") {
      out += "\n" + findingBlock(job, finding);
      continue;
    }
    bool memory = finding.category == "leak";
    bool &titled = memory ? leakTitle : resourceTitle;
    if (!titled) {
      if (leakTitle && !memory)
        out += std::string("\n") + kPrefix +
               "SUMMARY: " + std::to_string(bytes) + " byte(s) leaked in " +
               std::to_string(allocations) + " allocation(s), in " +
               std::to_string(processesWith(job, "leak")) + " of " +
               std::to_string(job.processes.size()) + " process(es)\n";
      out += std::string("\n") + kPrefix + "ERROR: LeakCheck: detected " +
             (memory ? "memory" : "resource") + " leaks\n";
      titled = true;
    }
    if (memory) {
      addSaturating(bytes, finding.bytes);
      allocations += finding.count;
    } else {
      handles += finding.count;
    }
    out += "\n" + findingBlock(job, finding);
  }
  if (leakTitle && !resourceTitle)
    out += std::string("\n") + kPrefix + "SUMMARY: " + std::to_string(bytes) +
           " byte(s) leaked in " + std::to_string(allocations) +
           " allocation(s), in " + std::to_string(processesWith(job, "leak")) +
           " of " + std::to_string(job.processes.size()) + " process(es)\n";
  if (resourceTitle)
    out += std::string("\n") + kPrefix + "SUMMARY: " + std::to_string(handles) +
           " resource(s) leaked, in " +
           std::to_string(processesWith(job, "resource")) + " of " +
           std::to_string(job.processes.size()) + " process(es)\n";
  bool unreported = false;
  for (const MergedProcess &process : job.processes) {
    if (process.reported)
      continue;
    if (!unreported)
      out += "\n";
    unreported = true;
    out += unreportedLine(process);
  }
  if (!job.anyNew() && !unreported)
    out += std::string(kPrefix) +
           (job.baseline ? "No new leaks or errors in "
                         : "No leaks or errors in ") +
           std::to_string(job.processes.size()) + " process(es).\n";
  if (job.baseline) {
    std::string known;
    for (const MergedFinding &finding : job.findings)
      if (finding.known)
        known += (known.empty() ? "" : "\n") + findingBlock(job, finding);
    out += "\n";
    if (!known.empty())
      out += knownHeading(*job.baseline) + known + "\n";
    out += formatBaselineSummary(*job.baseline, job.tally);
  }
  return out;
}

std::string formatMergedJson(const MergedJob &job) {
  json::array processes;
  for (const MergedProcess &process : job.processes)
    processes.push_back(json::object{
        {"report", process.path},
        {"pid", process.pid},
        {"rank", process.rank >= 0 ? json::value(process.rank) : nullptr},
        {"program", process.program},
        {"final", process.reported},
        {"leaked_bytes", process.leakedBytes},
        {"leaked_allocations", process.leaks},
        {"leaked_resources", process.resources},
        {"errors", process.errors}});
  json::array leaks, resources, errors;
  for (const MergedFinding &finding : job.findings) {
    json::object out = finding.site;
    if (!finding.kind.empty())
      out["kind"] = finding.kind;
    out["level"] = finding.level;
    out["fingerprint"] = finding.fingerprint;
    out["family"] = finding.family;
    out["callee"] = finding.callee;
    out["space"] = finding.space;
    out["count"] = finding.count;
    if (finding.category == "leak")
      out["bytes"] = finding.bytes;
    if (!finding.acquired.is_null())
      out["acquired"] = finding.acquired;
    if (!finding.previous.is_null())
      out["previous_release"] = finding.previous;
    json::array shares;
    for (const auto &[index, share] : finding.byProcess) {
      const MergedProcess &process = job.processes[index];
      json::object entry{
          {"pid", process.pid},
          {"rank", process.rank >= 0 ? json::value(process.rank) : nullptr},
          {"count", share.count}};
      if (finding.category == "leak")
        entry["bytes"] = share.bytes;
      shares.push_back(std::move(entry));
    }
    out["by_process"] = std::move(shares);
    (finding.category == "leak"       ? leaks
     : finding.category == "resource" ? resources
                                      : errors)
        .push_back(std::move(out));
  }
  json::object root{{"tool", "msledger"},
                    {"format", 1},
                    {"merged", true},
                    {"processes", std::move(processes)},
                    {"leaks", std::move(leaks)},
                    {"resources", std::move(resources)},
                    {"errors", std::move(errors)}};
  if (job.baseline)
    markBaseline(*job.baseline, root);
  return writeJson(root);
}

std::string formatMergedSarif(const MergedJob &job,
                              const std::string &projectRoot) {
  MergedSites sites;
  std::vector<Record> live[2];
  std::vector<ErrorEvent> errors;
  uint64_t serial = 0;
  std::set<std::string> leftOut; // the fingerprints of findings left out
  for (const MergedFinding &finding : job.findings) {
    int api = apiIndex(finding.callee.c_str());
    std::optional<Level> level = levelNamed(finding.level);
    if (api < 0 || !level) {
      leftOut.insert(finding.fingerprint);
      continue; // an API this msledger's catalog does not list
    }
    uint32_t site = sites.add(finding.site, finding.callee);
    ++serial;
    // One event per occurrence, so that counts and bytes add up as the
    // process's own log would have them.
    for (const auto &[index, share] : finding.byProcess)
      for (uint64_t i = 0; i < share.count; ++i) {
        if (finding.category == "error") {
          ErrorEvent event;
          event.kind =
              errorKindNamed(finding.kind).value_or(ErrorKind::IllegalRelease);
          event.api = static_cast<unsigned>(api);
          event.site = site;
          event.serial = serial;
          if (isAccessError(event.kind))
            describeAccess(finding.first, &event);
          if (finding.acquired.is_object()) {
            const json::object &acquired = finding.acquired.as_object();
            int acquiredApi = apiIndex(text(acquired, "callee").c_str());
            event.hasAcquired = acquiredApi >= 0;
            event.acquired.api =
                static_cast<uint16_t>(std::max(0, acquiredApi));
            event.acquired.site = sites.add(acquired, text(acquired, "callee"));
          }
          errors.push_back(event);
          continue;
        }
        Record record;
        record.api = static_cast<uint16_t>(api);
        record.site = site;
        record.serial = serial;
        record.size = i == 0 ? share.bytes : 0;
        record.space = static_cast<uint8_t>(
            spaceNamed(finding.space).value_or(Space::None));
        live[static_cast<int>(*level)].push_back(record);
      }
  }
  ReportInput input;
  input.sites = sites.table();
  // A finding left out is not gone: the baseline compared is without it.
  std::optional<Baseline> compared;
  if (job.baseline) {
    compared = job.baseline->only([&](const BaselineFinding &finding) {
      return !leftOut.count(finding.fingerprint);
    });
    input.baseline = &*compared;
  }
  return formatSarif(input, live, errors, projectRoot);
}

std::string formatMergedJunit(const MergedJob &job) {
  std::vector<JunitCase> cases;
  for (const MergedFinding &finding : job.findings) {
    JunitCase c;
    c.rule = ruleOf(finding);
    c.name = place(finding.site) + ": " + finding.callee;
    c.className = "msledger." + finding.level + "." + c.rule;
    size_t processes = finding.byProcess.size();
    c.message = finding.category == "error"
                    ? std::string(errorWords(finding.kind)) + ", " +
                          std::to_string(finding.count) + " time(s)"
                : finding.category == "leak"
                    ? std::to_string(finding.count) + " leak(s) of " +
                          std::to_string(finding.bytes) + " byte(s) in all"
                    : std::to_string(finding.count) + " leaked " +
                          familyDisplay(finding);
    c.message += ", in " + std::to_string(processes) + " process(es)";
    c.text = findingBlock(job, finding);
    c.known = finding.known;
    cases.push_back(std::move(c));
  }
  // A process that did not report: the job's results are incomplete.
  for (const MergedProcess &process : job.processes)
    if (!process.reported)
      cases.push_back({processName(process), "msledger.job.unreported",
                       "unreported", "did not report at exit",
                       unreportedLine(process)});
  return junitDocument("msledger job (" + std::to_string(job.processes.size()) +
                           " process(es))",
                       cases);
}

} // namespace msledger
