//===- baseline.cpp - The findings an earlier run reported ----------------===//
#include "baseline.h"

#include "escape.h"
#include "events.h"
#include "fingerprint.h"
#include "json_io.h"
#include "text_file.h"

#include <boost/json.hpp>

#include <algorithm>
#include <climits>

namespace json = boost::json;

namespace msledger {

namespace {

/// Whether `rule` names a kind of finding: a leak rule or an error kind's.
bool knownRule(const std::string &rule) {
  return isLeakRule(rule) || errorKindOfRule(rule);
}

/// A digit as fingerprint.cpp writes serials: 0-9, a-f.
bool isLowerHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/// Whether `text` can name an API (a catalog's, or one the application
/// registered): a word with no '/', space or control character.
bool apiName(const std::string &text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) > ' ' && c != '/' && c != 0x7f;
  });
}

/// Whether `text` is the site serials that end a fingerprint:
/// 16 hex digits, then "<" and 16 more for each caller.
bool siteSerials(const std::string &text) {
  if (text.size() % 17 != 16)
    return false;
  for (size_t i = 0; i < text.size(); ++i) {
    bool separator = i % 17 == 16;
    if (separator ? text[i] != '<' : !isLowerHex(text[i]))
      return false;
  }
  return true;
}

/// Fills the rule, level, file and API of `finding` from its fingerprint
/// ("rule/level/FILE/API/SERIALS", or "rule/level/API" for a call that was
/// not rewritten); false if it is not one of findingFingerprint()'s.
bool readFingerprint(BaselineFinding *finding) {
  const std::string &print = finding->fingerprint;
  size_t ruleEnd = print.find('/');
  size_t levelEnd =
      ruleEnd == std::string::npos ? ruleEnd : print.find('/', ruleEnd + 1);
  if (levelEnd == std::string::npos || levelEnd + 1 >= print.size())
    return false;
  finding->rule = print.substr(0, ruleEnd);
  finding->level = print.substr(ruleEnd + 1, levelEnd - ruleEnd - 1);
  if (!knownRule(finding->rule) || !levelNamed(finding->level))
    return false;
  std::string rest = print.substr(levelEnd + 1);
  size_t serialStart = rest.rfind('/');
  if (serialStart == std::string::npos ||
      !siteSerials(rest.substr(serialStart + 1))) {
    finding->api = rest; // not rewritten: the API alone
    finding->file.clear();
    return apiName(rest);
  }
  size_t apiStart = rest.rfind('/', serialStart - 1);
  if (apiStart == std::string::npos || apiStart == 0)
    return false;
  finding->file = rest.substr(0, apiStart);
  finding->api = rest.substr(apiStart + 1, serialStart - apiStart - 1);
  return apiName(finding->api);
}

/// Reads the fingerprint `name` of `in` into `finding`, or fails.
void takeFingerprint(JsonFields &in, const std::string &print, const char *name,
                     BaselineFinding *finding) {
  finding->fingerprint = print;
  if (!in.ok())
    return;
  if (print.empty())
    in.fail(name, "missing: written by an msledger that gave findings no "
                  "fingerprint; make the baseline again with this one");
  else if (!readFingerprint(finding))
    in.fail(name,
            "\"" + printable(print) + "\" is not a fingerprint of msledger's");
}

/// The findings of the list `list` of a JSON report (a process's or a
/// merged one) or of a baseline file: objects with "fingerprint", "line"
/// and "function". A baseline file's entries also say what the fingerprint
/// says (`described`): their "rule", "level", "api" and "file" must agree
/// with it, so that an edited line cannot say one thing and mean another.
void readEntries(JsonFields &in, const char *list, bool described,
                 std::vector<BaselineFinding> *out) {
  if (!in.array(list) && in.ok())
    in.fail(list, "missing");
  in.forEachObject(list, "a finding is not an object", [&](JsonFields &entry) {
    BaselineFinding finding;
    takeFingerprint(entry, entry.string("fingerprint"), "fingerprint",
                    &finding);
    finding.line =
        static_cast<uint32_t>(entry.integer("line", 0, UINT32_MAX, 0));
    finding.function = entry.string("function");
    if (described)
      for (const auto &[name, value] :
           {std::make_pair("rule", &finding.rule),
            std::make_pair("level", &finding.level),
            std::make_pair("api", &finding.api),
            std::make_pair("file", &finding.file)}) {
        std::string given = entry.string(name);
        if (entry.ok() && given != *value)
          entry.fail(name, "\"" + printable(given) +
                               "\" is not what its fingerprint says (\"" +
                               printable(*value) + "\")");
      }
    if (entry.ok())
      out->push_back(std::move(finding));
  });
}

/// The findings of msledger's runs in a SARIF log; false if it has none of
/// msledger's runs.
bool readSarif(JsonFields &log, std::vector<BaselineFinding> *out) {
  bool ours = false;
  log.forEachObject("runs", "a run is not an object", [&](JsonFields &run) {
    const json::object *tool = run.object("tool");
    const json::object *driver =
        tool ? run.nested(*tool, "tool").object("driver") : nullptr;
    if (!driver ||
        run.nested(*driver, "tool.driver").string("name") != "msledger")
      return; // another tool's run
    ours = true;
    run.forEachObject(
        "results", "a result is not an object", [&](JsonFields &result) {
          if (result.string("baselineState") == "absent")
            return; // gone in that run already
          BaselineFinding finding;
          const json::object *prints = result.object("partialFingerprints");
          std::string print =
              prints ? result.nested(*prints, "partialFingerprints")
                           .string("msledgerFinding/v1")
                     : "";
          takeFingerprint(result, print, "partialFingerprints", &finding);
          // Where it was: the first location's line and function.
          const json::array *locations = result.array("locations");
          if (locations && !locations->empty() && (*locations)[0].is_object()) {
            JsonFields location =
                result.nested((*locations)[0].as_object(), "locations", 0);
            const json::object *physical = location.object("physicalLocation");
            const json::object *region =
                physical ? location.nested(*physical, "physicalLocation")
                               .object("region")
                         : nullptr;
            if (region)
              finding.line = static_cast<uint32_t>(
                  location.nested(*region, "region")
                      .integer("startLine", 0, UINT32_MAX, 0));
            const json::array *logical = location.array("logicalLocations");
            if (logical && !logical->empty() && (*logical)[0].is_object())
              finding.function =
                  location
                      .nested((*logical)[0].as_object(), "logicalLocations", 0)
                      .string("name");
          }
          if (result.ok())
            out->push_back(std::move(finding));
        });
  });
  return ours;
}

} // namespace

const char *baselineStateName(BaselineState state) {
  switch (state) {
  case BaselineState::New:
    return "new";
  case BaselineState::Unchanged:
    return "unchanged";
  case BaselineState::Absent:
    return "absent";
  }
  return "";
}

bool Baseline::load(const std::string &path, std::string *error) {
  std::optional<std::string> bytes =
      readRegularFile(path, kMaxFileBytes, error);
  return bytes && parse(*bytes, path, error);
}

bool Baseline::parse(const std::string &bytes, const std::string &path,
                     std::string *error) {
  std::unique_ptr<json::object> document = parseJsonObject(bytes, path, error);
  if (!document)
    return false;
  JsonFields in(*document, path);
  std::vector<BaselineFinding> found;
  const std::string what =
      ": not a JSON report (--json), SARIF log (--sarif) or baseline "
      "(msledger baseline) of msledger";
  if (document->contains("runs")) {
    if (!readSarif(in, &found) && in.ok()) {
      *error = path + ": a SARIF log with no run of msledger's";
      return false;
    }
  } else if (in.string("tool") != "msledger") {
    *error = path + what;
    return false;
  } else if (std::string kind = in.string("kind"); kind == "baseline") {
    if (!document->contains("format"))
      in.fail("format", "missing");
    in.integer("format", 1, 1, 1);
    readEntries(in, "findings", true, &found);
  } else if (!kind.empty() || !document->contains("leaks")) {
    *error = path + what + (kind.empty() ? "" : " (a " + printable(kind) + ")");
    return false;
  } else {
    in.integer("format", 1, 1, 1);
    for (const char *list : {"leaks", "resources", "errors"})
      readEntries(in, list, false, &found);
  }
  if (!in.ok()) {
    *error = in.error();
    return false;
  }
  Paths.push_back(path);
  for (BaselineFinding &finding : found)
    Findings.emplace(finding.fingerprint, std::move(finding));
  return true;
}

bool Baseline::contains(const std::string &fingerprint) const {
  if (isValidUtf8(fingerprint))
    return Findings.count(fingerprint) != 0;
  return Findings.count(validUtf8(fingerprint)) != 0;
}

std::string Baseline::name() const {
  std::string out;
  for (const std::string &path : Paths)
    out += (out.empty() ? "" : ", ") + path;
  return out;
}

Baseline
Baseline::only(const std::function<bool(const BaselineFinding &)> &keep) const {
  Baseline kept;
  kept.Paths = Paths;
  for (const auto &[print, finding] : Findings)
    if (keep(finding))
      kept.Findings.emplace(print, finding);
  return kept;
}

std::vector<const BaselineFinding *>
Baseline::absent(const std::set<std::string> &found) const {
  std::vector<const BaselineFinding *> out;
  for (const auto &[print, finding] : Findings)
    if (!found.count(print))
      out.push_back(&finding);
  return out;
}

namespace {

/// A finding as a baseline file writes it.
json::object findingJson(const BaselineFinding &finding) {
  json::object entry{{"fingerprint", finding.fingerprint},
                     {"rule", finding.rule},
                     {"level", finding.level},
                     {"api", finding.api}};
  if (!finding.file.empty())
    entry["file"] = finding.file;
  entry["line"] = finding.line;
  if (!finding.function.empty())
    entry["function"] = finding.function;
  return entry;
}

} // namespace

std::string formatBaselineFile(const Baseline &baseline) {
  json::array findings;
  for (const auto &entry : baseline.findings())
    findings.push_back(findingJson(entry.second));
  json::object root{{"tool", "msledger"},
                    {"kind", "baseline"},
                    {"format", 1},
                    {"findings", std::move(findings)}};
  return writeJson(root);
}

void markBaseline(const Baseline &baseline, json::object &root,
                  bool goneKnown) {
  BaselineTally tally;
  for (const char *list : {"leaks", "resources", "errors"}) {
    json::value *entries = root.if_contains(list);
    if (!entries || !entries->is_array())
      continue;
    for (json::value &entry : entries->as_array()) {
      json::object &finding = entry.as_object();
      const json::value *print = finding.if_contains("fingerprint");
      bool known = print && print->is_string() &&
                   tally.count(baseline, std::string(print->get_string()));
      finding["baselineState"] = baselineStateName(
          known ? BaselineState::Unchanged : BaselineState::New);
    }
  }
  tally.finish(baseline, goneKnown);
  json::array files, absent;
  for (const std::string &path : baseline.files())
    files.emplace_back(path);
  for (const BaselineFinding *gone : tally.gone) {
    json::object entry = findingJson(*gone);
    entry["baselineState"] = baselineStateName(BaselineState::Absent);
    absent.push_back(std::move(entry));
  }
  root["baseline"] = json::object{
      {"files", std::move(files)},
      {"new", tally.fresh.size()},
      {"unchanged", tally.known.size()},
      {"absent", goneKnown ? json::value(tally.gone.size()) : nullptr},
      {"absent_findings",
       goneKnown ? json::value(std::move(absent)) : nullptr}};
}

bool BaselineTally::count(const Baseline &baseline,
                          const std::string &fingerprint) {
  // As a report writes it, as the baseline holds it.
  std::string written =
      isValidUtf8(fingerprint) ? fingerprint : validUtf8(fingerprint);
  bool isKnown = baseline.contains(written);
  (isKnown ? known : fresh).insert(written);
  return isKnown;
}

void BaselineTally::finish(const Baseline &baseline, bool listGone) {
  goneKnown = listGone;
  gone = listGone ? baseline.absent(known)
                  : std::vector<const BaselineFinding *>{};
}

} // namespace msledger
