//===- reporter.h - The reports of a running process ------------*- C++ -*-===//
//
// Contract: a Reporter reports one Ledger while its process runs: it calls
// the ledger, formats through report.h and sarif.h, writes through output.h,
// and is never called by the ledger but as its LedgerObserver:
//
//   * errors as they happen (error()): matched against the suppressions
//     (suppressions.h; a suppressed one is neither written nor kept), else
//     written to the log -- unless the baseline (baseline.h) knows it: then
//     it is kept, and listed at exit among the known findings;
//   * the lines of what the ledger could not do (note()) and warnings
//     ("====== WARNING: ...", warn()) go to the log;
//   * start(): when the process starts (and a forked child at its first
//     event: forkedChildStarts()), its status in the job directory (job.h)
//     and, with json_path, a JSON report saying it has not reported yet --
//     never written over another live process's report there;
//   * reportNow(): what is live now, grouped by site (msledger_report(), the
//     report signal); writeSnapshot(): a snapshot file in snapshot_dir (the
//     monitor, every snapshot_interval);
//   * finish() runs once at exit, after the application's static
//     destructors: the leak report (less what leak: suppressions match and
//     what the baseline knows), the known findings and the baseline's
//     summary, the suppressions used and unused, the JSON report, SARIF log
//     and JUnit report (every finding, each with its baseline state), the
//     job status, and the exit status (exitcode) when there are new
//     findings or a report could not be written;
//   * the log is stderr or log_path (expanded per process, appended to),
//     each report preceded by the process's label when it is one of a
//     job's ("====== msledger: pid N, rank R, PROGRAM").
//
// Thread-safe: log writes are serialised; forkPrepare/forkParent/forkChild
// around fork() (process.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_REPORTER_H
#define MSLEDGER_RUNTIME_REPORTER_H

#include "ledger.h"
#include "output.h"
#include "report.h"
#include "snapshot_retention.h"
#include "suppressions.h"

#include <atomic>
#include <mutex>
#include <string>

namespace msledger {

class Reporter : public LedgerObserver {
public:
  /// Reports `ledger`, made with the same `options`.
  explicit Reporter(const Options &options);
  /// The ledger it reports; set once, before any event.
  void attach(Ledger &ledger) { Ledger_ = &ledger; }
  /// Reads the suppressions option's file; false with *error set.
  bool loadSuppressions(std::string *error);
  /// Reads the baseline option's file; false with *error set.
  bool loadBaseline(std::string *error);
  /// The process's start: its status and the JSON report's start.
  void start();
  /// At log_level info, the levels it checks.
  void sayLevels();

  // LedgerObserver.
  bool error(const ErrorEvent &error) override;
  void note(const std::string &line) override { write(line); }
  void forkedChildStarts() override;

  /// "====== WARNING: `text`" on the log.
  void warn(const std::string &text);
  void reportNow();
  void writeSnapshot();
  void finish();
  /// What a report of the process now reads besides its records.
  ReportInput reportInput() const;

  void forkPrepare();
  void forkParent();
  void forkChild();

private:
  void write(const std::string &text);
  /// The status file in the job directory, and (at the start) the JSON
  /// report saying the process has not reported yet.
  void announceStart();
  void writeJobStatus(bool exited, uint64_t findings, uint64_t leakedBytes,
                      bool complete);
  /// Says so in the log, and true, if `path` holds a JSON document of
  /// msledger's written by another process still running, or by the one
  /// this process was forked from: two processes given one path. (An
  /// earlier run's is not another's.)
  bool warnIfAnothers(const std::string &path, const char *what);
  /// "====== msledger: pid N, rank R, PROGRAM" before each report of a
  /// process that is one of a job's; empty otherwise.
  std::string processLabel() const;
  /// Whether this process is its job's only one (as far as it knows):
  /// no rank, not forked from a tracked process, the job directory holding
  /// its status alone.
  bool soleProcess() const;
  std::string leakReport(std::vector<Record> (&live)[2], LeakTotals *totals);

  const Options Opts;
  Ledger *Ledger_ = nullptr;
  std::mutex OutputMutex;
  // The suppressions option's file: matched under SuppressionMutex while the
  // process runs (bad releases), at exit for leaks.
  std::mutex SuppressionMutex;
  Suppressions Suppressions_;
  // The baseline option's findings: read-only once loaded.
  Baseline Baseline_;
  // Errors neither suppressed nor known: what the exit status counts with a
  // baseline (counted as the ledger keeps them, so none is missed at exit).
  std::atomic<uint64_t> NewErrors{0};
  // Whether this process's reports say what is gone (soleProcess()), set at
  // exit while the monitor may be reading reportInput().
  std::atomic<bool> BaselineGoneKnown{true};
  std::string ProjectRoot; // absolute: project_root, or the start's directory
  std::atomic<uint64_t> SnapshotSequence{0};
  std::atomic<bool> SnapshotFailed{false}; // said once
  // The snapshots this process wrote and keeps (snapshot_keep), in
  // SnapshotDir; the monitor's, under SnapshotMutex.
  std::mutex SnapshotMutex;
  SnapshotRetention Retention;
  std::string SnapshotDir;
  // What the text reports may still print in full (print_limit): the
  // errors as they happen, then the leak blocks at exit.
  std::mutex BudgetMutex;
  PrintBudget Budget;
  int ForkParentPid = 0;     // in a forked child: the parent's
  std::string StartJsonPath; // the JSON report written at the start, and
  WrittenFile StartJson;     // what was written there
  std::atomic<bool> Finished{false};
};

} // namespace msledger

#endif
