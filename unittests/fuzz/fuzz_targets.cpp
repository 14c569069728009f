//===- fuzz_targets.cpp - The fuzzed readers of msledger's inputs ---------===//
#include "fuzz_targets.h"

#include "baseline.h"
#include "job.h"
#include "merge_reports.h"
#include "report.h"
#include "sarif.h"
#include "snapshots.h"
#include "suppressions.h"

#include <string>
#include <vector>

namespace msledger {

namespace {

std::string bytes(const uint8_t *data, size_t size) {
  return std::string(reinterpret_cast<const char *>(data), size);
}

} // namespace

bool fuzzMergeInput(const uint8_t *data, size_t size) {
  MergeInput input;
  std::string error;
  if (!parseMergeInput(bytes(data, size), "fuzz.json", &input, &error))
    return false;
  // The same report twice, as two processes of a job would be.
  std::vector<MergeInput> inputs{input, input};
  inputs[1].path = "fuzz2.json";
  MergedJob job = mergeReports(inputs);
  formatMergedText(job);
  formatMergedJson(job);
  formatMergedSarif(job, "/project");
  return true;
}

bool fuzzSnapshot(const uint8_t *data, size_t size) {
  std::string error;
  std::optional<Snapshot> snapshot =
      parseSnapshot(bytes(data, size), "snapshot-000001.json", &error);
  if (!snapshot)
    return false;
  diffReport(*snapshot, *snapshot);
  Snapshot later = *snapshot;
  later.sequence += 1;
  later.timeMs += 1;
  growthReport({*snapshot, later});
  return true;
}

bool fuzzJobStatus(const uint8_t *data, size_t size) {
  std::optional<JobProcess> process = parseJobStatus(bytes(data, size));
  if (!process)
    return false;
  formatJobStatus(*process);
  return true;
}

bool fuzzSuppressions(const uint8_t *data, size_t size) {
  Suppressions suppressions;
  std::string error;
  if (!suppressions.parse(bytes(data, size), "fuzz.supp", &error))
    return false;
  // Each pattern against fixed texts and against the input's own lines (so
  // that the fuzzer shapes texts too).
  std::vector<std::string> texts = {
      "",    "src/a.cpp",          "src/a.cpp:12", "aclrtMalloc",
      "^x$", "a*b*c*d*e*f*g*h*i*j"};
  std::string all = bytes(data, size);
  for (size_t start = 0; start <= all.size() && texts.size() < 64;) {
    size_t end = all.find('\n', start);
    texts.push_back(all.substr(start, end - start));
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  for (const Suppression &suppression : suppressions.list())
    for (const std::string &text : texts)
      patternMatches(suppression.pattern, text);
  suppressions.formatUsed();
  suppressions.formatUnused();
  return true;
}

bool fuzzBaseline(const uint8_t *data, size_t size) {
  Baseline baseline;
  std::string error;
  if (!baseline.parse(bytes(data, size), "fuzz.json", &error))
    return false;
  // What it writes reads back; what it reads marks a report holding its
  // own findings and one more.
  Baseline again;
  if (!again.parse(formatBaselineFile(baseline), "again.json", &error) ||
      again.findings().size() != baseline.findings().size())
    __builtin_trap();
  boost::json::array leaks;
  leaks.push_back(boost::json::object{{"fingerprint", "x"}});
  BaselineTally tally;
  for (const auto &entry : baseline.findings()) {
    leaks.push_back(boost::json::object{{"fingerprint", entry.first}});
    tally.count(baseline, entry.first);
  }
  tally.count(baseline, "x");
  tally.finish(baseline);
  boost::json::object report{{"leaks", std::move(leaks)}};
  markBaseline(baseline, report);
  formatBaselineSummary(baseline, tally);
  formatBaselineSummary(baseline.only([](const BaselineFinding &f) {
    return f.rule != "double-free";
  }),
                        tally);
  // Every gone finding as a SARIF result of its own.
  ReportInput input;
  input.baseline = &baseline;
  std::vector<Record> live[2];
  formatSarif(input, live, {}, "/project");
  return true;
}

} // namespace msledger
