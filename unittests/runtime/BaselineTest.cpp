//===- BaselineTest.cpp - the findings an earlier run reported ------------===//
#include "baseline.h"

#include "fingerprint.h"
#include "report.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

const char kLeak[] = "memory-leak/cann/src/model/load.cpp/aclrtMalloc/"
                     "00000000000000a1<00000000000000b2";
const char kStream[] =
    "resource-leak/cann/main.cpp/aclrtCreateStream/00000000000000c3";
const char kDouble[] = "double-free/device/halMemFree";

std::string report(const std::string &leaks, const std::string &errors = "") {
  return R"({"tool": "msledger", "format": 1, "pid": 7, "leaks": [)" + leaks +
         R"(], "resources": [], "errors": [)" + errors + "]}";
}

std::string parseError(const std::string &text) {
  Baseline baseline;
  std::string error;
  EXPECT_FALSE(baseline.parse(text, "b.json", &error));
  EXPECT_FALSE(baseline.given());
  EXPECT_TRUE(baseline.findings().empty()) << "nothing of a refused file";
  return error;
}

} // namespace

// A JSON report's findings by fingerprint, with where they were; the rule,
// level, file and API read from the fingerprint, a file holding '/' too.
TEST(Baseline, ReadsAJsonReport) {
  Baseline baseline;
  std::string error;
  ASSERT_TRUE(baseline.parse(
      report(std::string(R"({"fingerprint": ")") + kLeak +
                 R"(", "line": 40, "function": "load", "file": "x"})",
             std::string(R"({"fingerprint": ")") + kDouble + R"("})"),
      "r.json", &error))
      << error;
  EXPECT_TRUE(baseline.given());
  EXPECT_EQ(baseline.name(), "r.json");
  ASSERT_EQ(baseline.findings().size(), 2u);
  const BaselineFinding &leak = baseline.findings().at(kLeak);
  EXPECT_EQ(leak.rule, "memory-leak");
  EXPECT_EQ(leak.level, "cann");
  EXPECT_EQ(leak.file, "src/model/load.cpp");
  EXPECT_EQ(leak.api, "aclrtMalloc");
  EXPECT_EQ(leak.line, 40u);
  EXPECT_EQ(leak.function, "load");
  // A call that was not rewritten: its API alone.
  const BaselineFinding &twice = baseline.findings().at(kDouble);
  EXPECT_EQ(twice.rule, "double-free");
  EXPECT_EQ(twice.level, "device");
  EXPECT_EQ(twice.api, "halMemFree");
  EXPECT_EQ(twice.file, "");
  EXPECT_TRUE(baseline.contains(kLeak));
  EXPECT_EQ(baseline.stateOf(kStream), BaselineState::New);
  EXPECT_EQ(baseline.stateOf(kLeak), BaselineState::Unchanged);
}

// A SARIF log: msledger's runs only, less the results already gone there,
// with the first location's line and function.
TEST(Baseline, ReadsASarifLog) {
  std::string log =
      std::string(R"({"version": "2.1.0", "runs": [
    {"tool": {"driver": {"name": "other"}}, "results": [{"ruleId": "x"}]},
    {"tool": {"driver": {"name": "msledger"}}, "results": [
      {"partialFingerprints": {"msledgerFinding/v1": ")") +
      kLeak +
      R"("}, "locations": [{"physicalLocation": {"region": {"startLine": 12}},
        "logicalLocations": [{"name": "load", "kind": "function"}]}]},
      {"partialFingerprints": {"msledgerFinding/v1": ")" +
      kStream + R"("}, "baselineState": "absent"}]}]})";
  Baseline baseline;
  std::string error;
  ASSERT_TRUE(baseline.parse(log, "r.sarif", &error)) << error;
  ASSERT_EQ(baseline.findings().size(), 1u);
  EXPECT_EQ(baseline.findings().at(kLeak).line, 12u);
  EXPECT_EQ(baseline.findings().at(kLeak).function, "load");
  EXPECT_EQ(parseError(R"({"runs": [{"tool": {"driver": {"name": "x"}}}]})"),
            "b.json: a SARIF log with no run of msledger's");
}

// What formatBaselineFile writes reads back the same; several files load
// into one baseline.
TEST(Baseline, FileRoundTripsAndFilesAdd) {
  Baseline first;
  std::string error;
  ASSERT_TRUE(first.parse(
      report(std::string(R"({"fingerprint": ")") + kLeak + R"(", "line": 4})"),
      "a.json", &error));
  ASSERT_TRUE(first.parse(
      report(std::string(R"({"fingerprint": ")") + kStream + R"("})"), "b.json",
      &error));
  EXPECT_EQ(first.name(), "a.json, b.json");
  std::string file = formatBaselineFile(first);
  Baseline again;
  ASSERT_TRUE(again.parse(file, "base.json", &error)) << error;
  ASSERT_EQ(again.findings().size(), 2u);
  EXPECT_EQ(formatBaselineFile(again), file);
  EXPECT_EQ(again.findings().begin()->first, kLeak) << "sorted";
  EXPECT_EQ(again.findings().at(kLeak).line, 4u);
}

// Whatever is not a baseline is refused whole, naming the file and field.
TEST(Baseline, RefusesWhatIsNotOne) {
  EXPECT_EQ(parseError("[1]"), "b.json: not a JSON object");
  EXPECT_EQ(parseError(R"({"tool": "msledger", "kind": "snapshot"})"),
            "b.json: not a JSON report (--json), SARIF log (--sarif) or "
            "baseline (msledger baseline) of msledger (a snapshot)");
  EXPECT_EQ(parseError(R"({"tool": "other", "leaks": []})"),
            "b.json: not a JSON report (--json), SARIF log (--sarif) or "
            "baseline (msledger baseline) of msledger");
  // The first finding is good, the second is not: nothing is added.
  EXPECT_EQ(
      parseError(report(std::string(R"({"fingerprint": ")") + kLeak +
                        R"("}, {"line": 3})")),
      "b.json: leaks[1].fingerprint: missing: written by an msledger that "
      "gave findings no fingerprint; make the baseline again with this one");
  for (const char *bad :
       {"leak/cann/a.c/aclrtMalloc/00000000000000a1", // no such rule
        "memory-leak/gpu/aclrtMalloc",                // no such level
        "memory-leak/cann/a.c/aclrtMalloc/xyz",       // not serials
        "memory-leak/cann/aclrtMalloc/00000000000000a1", "memory-leak/cann/"})
    EXPECT_NE(
        parseError(report(std::string(R"({"fingerprint": ")") + bad + R"("})"))
            .find("is not a fingerprint of msledger's"),
        std::string::npos)
        << bad;
  EXPECT_NE(parseError(report(R"({"fingerprint": ")" + std::string(kLeak) +
                              R"(", "line": -1})"))
                .find("leaks[0].line"),
            std::string::npos);
}

// A baseline file must say what it is, hold its findings, and each line's
// words must be what its fingerprint says.
TEST(Baseline, RefusesABaselineFileThatContradictsItself) {
  EXPECT_EQ(parseError(R"({"tool": "msledger", "kind": "baseline",)"
                       R"( "format": 1})"),
            "b.json: findings: missing");
  EXPECT_EQ(parseError(R"({"tool": "msledger", "kind": "baseline",)"
                       R"( "findings": []})"),
            "b.json: format: missing");
  EXPECT_EQ(parseError(std::string(R"({"tool": "msledger", "kind": "baseline",)"
                                   R"( "format": 1, "findings": [)"
                                   R"({"fingerprint": ")") +
                       kLeak + R"(", "rule": "double-free"}]})"),
            "b.json: findings[0].rule: \"double-free\" is not what its "
            "fingerprint says (\"memory-leak\")");
  EXPECT_NE(parseError(report(R"({"fingerprint": "memory-leak/cann/a.c/)"
                              R"(aclrtMalloc/00000000000000A1"})"))
                .find("is not a fingerprint"),
            std::string::npos)
      << "serials are written in lower case";
}

// The gone findings, and a journal's view: its leaks only.
TEST(Baseline, TallyAndLeaksOnly) {
  Baseline baseline;
  std::string error;
  ASSERT_TRUE(baseline.parse(
      report(std::string(R"({"fingerprint": ")") + kLeak + R"("}, )" +
                 R"({"fingerprint": ")" + kStream + R"("})",
             std::string(R"({"fingerprint": ")") + kDouble + R"("})"),
      "r.json", &error));
  BaselineTally tally;
  EXPECT_TRUE(tally.count(baseline, kLeak));
  EXPECT_TRUE(tally.count(baseline, kLeak));
  EXPECT_FALSE(tally.count(baseline, "memory-leak/cann/new.c/aclrtMalloc/"
                                     "0000000000000001"));
  tally.finish(baseline);
  EXPECT_EQ(tally.known.size(), 1u);
  EXPECT_EQ(tally.fresh.size(), 1u);
  ASSERT_EQ(tally.gone.size(), 2u);
  EXPECT_EQ(tally.gone[0]->fingerprint, kDouble);
  EXPECT_EQ(tally.gone[1]->fingerprint, kStream);
  Baseline leaks = baseline.only(
      [](const BaselineFinding &f) { return isLeakRule(f.rule); });
  EXPECT_EQ(leaks.findings().size(), 2u);
  EXPECT_FALSE(leaks.contains(kDouble));
  EXPECT_EQ(leaks.name(), "r.json");
}

// A JSON report marked: each finding's state, the counts and the gone ones.
TEST(Baseline, MarksAJsonReport) {
  Baseline baseline;
  std::string error;
  ASSERT_TRUE(baseline.parse(report(std::string(R"({"fingerprint": ")") +
                                    kLeak + R"("}, )" + R"({"fingerprint": ")" +
                                    kStream + R"(", "line": 9})"),
                             "base.json", &error));
  boost::json::object root =
      boost::json::parse(report(std::string(R"({"fingerprint": ")") + kLeak +
                                R"("}, {"fingerprint": "x"})"))
          .as_object();
  markBaseline(baseline, root);
  const boost::json::array &leaks = root.at("leaks").as_array();
  EXPECT_EQ(leaks[0].at("baselineState"), "unchanged");
  EXPECT_EQ(leaks[1].at("baselineState"), "new");
  const boost::json::object &summary = root.at("baseline").as_object();
  EXPECT_EQ(summary.at("new"), 1);
  EXPECT_EQ(summary.at("unchanged"), 1);
  EXPECT_EQ(summary.at("absent"), 1);
  const boost::json::value &gone = summary.at("absent_findings").at(0);
  EXPECT_EQ(gone.at("fingerprint"), kStream);
  EXPECT_EQ(gone.at("line"), 9);
  EXPECT_EQ(gone.at("baselineState"), "absent");
}

// A file name that is not UTF-8: the report wrote its bytes as \xNN, and
// the live run's fingerprint, of the raw bytes, matches what it wrote.
TEST(Baseline, MatchesAFileNameThatIsNotUtf8) {
  std::string raw = "memory-leak/cann/m\xff.c/aclrtMalloc/00000000000000a1";
  Baseline baseline;
  std::string error;
  ASSERT_TRUE(baseline.parse(
      report(R"({"fingerprint": "memory-leak/cann/m\\xff.c/aclrtMalloc/)"
             R"(00000000000000a1"})"),
      "r.json", &error))
      << error;
  EXPECT_TRUE(baseline.contains(raw));
  BaselineTally tally;
  EXPECT_TRUE(tally.count(baseline, raw));
  tally.finish(baseline);
  EXPECT_TRUE(tally.gone.empty());
}

// Every form findingFingerprint() writes reads back: a rewritten call with
// and without callers, one that was not rewritten, every rule, both levels.
TEST(Baseline, ReadsWhatFindingFingerprintWrites) {
  static const msledger_site leaf = {"src/deep/x.cpp", 9,     3, 0xab,
                                     "aclrtMalloc",    "load"};
  static const msledger_site caller = {"main.cpp", 30, 5, 0xcd, "load", "main"};
  SiteTable sites;
  sites.site = [](uint32_t id) -> const msledger_site * {
    return id == 1 || id == 2 ? &leaf : nullptr;
  };
  sites.callers = [](uint32_t id) {
    return id == 2 ? std::vector<const msledger_site *>{&caller}
                   : std::vector<const msledger_site *>{};
  };
  std::vector<std::string> rules = {"memory-leak", "resource-leak"};
  for (ErrorKind kind : kErrorKinds)
    rules.push_back(errorRule(kind));
  for (const std::string &rule : rules)
    for (Level level : {Level::Device, Level::Cann})
      for (uint32_t site : {0u, 1u, 2u}) {
        BaselineFinding finding;
        std::string print =
            findingFingerprint(rule.c_str(), level, sites, site, "aclrtMalloc");
        std::string error;
        Baseline baseline;
        ASSERT_TRUE(baseline.parse(
            report("{\"fingerprint\": \"" + print + "\"}"), "r.json", &error))
            << print << ": " << error;
        const BaselineFinding &read = baseline.findings().at(print);
        EXPECT_EQ(read.rule, rule);
        EXPECT_EQ(read.level, levelName(level));
        EXPECT_EQ(read.api, "aclrtMalloc");
        EXPECT_EQ(read.file, site ? "src/deep/x.cpp" : "") << print;
      }
}
