//===- merge_reports.h - One report of a job's processes --------*- C++ -*-===//
//
// Contract: readMergeInputs reads the JSON reports of a job's processes
// (--json=FILE with %p or %r: one file each) and mergeReports combines them
// into findings grouped by site, as --group-by-site does for one process:
// the leaks of one level made through one API at one site and call chain
// are one finding, with the total count and bytes and the count and bytes
// of each process (by rank where it has one); resources and bad releases
// likewise. A report written when its process started and never replaced
// (`final` false: the process was killed, or exec()ed a program msledger
// does not track) is not dropped: the merged report names the process.
// mergeReports takes what readMergeInputs accepted. The formatters only
// format: every name from a report passes through printable() in the text
// and writeJson() in JSON and SARIF (escape.h). `msledger merge` reads and
// writes the files.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_MERGE_REPORTS_H
#define MSLEDGER_LAUNCHER_MERGE_REPORTS_H

#include "baseline.h"

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace msledger {

/// One JSON report, parsed.
struct MergeInput {
  std::string path;
  boost::json::object report;
};

/// Parses and checks the bytes of one report, read from `path`, as
/// readMergeInputs does each file.
bool parseMergeInput(const std::string &bytes, const std::string &path,
                     MergeInput *input, std::string *error);

/// Reads and parses `paths`, each checked field by field through
/// JsonFields (json_io.h); false with *error naming the first file that
/// cannot be read or is not one process's msledger JSON report, and the
/// field: a number that is not an exact integer in range, a level, memory
/// space, error kind or access detail this msledger does not know, or the
/// output of `merge` itself. (A callee the catalog does not list, one the
/// application registered, is merged: MergedJob::uncataloged.) A file given
/// twice (the same file by another name, too) is read once, with a line in
/// *warnings.
bool readMergeInputs(const std::vector<std::string> &paths,
                     std::vector<MergeInput> *inputs, std::string *error,
                     std::vector<std::string> *warnings = nullptr);

/// A process of the job, as its report says.
struct MergedProcess {
  std::string path;
  int pid = 0;
  int rank = -1;
  std::string program;
  bool reported = false; // its report at exit (final) is there
  uint64_t leakedBytes = 0, leaks = 0, resources = 0, errors = 0;
};

/// What one process contributed to a finding.
struct Share {
  uint64_t count = 0, bytes = 0;
};

/// Leaks, resources or bad releases at one site, over the whole job.
struct MergedFinding {
  std::string category; // "leak", "resource" or "error"
  std::string kind;     // an error's kind ("double_release"), else ""
  std::string level, family, callee, space;
  boost::json::object site; // file, line, column, site_serial, function, chain
  uint64_t count = 0, bytes = 0;
  uint64_t firstSerial = 0;
  std::map<size_t, Share> byProcess; // index into MergedJob::processes
  boost::json::value acquired;       // an error's allocation, if any
  boost::json::value previous;       // an error's earlier release, if any
  boost::json::object first;         // an error's first report, whole
  std::string fingerprint;           // fingerprint.h, as each report's
  bool known = false;                // in the baseline (compareWithBaseline)
};

struct MergedJob {
  std::vector<MergedProcess> processes; // in rank order, then pid
  /// APIs of findings this msledger's catalog does not list (registered by
  /// the application): merged, but not in the SARIF log.
  std::set<std::string> uncataloged;
  std::vector<MergedFinding> findings; // leaks, resources, errors; each
                                       // category largest first
  /// The baseline it was compared with (null: none), and how.
  const Baseline *baseline = nullptr;
  BaselineTally tally;
  /// Whether it lists a finding that counts for the exit status: a new one.
  bool anyNew() const;
};

MergedJob mergeReports(const std::vector<MergeInput> &inputs);
/// Marks each finding of `job` that `baseline` knows: the formatters then
/// list those apart, after the new ones, with the baseline's summary, and
/// the JSON, SARIF and JUnit reports say each finding's state.
/// `baseline` must outlive `job`.
void compareWithBaseline(MergedJob &job, const Baseline &baseline);

/// The text report: findings with their per-rank shares (the new ones; then
/// the known ones, with the baseline's summary), then the processes that
/// did not report.
std::string formatMergedText(const MergedJob &job);
/// The JSON report of the job (format in runtime/README.md).
std::string formatMergedJson(const MergedJob &job);
/// The SARIF log of the job (sarif.h), its files relative to `projectRoot`.
std::string formatMergedSarif(const MergedJob &job,
                              const std::string &projectRoot);
/// The JUnit report of the job (junit.h): a failed case per finding (its
/// text block, each rank's share), and one per process that did not report
/// at exit.
std::string formatMergedJunit(const MergedJob &job);

} // namespace msledger

#endif
