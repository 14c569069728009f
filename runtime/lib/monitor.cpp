//===- monitor.cpp - Reports while the process runs -----------------------===//
#include "monitor.h"

#include "reporter.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace msledger {

namespace {

int Pipe[2] = {-1, -1};
std::atomic<bool> Started{false};
long IntervalMs = 0;
Reporter *Reports = nullptr;
Ledger *Recorded = nullptr;

// What a byte in the pipe asks the monitor for.
constexpr char kReportRequest = 'r';
constexpr char kPrefaultRequest = 'p';
// How long the journal's writers are quiet before a checkpoint of what
// they wrote since the last.
constexpr int kQuietMs = 1000;

void request(char what) {
  int saved = errno;
  ssize_t ignored = write(Pipe[1], &what, 1); // full pipe: one is pending
  (void)ignored;
  errno = saved;
}

void onReportSignal(int) { request(kReportRequest); }

// The journal's chunk hook: a writer has started a new chunk.
void onJournalChunk() { request(kPrefaultRequest); }

void monitorLoop() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr); // signals are the application's
  using Clock = std::chrono::steady_clock;
  Clock::time_point next = Clock::now() + std::chrono::milliseconds(IntervalMs);
  Journal &journal = Recorded->journal();
  // When the writers last took a block, as the monitor saw it.
  uint64_t taken = journal.blocksTaken();
  Clock::time_point takenAt = Clock::now();
  for (;;) {
    int timeout = -1;
    if (IntervalMs > 0)
      timeout = static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(next -
                                                                   Clock::now())
                 .count()));
    // A journal written to since its last checkpoint gets one once the
    // writers have been quiet for a while: a service that waits is read
    // back from a checkpoint of now.
    if (journal.active() && (timeout < 0 || timeout > kQuietMs))
      timeout = kQuietMs;
    pollfd fd = {Pipe[0], POLLIN, 0};
    int ready = poll(&fd, 1, timeout);
    if (ready < 0 && errno != EINTR)
      return;
    if (ready > 0 && (fd.revents & POLLIN)) {
      bool report = false;
      char drained[64];
      for (ssize_t got; (got = read(Pipe[0], drained, sizeof drained)) > 0;)
        report = report || memchr(drained, kReportRequest, got) != nullptr;
      journal.prefault(); // a no-op without a journal
      if (journal.checkpointDue(/*quiet=*/false))
        Recorded->checkpointJournal();
      if (report)
        Reports->reportNow();
    }
    if (journal.blocksTaken() != taken) {
      taken = journal.blocksTaken();
      takenAt = Clock::now();
    } else if (Clock::now() - takenAt >= std::chrono::milliseconds(kQuietMs) &&
               journal.checkpointDue(/*quiet=*/true)) {
      Recorded->checkpointJournal();
      taken = journal.blocksTaken(); // its own blocks
    }
    if (IntervalMs > 0 && Clock::now() >= next) {
      Reports->writeSnapshot();
      next += std::chrono::milliseconds(IntervalMs);
      if (next < Clock::now()) // a slow snapshot: no catching up in bursts
        next = Clock::now() + std::chrono::milliseconds(IntervalMs);
    }
  }
}

void startThread() { std::thread(monitorLoop).detach(); }

} // namespace

void startMonitor(Reporter &reporter, Ledger &ledger) {
  const Options &options = ledger.options();
  // Checked when they were read (options.h).
  int signal = options.report_signal;
  long interval = options.snapshot_interval;
  if (signal <= 0 && interval <= 0 && !ledger.journaling())
    return;
  if (Started.exchange(true))
    return;
  if (pipe2(Pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    fprintf(stderr, "msledger: cannot start the monitor: %s\n",
            strerror(errno));
    return;
  }
  IntervalMs = std::max(0L, interval);
  Reports = &reporter;
  Recorded = &ledger;
  if (signal > 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = onReportSignal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal, &action, nullptr) != 0)
      fprintf(stderr,
              "msledger: cannot install the report signal %d: %s; no report "
              "signal is used\n",
              signal, strerror(errno));
  }
  ledger.journal().setChunkHook(onJournalChunk);
  startThread();
}

void restartMonitorInChild() {
  if (Started.load() && Pipe[0] >= 0)
    startThread();
}

} // namespace msledger
