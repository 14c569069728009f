//===- merge.cpp - msledger merge REPORT.json... --------------------------===//
//
// One report of a job's processes from their JSON reports (merge_reports.h):
// the job's findings by site, per rank, as text and, if asked, as JSON and
// SARIF.
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "commands.h"
#include "escape.h"
#include "merge_reports.h"
#include "output.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace msledger {

namespace {

const char kHelp[] =
    "Usage: msledger merge [--json=FILE] [--sarif=FILE] [--junit=FILE]\n"
    "                      [--project-root=DIR] [--exitcode=N] "
    "[--baseline=FILE]\n"
    "                      REPORT.json...\n"
    "One report of a job's processes from their JSON reports (--json=FILE "
    "with %p\n"
    "or %r): findings grouped by site with each rank's count and bytes, and "
    "the\n"
    "processes that did not report at exit. --json, --sarif and --junit "
    "also\n"
    "write it as JSON, SARIF and JUnit XML. --baseline lists the findings an "
    "earlier\n"
    "run's report, SARIF log or baseline has as known, after the new ones. "
    "Exits N\n"
    "(default 23) when it lists new findings, 0 when it lists none, 1 when a "
    "report\n"
    "cannot be read.\n";

} // namespace

int mergeCommand(int argc, char **argv) {
  FindingsOptions findings;
  std::vector<std::string> names = FindingsOptions::names();
  names.push_back("--json");
  names.push_back("--junit");
  CommandLine line = readCommandLine(argc, argv, names, kHelp);
  std::string jsonPath, junitPath;
  for (const auto &[name, value] : line.options)
    if (!findings.take(name, value))
      (name == "--junit" ? junitPath : jsonPath) = value;
  if (line.operands.empty())
    badUsage("msledger merge takes the JSON reports of a job's processes");
  std::vector<MergeInput> inputs;
  std::vector<std::string> warnings;
  std::string error;
  if (!readMergeInputs(line.operands, &inputs, &error, &warnings)) {
    fprintf(stderr, "msledger: %s\n", printable(error).c_str());
    return 1;
  }
  for (const std::string &warning : warnings)
    fprintf(stderr, "msledger: %s\n", printable(warning).c_str());
  MergedJob job = mergeReports(inputs);
  if (const Baseline *baseline = findings.givenBaseline())
    compareWithBaseline(job, *baseline);
  if (!findings.sarifPath.empty() && !job.uncataloged.empty()) {
    std::string names;
    for (const std::string &name : job.uncataloged)
      names += (names.empty() ? "" : ", ") + printable(name);
    fprintf(stderr,
            "msledger: the SARIF log leaves out the findings of %s: not in "
            "this msledger's catalog (registered by the application?)\n",
            names.c_str());
  }
  std::string text = formatMergedText(job);
  fwrite(text.data(), 1, text.size(), stdout);
  for (const auto &[path, text] :
       {std::make_pair(jsonPath, jsonPath.empty() ? "" : formatMergedJson(job)),
        std::make_pair(findings.sarifPath,
                       findings.sarifPath.empty()
                           ? ""
                           : formatMergedSarif(
                                 job, absoluteDirectory(findings.projectRoot))),
        std::make_pair(junitPath,
                       junitPath.empty() ? "" : formatMergedJunit(job))}) {
    if (!path.empty() && !writeOutputFile(path, text, /*durable=*/false)) {
      fprintf(stderr, "msledger: cannot write %s: %s\n",
              printable(path).c_str(), strerror(errno));
      return 1;
    }
  }
  // A process that never reported makes the job incomplete: as findings do
  // (runtime/README.md, "Exit status").
  bool incomplete = std::any_of(
      job.processes.begin(), job.processes.end(),
      [](const MergedProcess &process) { return !process.reported; });
  return !job.anyNew() && !incomplete ? 0 : findings.exitCode;
}

} // namespace msledger
