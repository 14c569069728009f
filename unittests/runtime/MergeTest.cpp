//===- MergeTest.cpp - msledger merge: a job's reports by site ------------===//
#include "merge_reports.h"

#include <gtest/gtest.h>

using namespace msledger;
namespace json = boost::json;

namespace {

/// A JSON report of `pid` (rank `rank`, -1 for none) with `leaks`.
MergeInput report(int pid, int rank, bool final, json::array leaks,
                  json::array errors = {}) {
  json::object root{{"tool", "msledger"},         {"pid", pid},
                    {"program", "/bin/worker"},   {"final", final},
                    {"leaks", std::move(leaks)},  {"resources", json::array{}},
                    {"errors", std::move(errors)}};
  root["rank"] = rank >= 0 ? json::value(rank) : nullptr;
  return {"report." + std::to_string(pid) + ".json", std::move(root)};
}

json::object leakAt(int line, uint64_t size, uint64_t serial = 1) {
  return json::object{{"level", "cann"},    {"family", "device memory"},
                      {"kind", "memory"},   {"callee", "aclrtMalloc"},
                      {"space", "GM"},      {"size", size},
                      {"file", "worker.c"}, {"line", line},
                      {"column", 3},        {"site_serial", "99"},
                      {"serialNo", serial}};
}

} // namespace

TEST(Merge, LeaksAtOneSiteAreOneFindingWithEachRanksShare) {
  std::vector<MergeInput> inputs = {
      report(30, 3, true, json::array{leakAt(12, 4096), leakAt(12, 4096)}),
      report(10, 1, true, json::array{leakAt(12, 2048), leakAt(20, 64)}),
      report(5, -1, true, json::array{})};
  MergedJob job = mergeReports(inputs);
  ASSERT_EQ(job.processes.size(), 3u);
  EXPECT_EQ(job.processes[0].rank, 1) << "ranks in order, then the rest";
  EXPECT_EQ(job.processes[1].rank, 3);
  EXPECT_EQ(job.processes[2].pid, 5);
  ASSERT_EQ(job.findings.size(), 2u);
  const MergedFinding &big = job.findings[0];
  EXPECT_EQ(big.count, 3u);
  EXPECT_EQ(big.bytes, 10240u);
  ASSERT_EQ(big.byProcess.size(), 2u);
  EXPECT_EQ(big.byProcess.at(0).bytes, 2048u); // rank 1
  EXPECT_EQ(big.byProcess.at(1).count, 2u);    // rank 3
  EXPECT_EQ(job.findings[1].bytes, 64u) << "largest first";
  std::string text = formatMergedText(job);
  EXPECT_NE(text.find("Direct leak of 10240 byte(s) in 3 allocation(s)"),
            std::string::npos);
  EXPECT_NE(text.find("rank 3 (pid 30): 8192 byte(s) in 2 allocation(s)"),
            std::string::npos);
  EXPECT_NE(text.find("in 2 of 3 process(es)"), std::string::npos);
}

TEST(Merge, AReportNeverFinishedNamesItsProcess) {
  MergedJob job = mergeReports({report(7, 2, false, json::array{})});
  std::string text = formatMergedText(job);
  EXPECT_NE(text.find("ERROR: rank 2 (pid 7), /bin/worker, did not report"),
            std::string::npos);
  json::value merged = json::parse(formatMergedJson(job));
  EXPECT_EQ(merged.at("processes").at(0).at("final"), false);
  EXPECT_EQ(merged.at("merged"), true);
}

TEST(Merge, ErrorsGroupByKindAndSite) {
  json::object error = leakAt(40, 0);
  error["kind"] = "double_release";
  error["callee"] = "aclrtFree";
  MergedJob job =
      mergeReports({report(1, 0, true, {}, json::array{error, error}),
                    report(2, 1, true, {}, json::array{error})});
  ASSERT_EQ(job.findings.size(), 1u);
  EXPECT_EQ(job.findings[0].category, "error");
  EXPECT_EQ(job.findings[0].count, 3u);
  EXPECT_NE(formatMergedText(job).find(
                "ERROR: double free or release by aclrtFree, 3 time(s)"),
            std::string::npos);
  EXPECT_NE(formatMergedSarif(job, "/p").find("\"double-free\""),
            std::string::npos);
}

TEST(Merge, NothingFound) {
  MergedJob job = mergeReports({report(1, 0, true, {})});
  EXPECT_NE(formatMergedText(job).find("No leaks or errors in 1 process(es)."),
            std::string::npos);
}

TEST(Merge, OnlyMsledgerReportsAreRead) {
  std::vector<MergeInput> inputs;
  std::string error;
  EXPECT_FALSE(readMergeInputs({"/nonexistent/report.json"}, &inputs, &error));
  EXPECT_NE(error.find("/nonexistent/report.json"), std::string::npos);
}
