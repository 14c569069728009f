//===- monitor.h - Reports while the process runs ---------------*- C++ -*-===//
//
// Contract: for long-running services, a thread of the ledger's that
//
//   * writes a report of what is live now, grouped by site, when the process
//     gets the report signal (report_signal, SIGUSR1 by default): the signal
//     handler only writes a byte to a pipe (async-signal-safe); the report is
//     made on the monitor's thread (Reporter::reportNow, which copies the
//     tables shard by shard, so application threads wait at most for one
//     shard's copy). msledger_report() makes the same report on the calling
//     thread, synchronously, without the monitor;
//   * writes a JSON snapshot (format in runtime/README.md) every
//     snapshot_interval seconds into snapshot_dir, each written to a
//     temporary and renamed;
//   * when the journal is on, reserves and prefaults its next chunks each
//     time a writer enters a new one (Journal::prefault), so that events do
//     not wait for page faults.
//
// Started with the process's ledger (process.h) when any of these is
// enabled, restarted in a fork child.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_MONITOR_H
#define MSLEDGER_RUNTIME_MONITOR_H

#include <string>

namespace msledger {

class Ledger;
class Reporter;

/// Starts the monitor of `ledger`, reported by `reporter` (once per process),
/// if the ledger's options ask for it: installs the signal handler, starts
/// the thread.
void startMonitor(Reporter &reporter, Ledger &ledger);
/// In a fork child: the thread is gone; start a new one.
void restartMonitorInChild();

} // namespace msledger

#endif
