//===- sarif.cpp - Findings as a SARIF 2.1.0 log --------------------------===//
#include "sarif.h"

#include "baseline.h"
#include "fingerprint.h"
#include "json_io.h"

#include <boost/json.hpp>

#include <cstdio>
#include <map>
#include <optional>

namespace json = boost::json;

namespace msledger {

namespace {

const char *const kRootId = "PROJECTROOT";

struct Rule {
  const char *id;
  const char *name;
  const char *brief;
  const char *full;
};

// In the order of the rules array; ruleIndex is the position here.
const Rule kRules[] = {
    {"memory-leak", "MemoryLeak", "Device memory allocated and never freed.",
     "Memory allocated through ACL, DVPP or the driver (device, DVPP, pinned "
     "host or reserved virtual memory) was still allocated when the process "
     "exited."},
    {"resource-leak", "ResourceLeak", "A resource acquired and never released.",
     "A handle acquired through ACL, DVPP or the driver (a stream, event, "
     "context, channel, description, model, ...) was still held when the "
     "process exited."},
#define MSLEDGER_ERROR_KIND(Name, json, access, id, name, brief, full, ...)    \
  {id, name, brief, full},
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
};
enum RuleIndex : unsigned {
  kMemoryLeak,
  kResourceLeak,
  kFirstErrorRule // then error_kinds.def's, in order
};

json::object text(const std::string &message) {
  return json::object{{"text", message}};
}

json::array rulesJson() {
  json::array rules;
  for (const Rule &rule : kRules)
    rules.push_back(json::object{
        {"id", rule.id},
        {"name", rule.name},
        {"shortDescription", text(rule.brief)},
        {"fullDescription", text(rule.full)},
        {"help", text(std::string(rule.full) +
                      " Fix the code at the location (the call chain shows "
                      "how it was reached), or suppress a known finding with "
                      "a leak:, free: or access: line in a suppressions "
                      "file.")},
        {"defaultConfiguration", json::object{{"level", "error"}}}});
  return rules;
}

/// The site's place as SARIF's location, or null if it has none.
/// Where `file` is, for SARIF: relative to the project's root (uriBaseId)
/// when it is a relative path or an absolute one inside `root`; an
/// absolute file:// URI, with no base, outside it (SARIF1004: an absolute
/// URI never has a base).
json::object artifactJson(const std::string &file, const std::string &root) {
  std::string prefix = root.empty() || root.back() == '/' ? root : root + "/";
  if (!file.empty() && file[0] == '/' &&
      (prefix.empty() || file.compare(0, prefix.size(), prefix) != 0))
    return json::object{{"uri", fileUri(file, false)}};
  std::string relative = file[0] == '/' ? file.substr(prefix.size()) : file;
  return json::object{{"uri", fileUri(relative, false)},
                      {"uriBaseId", kRootId}};
}

json::value locationJson(const msledger_site *site, const std::string &what,
                         const std::string &root) {
  if (!site || !site->file)
    return nullptr;
  json::object region{{"startLine", site->line > 0 ? site->line : 1}};
  if (site->column > 0)
    region["startColumn"] = site->column;
  json::object location{
      {"physicalLocation",
       json::object{{"artifactLocation", artifactJson(site->file, root)},
                    {"region", std::move(region)}}}};
  if (site->function)
    location["logicalLocations"] = json::array{
        json::object{{"name", site->function}, {"kind", "function"}}};
  if (!what.empty())
    location["message"] = text(what);
  return location;
}

/// The result's location, and its chain as a code flow.
void addPlace(json::object &result, const SiteTable &sites, uint32_t id,
              const std::string &what, const std::string &root) {
  const msledger_site *site = id ? sites.site(id) : nullptr;
  json::value location = locationJson(site, "", root);
  if (location.is_null())
    return;
  result["locations"] = json::array{location};
  std::vector<const msledger_site *> callers = sites.callers(id);
  if (callers.empty())
    return;
  json::array steps;
  for (auto caller = callers.rbegin(); caller != callers.rend(); ++caller) {
    json::value step =
        locationJson(*caller,
                     std::string("calls ") +
                         ((*caller)->callee ? (*caller)->callee : "a helper"),
                     root);
    if (!step.is_null())
      steps.push_back(json::object{{"location", std::move(step)}});
  }
  steps.push_back(json::object{{"location", locationJson(site, what, root)}});
  result["codeFlows"] = json::array{json::object{
      {"threadFlows",
       json::array{json::object{{"locations", std::move(steps)}}}}}};
}

json::object resultJson(unsigned rule, const std::string &message, Level level,
                        const SiteTable &sites, uint32_t site, unsigned api) {
  json::object result{{"ruleId", kRules[rule].id},
                      {"ruleIndex", static_cast<int>(rule)},
                      {"level", "error"},
                      {"message", text(message)}};
  result["partialFingerprints"] =
      json::object{{"msledgerFinding/v1",
                    findingFingerprint(kRules[rule].id, level, sites, site,
                                       calledName(api, sites.site(site)))}};
  return result;
}

std::string unrewrittenNote(const SiteTable &sites, uint32_t site) {
  const msledger_site *known = site ? sites.site(site) : nullptr;
  return known && known->file ? ""
                              : " (no source line: the call was not "
                                "rewritten; run msrewrite for one)";
}

/// One result per (level, site, API) of the leaks, in serial order.
void addLeaks(json::array &results, const ReportInput &input, Level level,
              const std::vector<Record> &records, const std::string &root) {
  struct Finding {
    uint64_t firstSerial = 0, count = 0, bytes = 0;
    Space space = Space::None;
  };
  std::map<std::pair<uint32_t, unsigned>, Finding> bySite;
  for (const Record &r : records) {
    Finding &f = bySite[{r.site, r.api}];
    if (!f.count || r.serial < f.firstSerial) {
      f.firstSerial = r.serial;
      f.space = static_cast<Space>(r.space);
    }
    ++f.count;
    if (familyOf(r.api).kind == Kind::Memory)
      f.bytes += r.size;
  }
  std::vector<std::pair<std::pair<uint32_t, unsigned>, Finding>> ordered(
      bySite.begin(), bySite.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
    return a.second.firstSerial < b.second.firstSerial;
  });
  for (const auto &[key, f] : ordered) {
    const auto [site, api] = key;
    const FamilyInfo &family = familyOf(api);
    bool memory = family.kind == Kind::Memory;
    const char *called = calledName(api, input.sites.site(site));
    std::string message =
        memory ? std::to_string(f.bytes) + " byte(s) leaked in " +
                     std::to_string(f.count) + " allocation(s) of " +
                     spaceName(f.space) + " memory made by " + called
               : std::string("Leaked ") + family.display + ": " +
                     std::to_string(f.count) + " acquired by " + called +
                     " and never released";
    message += std::string(" [") + levelTitle(level) + "]" +
               unrewrittenNote(input.sites, site) + ".";
    json::object result = resultJson(memory ? kMemoryLeak : kResourceLeak,
                                     message, level, input.sites, site, api);
    addPlace(result, input.sites, site,
             memory ? "allocated here" : "acquired here", root);
    result["properties"] = json::object{{"level", levelName(level)},
                                        {"count", f.count},
                                        {"bytes", f.bytes},
                                        {"api", called}};
    results.push_back(std::move(result));
  }
}

unsigned ruleOf(ErrorKind kind) {
  return kFirstErrorRule + static_cast<unsigned>(kind);
}

/// One result per (kind, site, API) of the bad releases, in the order the
/// first of each happened; the first one's allocation and earlier release
/// are its related locations.
void addErrors(json::array &results, const ReportInput &input,
               const std::vector<ErrorEvent> &errors, const std::string &root) {
  for (const auto &[e, count] : errorGroups(errors)) {
    Level level = familyOf(e->api).level;
    bool memory = familyOf(e->api).kind == Kind::Memory;
    bool access = isAccessError(e->kind);
    const char *called = calledName(e->api, input.sites.site(e->site));
    std::string message = errorSummary(input.sites, *e) + ", " +
                          std::to_string(count) + " time(s)";
    uint64_t bytes = 0;
    if (access) {
      bytes = e->badBytes;
    } else if (e->hasAcquired &&
               familyOf(e->acquired.api).kind == Kind::Memory) {
      bytes = e->acquired.size;
      message += ", of " + std::to_string(bytes) + " byte(s)";
    }
    message += std::string(" [") + levelTitle(level) + "]" +
               unrewrittenNote(input.sites, e->site) + ".";
    json::object result = resultJson(ruleOf(e->kind), message, level,
                                     input.sites, e->site, e->api);
    addPlace(result, input.sites, e->site,
             access   ? "accessed here"
             : memory ? "freed here"
                      : "released here",
             root);
    json::array related;
    auto relate = [&](uint32_t site, const char *what) {
      json::value location =
          locationJson(site ? input.sites.site(site) : nullptr, what, root);
      if (location.is_null())
        return;
      location.as_object()["id"] = related.size() + 1;
      related.push_back(std::move(location));
    };
    if (e->hasAcquired)
      relate(e->acquired.site, memory ? "allocated here" : "acquired here");
    if (e->hasPrevious)
      relate(e->previous.site,
             memory ? "freed before here" : "released before here");
    if (!related.empty())
      result["relatedLocations"] = std::move(related);
    result["properties"] = json::object{{"level", levelName(level)},
                                        {"count", count},
                                        {"bytes", bytes},
                                        {"api", called}};
    results.push_back(std::move(result));
  }
}

/// The rule whose id is `id`, if there is one.
std::optional<unsigned> ruleNamed(const std::string &id) {
  for (unsigned i = 0; i < sizeof kRules / sizeof kRules[0]; ++i)
    if (id == kRules[i].id)
      return i;
  return std::nullopt;
}

/// Each result's baselineState against `baseline`, and (if `goneKnown`) a
/// result for each of its findings the run did not report: "absent", of kind
/// "pass" (level "none": not a problem of this run, for a viewer that ignores
/// baselineState), where the baseline saw it.
void addBaselineStates(json::array &results, const Baseline &baseline,
                       bool goneKnown, const std::string &root) {
  BaselineTally tally;
  for (json::value &entry : results) {
    json::object &result = entry.as_object();
    std::string print(result.at("partialFingerprints")
                          .as_object()
                          .at("msledgerFinding/v1")
                          .as_string());
    result["baselineState"] = baselineStateName(tally.count(baseline, print)
                                                    ? BaselineState::Unchanged
                                                    : BaselineState::New);
  }
  tally.finish(baseline, goneKnown);
  for (const BaselineFinding *gone : tally.gone) {
    std::optional<unsigned> rule = ruleNamed(gone->rule);
    if (!rule)
      continue; // readFingerprint() lets in only these rules
    json::object result{
        {"ruleId", kRules[*rule].id},
        {"ruleIndex", static_cast<int>(*rule)},
        {"kind", "pass"},
        {"level", "none"},
        {"message",
         text("No longer found: " + gone->rule + " by " + gone->api + " [" +
              gone->level + "], in the baseline " + baseline.name() + ".")},
        {"partialFingerprints",
         json::object{{"msledgerFinding/v1", gone->fingerprint}}},
        {"baselineState", baselineStateName(BaselineState::Absent)}};
    msledger_site site{};
    site.file = gone->file.empty() ? nullptr : gone->file.c_str();
    site.line = gone->line;
    site.function = gone->function.empty() ? nullptr : gone->function.c_str();
    json::value location = locationJson(&site, "", root);
    if (!location.is_null())
      result["locations"] = json::array{std::move(location)};
    result["properties"] =
        json::object{{"level", gone->level}, {"api", gone->api}};
    results.push_back(std::move(result));
  }
}

} // namespace

std::string fileUri(const std::string &path, bool directory) {
  static const char *const kHex = "0123456789ABCDEF";
  std::string out = path.empty() || path[0] != '/' ? "" : "file://";
  for (unsigned char c : path) {
    if (isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' ||
        c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (directory && (out.empty() || out.back() != '/'))
    out += '/';
  return out;
}

std::string formatSarif(const ReportInput &input,
                        const std::vector<Record> (&live)[2],
                        const std::vector<ErrorEvent> &errors,
                        const std::string &projectRoot) {
  json::array results;
  addErrors(results, input, errors, projectRoot);
  for (Level level : {Level::Device, Level::Cann})
    addLeaks(results, input, level, live[static_cast<int>(level)], projectRoot);
  if (input.baseline)
    addBaselineStates(results, *input.baseline, input.baselineGoneKnown,
                      projectRoot);
  json::object driver{{"name", "msledger"},
                      {"fullName", "msledger leak checker for CANN / ACL"},
                      {"version", MSLEDGER_VERSION},
                      {"semanticVersion", MSLEDGER_VERSION},
                      {"rules", rulesJson()}};
  json::object invocation{
      {"executionSuccessful", true},
      {"properties",
       json::object{{"pid", input.pid}, {"program", input.program}}}};
  json::object run{
      {"tool", json::object{{"driver", std::move(driver)}}},
      {"invocations", json::array{std::move(invocation)}},
      {"originalUriBaseIds",
       json::object{{kRootId, json::object{{"uri", fileUri(projectRoot, true)},
                                           {"description",
                                            text("The project's root: the "
                                                 "directory msrewrite rewrote "
                                                 "the sources from.")}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(results)}};
  json::object log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::array{std::move(run)}}};
  return writeJson(log);
}

} // namespace msledger
