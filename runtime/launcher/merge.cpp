//===- merge.cpp - msledger merge: one report of a job's processes --------===//
#include "merge.h"

#include "catalog_table.h"
#include "job.h"
#include "ledger.h"
#include "report.h"
#include "sarif.h"
#include "text_file.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <optional>

namespace json = boost::json;

namespace msledger {

namespace {

const char *const kPrefix = "====== ";

std::optional<int64_t> integer(const json::object &in, const char *name) {
  const json::value *field = in.if_contains(name);
  if (!field || !field->is_number())
    return std::nullopt;
  return field->to_number<int64_t>();
}

std::string text(const json::object &in, const char *name) {
  const json::value *field = in.if_contains(name);
  return field && field->is_string() ? std::string(field->as_string()) : "";
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
  std::string file = text(site, "file");
  return (file.empty() ? "<unknown>" : file) + ":" +
         std::to_string(integer(site, "line").value_or(0));
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
                  : finding.family;
}

const char *errorWords(const std::string &kind) {
  if (kind == "illegal_release")
    return "illegal free or release";
  if (kind == "double_release")
    return "double free or release";
  if (kind == "use_after_free")
    return "copy or set of freed memory";
  if (kind == "out_of_bounds")
    return "copy or set out of bounds";
  if (kind == "wrong_direction")
    return "copy in the wrong direction";
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

size_t processesWith(const MergedJob &job, const std::string &category) {
  std::vector<bool> seen(job.processes.size());
  for (const MergedFinding &finding : job.findings)
    if (finding.category == category)
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
    site.line = static_cast<uint32_t>(integer(fields, "line").value_or(0));
    site.column = static_cast<uint32_t>(integer(fields, "column").value_or(0));
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

std::optional<ErrorKind> errorKindNamed(const std::string &kind) {
  for (ErrorKind known : kErrorKinds)
    if (kind == errorKindName(known))
      return known;
  return std::nullopt;
}

/// An access error's details, from its first report's JSON.
void describeAccess(const json::object &first, ErrorEvent *event) {
  event->write = text(first, "access") == "write";
  event->badBytes =
      static_cast<uint64_t>(integer(first, "bad_bytes").value_or(0));
  if (const json::value *range = first.if_contains("range");
      range && range->is_object()) {
    event->accessSize =
        static_cast<uint64_t>(integer(range->as_object(), "size").value_or(0));
    event->accessStart =
        std::strtoull(text(range->as_object(), "address").c_str(), nullptr, 16);
  }
  std::string direction = text(first, "direction");
  for (int kind = 0; kind < 8; ++kind)
    if (direction == directionName(kind))
      event->direction = kind;
}

} // namespace

bool readMergeInputs(const std::vector<std::string> &paths,
                     std::vector<MergeInput> *inputs, std::string *error) {
  for (const std::string &path : paths) {
    std::optional<std::string> bytes = readTextFile(path, error);
    if (!bytes)
      return false;
    boost::system::error_code parseError;
    json::value value = json::parse(*bytes, parseError);
    if (parseError || !value.is_object() ||
        text(value.as_object(), "tool") != "msledger" ||
        !value.as_object().contains("leaks")) {
      *error = path + ": not a JSON report of msledger (--json=FILE)";
      return false;
    }
    inputs->push_back({path, std::move(value.as_object())});
  }
  return true;
}

MergedJob mergeReports(const std::vector<MergeInput> &inputs) {
  MergedJob job;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const json::object &report = inputs[i].report;
    MergedProcess process;
    process.path = inputs[i].path;
    process.pid = static_cast<int>(integer(report, "pid").value_or(0));
    process.rank = static_cast<int>(integer(report, "rank").value_or(-1));
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
              static_cast<uint64_t>(integer(event, "serialNo").value_or(0));
          found = index.emplace(key, job.findings.size()).first;
          job.findings.push_back(std::move(finding));
        }
        MergedFinding &merged = job.findings[found->second];
        uint64_t bytes =
            merged.category == "leak"
                ? static_cast<uint64_t>(integer(event, "size").value_or(0))
                : 0;
        ++merged.count;
        merged.bytes += bytes;
        Share &share = merged.byProcess[p];
        ++share.count;
        share.bytes += bytes;
        if (merged.category == "leak") {
          ++process.leaks;
          process.leakedBytes += bytes;
        } else if (merged.category == "resource") {
          ++process.resources;
        } else {
          ++process.errors;
        }
      }
    }
  }
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
    std::string level = std::string(" [") + levelTitleOf(finding.level) + "]";
    if (finding.category == "error") {
      out += std::string("\n") + kPrefix +
             "ERROR: " + errorWords(finding.kind) + " by " + finding.callee +
             ", " + std::to_string(finding.count) + " time(s)" + level + "\n";
      out += std::string(kPrefix) + "   code in " + place(finding.site) + "\n";
      appendChain(out, finding.site);
      if (finding.acquired.is_object())
        out += std::string(kPrefix) + "   allocated in " +
               place(finding.acquired.as_object()) + "\n";
      appendShares(out, job, finding, false);
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
    out += "\n";
    if (memory) {
      bytes += finding.bytes;
      allocations += finding.count;
      out += std::string(kPrefix) + "   Direct leak of " +
             std::to_string(finding.bytes) + " byte(s) in " +
             std::to_string(finding.count) + " allocation(s)" + level + "\n";
      out += std::string(kPrefix) + "     on " + finding.space +
             " allocated by " + finding.callee + " in " + place(finding.site) +
             "\n";
    } else {
      handles += finding.count;
      out += std::string(kPrefix) + "   Leaked " + familyDisplay(finding) +
             ": " + std::to_string(finding.count) + level + "\n";
      out += std::string(kPrefix) + "     acquired by " + finding.callee +
             " in " + place(finding.site) + "\n";
    }
    appendChain(out, finding.site);
    appendShares(out, job, finding, memory);
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
    out += std::string(kPrefix) + "ERROR: " + processName(process) + ", " +
           process.program +
           ", did not report at exit: killed, ended without exit() (_exit, "
           "abort), or exec()ed a program msledger does not track (" +
           process.path + " is the report written when it started)\n";
  }
  if (job.findings.empty() && !unreported)
    out += std::string(kPrefix) + "No leaks or errors in " +
           std::to_string(job.processes.size()) + " process(es).\n";
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
  return json::serialize(root) + "\n";
}

std::string formatMergedSarif(const MergedJob &job,
                              const std::string &projectRoot) {
  MergedSites sites;
  std::vector<Record> live[2];
  std::vector<ErrorEvent> errors;
  uint64_t serial = 0;
  for (const MergedFinding &finding : job.findings) {
    int api = apiIndex(finding.callee.c_str());
    std::optional<Level> level = levelNamed(finding.level);
    if (api < 0 || !level)
      continue; // an API this msledger's catalog does not list
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
  return formatSarif(input, live, errors, projectRoot);
}

} // namespace msledger
