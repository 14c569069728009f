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
  for (;;) {
    int timeout = -1;
    if (IntervalMs > 0)
      timeout = static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(next -
                                                                   Clock::now())
                 .count()));
    pollfd fd = {Pipe[0], POLLIN, 0};
    int ready = poll(&fd, 1, timeout);
    if (ready < 0 && errno != EINTR)
      return;
    if (ready > 0 && (fd.revents & POLLIN)) {
      bool report = false;
      char drained[64];
      for (ssize_t got; (got = read(Pipe[0], drained, sizeof drained)) > 0;)
        report = report || memchr(drained, kReportRequest, got) != nullptr;
      Recorded->journal().prefault(); // a no-op without a journal
      if (report)
        Reports->reportNow();
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

int signalNamed(const std::string &name, std::string *why) {
  if (name.empty() || name == "none")
    return 0;
  std::string bare = name.rfind("SIG", 0) == 0 ? name.substr(3) : name;
  if (bare == "USR1")
    return SIGUSR1;
  if (bare == "USR2")
    return SIGUSR2;
  char *end = nullptr;
  long number = strtol(name.c_str(), &end, 10);
  if (name.empty() || *end || number <= 0 || number >= NSIG) {
    if (why)
      *why = "names no signal";
    return -1;
  }
  const char *reason = nullptr;
  switch (number) {
  case SIGKILL:
  case SIGSTOP:
    reason = "cannot be caught";
    break;
  case SIGSEGV:
  case SIGBUS:
  case SIGFPE:
  case SIGILL:
  case SIGTRAP:
  case SIGSYS:
  case SIGABRT:
    // A handler that returns from a fault goes back to the faulting
    // instruction: a crash would become endless reports.
    reason = "reports a fault or abort, and a crash must stay a crash";
    break;
  default:
    // glibc keeps the first real-time signals for its threads; sigaction on
    // them fails.
    if (number > 31 && number < SIGRTMIN)
      reason = "is reserved by the C library";
  }
  if (reason) {
    if (why) {
      const char *abbreviation = sigabbrev_np(static_cast<int>(number));
      *why = (abbreviation ? "SIG" + std::string(abbreviation)
                           : "signal " + std::to_string(number)) +
             " " + reason;
    }
    return -1;
  }
  return static_cast<int>(number);
}

long intervalNamed(const std::string &seconds) {
  if (seconds.empty())
    return 0;
  char *end = nullptr;
  double value = strtod(seconds.c_str(), &end);
  if (*end || !(value > 0) || value > 86400)
    return -1;
  return std::max(1L, static_cast<long>(value * 1000 + 0.5));
}

void startMonitor(Reporter &reporter, Ledger &ledger) {
  const Options &options = ledger.options();
  std::string why;
  int signal = signalNamed(options.report_signal, &why);
  long interval = intervalNamed(options.snapshot_interval);
  if (signal < 0)
    fprintf(stderr,
            "msledger: option 'report_signal' cannot be '%s': %s; no report "
            "signal is used\n",
            options.report_signal.c_str(), why.c_str());
  if (interval < 0)
    fprintf(stderr,
            "msledger: option 'snapshot_interval' must be a number of "
            "seconds, not '%s'; no snapshots\n",
            options.snapshot_interval.c_str());
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
