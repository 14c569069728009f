//===- process.cpp - The process's ledger and reporter --------------------===//
#include "process.h"

#include "monitor.h"

#include <cstdio>
#include <cstdlib>
#include <pthread.h>
#include <unistd.h>

namespace msledger {

namespace detail {
std::atomic<Ledger *> ProcessLedger{nullptr};
} // namespace detail

namespace {

Reporter *TheReporter = nullptr;

Options optionsFromEnvironment() {
  Options options;
  std::vector<std::string> problems;
  if (const char *text = getenv("MSLEDGER_OPTIONS"))
    options.parse(text, &problems);
  for (const std::string &problem : problems)
    fprintf(stderr, "msledger: MSLEDGER_OPTIONS: %s\n", problem.c_str());
  return options;
}

void forkPrepare() {
  TheReporter->forkPrepare();
  processLedger().forkPrepare();
}

void forkParent() {
  processLedger().forkParent();
  TheReporter->forkParent();
}

void forkChild() {
  processLedger().forkChild();
  TheReporter->forkChild();
  restartMonitorInChild();
}

} // namespace

Ledger &detail::makeProcessLedger() {
  static Ledger *ledger = [] {
    Options options = optionsFromEnvironment();
    auto *reporter = new Reporter(options);
    std::string error;
    if (!reporter->loadSuppressions(&error) ||
        !reporter->loadBaseline(&error)) {
      // As LeakSanitizer: a suppression file (or a baseline) that cannot be
      // read whole is fatal, never half applied.
      fprintf(stderr, "msledger: %s\n", error.c_str());
      _exit(1);
    }
    TheReporter = reporter;
    auto *made = new Ledger(options, reporter);
    reporter->attach(*made);
    // As a process's reports start: its status, then its journal.
    reporter->start();
    made->start();
    reporter->sayLevels();
    ProcessLedger.store(made, std::memory_order_release);
    pthread_atfork(forkPrepare, forkParent, forkChild);
    startMonitor(*reporter, *made);
    return made;
  }();
  return *ledger;
}

Ledger *existingProcessLedger() {
  return detail::ProcessLedger.load(std::memory_order_acquire);
}

Reporter &processReporter() {
  processLedger();
  return *TheReporter;
}

void finishProcess() {
  if (existingProcessLedger())
    TheReporter->finish();
}

} // namespace msledger
