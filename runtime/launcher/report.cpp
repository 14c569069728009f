//===- report.cpp - msledger report JOURNAL -------------------------------===//
//
// The leak report rebuilt from a journal (journal_report.h); its leaks exit
// with the status the launcher gives them (23 by default).
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "commands.h"
#include "journal_report.h"
#include "options.h"
#include "output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace msledger {

namespace {

const char kHelp[] =
    "Usage: msledger report [--exitcode=N] [--suppressions=FILE] "
    "[--sarif=FILE]\n"
    "                       [--project-root=DIR] [--print-limit=N] "
    "[--junit=FILE]\n"
    "                       [--baseline=FILE] JOURNAL\n"
    "The leak report rebuilt from a journal (--journal=FILE), also of a "
    "process\n"
    "that was killed. --suppressions leaves out the leaks a leak: line "
    "matches;\n"
    "--sarif also writes them as a SARIF 2.1.0 log, its files relative to "
    "DIR\n"
    "(default: the working directory); --print-limit prints at most N leaks "
    "in full\n"
    "(the summaries count them all); --junit also writes them as a JUnit XML "
    "report.\n"
    "--baseline lists the leaks an earlier run's report, SARIF log or "
    "baseline has\n"
    "as known, after the new ones. Exits N (default 23) when it lists new "
    "leaks,\n"
    "0 when it lists none, 1 when the journal cannot be read.\n";

} // namespace

int reportCommand(int argc, char **argv) {
  FindingsOptions findings;
  std::vector<std::string> names = FindingsOptions::names();
  names.push_back("--suppressions");
  names.push_back("--print-limit");
  names.push_back("--junit");
  std::string junitPath;
  CommandLine line = readCommandLine(argc, argv, names, kHelp);
  Suppressions suppressions;
  JournalReportRequest request;
  for (const auto &[name, value] : line.options) {
    if (findings.take(name, value))
      continue;
    if (name == "--junit") {
      junitPath = value;
      continue;
    }
    if (name == "--print-limit") {
      // The option's own kind: a run's --print-limit reads it the same way.
      std::string why;
      if (!PrintLimit::read(value, &request.printLimit, &why))
        badUsage("--print-limit expects " + PrintLimit::expects() + ", not '" +
                 value + "'");
      continue;
    }
    loadSuppressions(value, &suppressions); // --suppressions
    request.suppressions = &suppressions;
  }
  if (line.operands.size() != 1)
    badUsage("msledger report takes one journal file");
  std::string path = line.operands[0], error;
  request.sarif = !findings.sarifPath.empty();
  request.junit = !junitPath.empty();
  request.projectRoot = absoluteDirectory(findings.projectRoot);
  request.baseline = findings.givenBaseline();
  JournalContents contents;
  JournalReportResult result;
  if (!readJournalFile(path, &contents, &error) ||
      !journalReport(contents, path, request, &result, &error)) {
    bool named =
        error.rfind(path, 0) == 0 || error.rfind("cannot read ", 0) == 0;
    fprintf(stderr, "msledger: %s%s\n", named ? "" : (path + ": ").c_str(),
            error.c_str());
    return 1;
  }
  fwrite(result.report.data(), 1, result.report.size(), stdout);
  if (request.junit &&
      !writeOutputFile(junitPath, result.junit, /*durable=*/false)) {
    fprintf(stderr, "msledger: cannot write the JUnit report %s: %s\n",
            junitPath.c_str(), strerror(errno));
    return 1;
  }
  if (request.sarif &&
      !writeOutputFile(findings.sarifPath, result.sarif, /*durable=*/false)) {
    fprintf(stderr, "msledger: cannot write the SARIF log %s: %s\n",
            findings.sarifPath.c_str(), strerror(errno));
    return 1;
  }
  return result.leaked || result.incomplete ? findings.exitCode : 0;
}

} // namespace msledger
