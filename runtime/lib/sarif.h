//===- sarif.h - Findings as a SARIF 2.1.0 log ------------------*- C++ -*-===//
//
// Contract: formatting only, as report.h. formatSarif turns the findings of
// one process -- the leaks still live at exit and the bad releases, what the
// text report lists -- into a SARIF 2.1.0 log of one run, for code-scanning
// viewers (GitHub, GitLab, VS Code's SARIF viewer):
//
//   * a rule per kind of finding: memory-leak, resource-leak, and one per
//     error kind (error_kinds.def: illegal-free, double-free,
//     mismatched-free -- releases of handles count as frees --,
//     use-after-free, out-of-bounds, wrong-direction);
//   * one result per finding site: the leaks of one level made at one site
//     (and call chain) through one API are one result, its message with the
//     bytes and the count; so are the bad releases of one kind at one site;
//   * the location is the site's file relative to the project root, through
//     run.originalUriBaseIds (PROJECTROOT: the `projectRoot` given), with
//     line and column; an absolute file name (a swapped header's __FILE__
//     under CMake) inside the root is made relative to it, one outside is an
//     absolute file:// URI with no base (SARIF1004); a call chain is the
//     result's code flow, outermost caller first; a bad release's allocation
//     (and earlier release) are related locations; a call that was not
//     rewritten has no location;
//   * partialFingerprints ("msledgerFinding/v1") is findingFingerprint()
//     (fingerprint.h): the same on every CI run until the code changes, and
//     the same as the JSON report's;
//   * with a baseline (ReportInput::baseline, baseline.h), each result's
//     baselineState is "new" or "unchanged", and each baseline finding the
//     run did not report is a result of its own, "absent", of kind "pass"
//     and level "none" (for viewers that ignore baselineState: not a
//     problem of this run), located where the baseline saw it.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_SARIF_H
#define MSLEDGER_RUNTIME_SARIF_H

#include "report.h"

#include <string>
#include <vector>

namespace msledger {

/// The SARIF log (JSON text) of `live` (leaks, by Level) and `errors`.
/// `projectRoot` is an absolute directory.
std::string formatSarif(const ReportInput &input,
                        const std::vector<Record> (&live)[2],
                        const std::vector<ErrorEvent> &errors,
                        const std::string &projectRoot);

/// `path` as a file: URI (percent-encoded; a directory ends with '/').
std::string fileUri(const std::string &path, bool directory);

} // namespace msledger

#endif
