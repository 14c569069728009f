//===- process.h - The process's ledger and reporter ------------*- C++ -*-===//
//
// Contract: the one place the process's ledger is made. processLedger()
// makes, on first use -- which may be before main or before any constructor
// of ours ran, from any thread, once -- the Options from the environment
// (MSLEDGER_OPTIONS; each problem said on stderr, options.h), a Reporter
// and a Ledger from them (a suppression file that cannot
// be read whole ends the process with status 1, as LeakSanitizer's), the
// fork handlers, and the monitor (monitor.h) when the options ask for it.
// Neither is ever destroyed: the application may release memory from its
// static destructors, and finishProcess(), the exit report, runs after them.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_PROCESS_H
#define MSLEDGER_RUNTIME_PROCESS_H

#include "ledger.h"
#include "reporter.h"

#include <atomic>

namespace msledger {

namespace detail {
extern std::atomic<Ledger *> ProcessLedger;
Ledger &makeProcessLedger();
} // namespace detail

/// Inline, one load once the ledger exists: the interposers ask for it at
/// every event.
inline Ledger &processLedger() {
  if (Ledger *ledger = detail::ProcessLedger.load(std::memory_order_acquire))
    return *ledger;
  return detail::makeProcessLedger();
}
/// The process's ledger if anything made it, else null.
Ledger *existingProcessLedger();
/// The process's reporter (made with the ledger).
Reporter &processReporter();
/// At exit: the reporter's finish(), if the ledger was made.
void finishProcess();

} // namespace msledger

#endif
