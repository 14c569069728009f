//===- junit.h - Findings as JUnit test results -----------------*- C++ -*-===//
//
// Contract: formatJunit() writes a run's findings as a JUnit XML report
// (--junit, junit_path), for CI systems that show test results and do not
// read SARIF. The document follows the JUnit format of Jenkins' xunit
// plugin (its junit-10 schema), which GitLab, GitHub's test reporters and
// pytest's xunit2 output also use: a <testsuites> holding one <testsuite>
// for the process (its program and pid), whose test cases are
//
//   * one per finding site and kind -- the leaks of one allocation site at
//     one level, or the errors of one kind at one site -- named
//     "FILE:LINE: API" (a call that was not rewritten: "<unknown>: API"), of
//     class "msledger.LEVEL.RULE" (RULE as SARIF's: memory-leak,
//     double-free, ...), failed: the <failure>'s message says what and how
//     many, its type is the rule, its text is the text report's blocks of
//     those findings;
//   * or, with none, one passing case, "no findings".
//
// With a baseline (ReportInput::baseline, baseline.h), a known finding's
// case is skipped (<skipped>, its message saying so) rather than failed,
// as it does not count for the exit status; gone findings have no case.
//
// Suppressed findings are none. Like the JSON and SARIF reports, it is
// never limited by print_limit. Every string is escaped for XML and comes
// from printable() (escape.h): the document is valid whatever the file
// names hold.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_JUNIT_H
#define MSLEDGER_RUNTIME_JUNIT_H

#include "report.h"

#include <string>
#include <vector>

namespace msledger {

std::string formatJunit(const ReportInput &input,
                        const std::vector<Record> (&live)[2],
                        const std::vector<ErrorEvent> &errors);

/// A failed test case: a finding site and kind.
struct JunitCase {
  std::string name;      // "FILE:LINE: API"
  std::string className; // "msledger.LEVEL.RULE"
  std::string rule;      // the failure's type
  std::string message;   // what and how many
  std::string text;      // the text report's blocks
  bool known = false;    // in the baseline: skipped, not failed
};
/// The document of one <testsuite> named `suite` holding `cases` in order
/// (with none, one passing case, "no findings"), a known one skipped; every
/// string is made printable() and escaped here. `msledger merge --junit` writes
/// a job's.
std::string junitDocument(const std::string &suite,
                          const std::vector<JunitCase> &cases);

/// `text` escaped for XML character data and attribute values (&, <, >,
/// quotes; characters XML 1.0 cannot hold as \xNN).
std::string xmlEscape(const std::string &text);

} // namespace msledger

#endif
