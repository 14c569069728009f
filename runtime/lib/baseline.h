//===- baseline.h - The findings an earlier run reported --------*- C++ -*-===//
//
// Contract: a Baseline is the set of findings that an earlier run reported,
// named by their fingerprints (fingerprint.h), so that a run given one
// (--baseline=FILE, `msledger report` and `msledger merge` too) tells its
// findings apart:
//
//   * new: a fingerprint the baseline lacks. These count for the exit
//     status, as every finding does without a baseline;
//   * known ("unchanged", SARIF's baselineState): one the baseline has.
//     These are reported after the new ones, in a section of their own, and
//     never count for the exit status;
//   * gone ("absent"): a baseline finding the run did not report: fixed,
//     suppressed, or no longer reached.
//
// load() reads any of what msledger writes with findings in it, whole or
// not at all:
//   * a JSON report (--json), a process's or `msledger merge`'s: each entry
//     of "leaks", "resources" and "errors" is one finding, by its
//     "fingerprint";
//   * a SARIF log (--sarif): each result of msledger's runs by its
//     partialFingerprints "msledgerFinding/v1", less those whose
//     baselineState is "absent" (gone in that run already);
//   * a baseline file (`msledger baseline`, formatBaselineFile): the
//     findings as they are written here, sorted by fingerprint, one object
//     each, so that a baseline kept in version control changes by lines.
// Anything else -- a snapshot, a job status, a report of an msledger that
// wrote no fingerprints, another tool's SARIF log, a field of the wrong type
// -- is refused with a message naming the file (and the field). Several
// files load into one baseline: the findings of several ranks or runs.
//
// A finding keeps what names it to a person besides its fingerprint (rule,
// level, API, file, line, function), as the run that reported it saw it: a
// gone one is reported by these. Only the fingerprint decides.
//
// A loaded Baseline is read-only: contains() may be called from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_BASELINE_H
#define MSLEDGER_RUNTIME_BASELINE_H

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace msledger {

/// One finding of a baseline.
struct BaselineFinding {
  std::string fingerprint;
  std::string rule;     // "memory-leak", "double-free", ...
  std::string level;    // "device" or "cann"
  std::string api;      // the call: "aclrtMalloc"
  std::string file;     // "" for a call that was not rewritten
  uint32_t line = 0;    // where it was when the baseline was made
  std::string function; // the enclosing function, if known
};

/// Whether `rule` is a leak's: "memory-leak" or "resource-leak".
inline bool isLeakRule(const std::string &rule) {
  return rule == "memory-leak" || rule == "resource-leak";
}

/// A finding's state against a baseline, as SARIF's baselineState names it.
enum class BaselineState { New, Unchanged, Absent };
/// "new", "unchanged", "absent".
const char *baselineStateName(BaselineState state);

class Baseline {
public:
  /// The largest file load() reads.
  static constexpr size_t kMaxFileBytes = size_t{256} << 20;

  /// Adds the findings of the file at `path` (above); false with *error
  /// ("PATH: ...") if it is not one of msledger's reports, SARIF logs or
  /// baselines, or cannot be read. Nothing is added from a refused file.
  bool load(const std::string &path, std::string *error);
  /// load() of `bytes`, read from `path`.
  bool parse(const std::string &bytes, const std::string &path,
             std::string *error);

  /// Whether a baseline was given: a file was loaded, even one that
  /// reported nothing.
  bool given() const { return !Paths.empty(); }
  /// The files it was loaded from, ", " between, as reports name it.
  std::string name() const;
  const std::vector<std::string> &files() const { return Paths; }
  /// Whether it has `fingerprint`, as a report writes it: bytes of a file
  /// name that are not UTF-8 as \xNN (validUtf8, escape.h), so that a
  /// live run's finding matches what its JSON or SARIF report wrote.
  bool contains(const std::string &fingerprint) const;
  /// New or unchanged.
  BaselineState stateOf(const std::string &fingerprint) const {
    return contains(fingerprint) ? BaselineState::Unchanged
                                 : BaselineState::New;
  }
  /// By fingerprint.
  const std::map<std::string, BaselineFinding> &findings() const {
    return Findings;
  }
  /// A copy holding only the findings `keep` keeps: what a run compares
  /// with when it cannot report the others (a level it does not check,
  /// leaks when leak_check is off, errors in a journal), lest they read as
  /// gone.
  Baseline only(const std::function<bool(const BaselineFinding &)> &keep) const;
  /// Its findings that `found` (the ones a run reported) lacks: the gone
  /// ones, in fingerprint order.
  std::vector<const BaselineFinding *>
  absent(const std::set<std::string> &found) const;

private:
  std::vector<std::string> Paths;
  std::map<std::string, BaselineFinding> Findings;
};

/// The baseline file of `baseline`'s findings (JSON, sorted by
/// fingerprint): what `msledger baseline` writes.
std::string formatBaselineFile(const Baseline &baseline);

/// How a run's findings compare with a baseline, counted by fingerprint (a
/// finding site and kind, as SARIF's results and JUnit's cases are).
struct BaselineTally {
  std::set<std::string> fresh, known;        // the run's: new, unchanged
  std::vector<const BaselineFinding *> gone; // absent: filled by finish()
  /// Whether `gone` says what is gone: false for one process of a job of
  /// several, whose baseline holds the other processes' findings too
  /// (`msledger merge --baseline` says what the job no longer reports).
  bool goneKnown = true;
  /// Counts `fingerprint`, a finding of the run (as a report writes it:
  /// validUtf8); true if it is known.
  bool count(const Baseline &baseline, const std::string &fingerprint);
  /// Fills `gone` once every finding is counted, if `goneKnown`.
  void finish(const Baseline &baseline, bool goneKnown = true);
};

/// Marks a JSON report (a process's or a merged one, `root`, as report.cpp
/// and merge_reports.cpp make it: its lists' entries are objects) against
/// `baseline`: each entry of "leaks", "resources" and "errors" gets
/// "baselineState" ("new" or "unchanged", by its "fingerprint"), and the
/// report a "baseline" object: the files, the counts of new, unchanged and
/// absent findings, and the absent ones ("absent_findings", as a baseline
/// file's entries, each with "baselineState": "absent") -- both null when
/// not `goneKnown` (BaselineTally).
void markBaseline(const Baseline &baseline, boost::json::object &root,
                  bool goneKnown = true);

} // namespace msledger

#endif
