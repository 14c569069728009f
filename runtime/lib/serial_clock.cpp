//===- serial_clock.cpp - Event serials, their times, thread numbers ------===//
#include "serial_clock.h"

#include "record_table.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ctime>
#include <unistd.h>

namespace msledger {

namespace detail {
__thread SerialBlock CurrentSerials;
__thread uint16_t CurrentThreadIndex = 0;
} // namespace detail

uint64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL +
         static_cast<uint64_t>(ts.tv_nsec);
}

namespace {

// Clock numbers start at 1: a thread's block of 0 belongs to none.
std::atomic<uint64_t> NextClockId{1};
std::atomic<uint32_t> NextThreadIndex{1};

} // namespace

SerialClock::SerialClock()
    : Epoch(0), Id(NextClockId.fetch_add(1, std::memory_order_relaxed)) {
  Epoch.store(Id << 32, std::memory_order_relaxed);
  StartNs = monotonicNs();
  StartUnixMs = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

SerialClock::~SerialClock() {
  if (Running.load() && ThreadPid == getpid()) {
    Stopping.store(true);
    pthread_join(Thread, nullptr);
  }
}

uint16_t SerialClock::newThreadIndex() {
  return static_cast<uint16_t>(
      std::min<uint32_t>(NextThreadIndex.fetch_add(1), kMaxThread));
}

uint64_t SerialClock::renew(uint64_t atLeast, uint64_t epoch) {
  detail::SerialBlock &block = detail::CurrentSerials;
  if (block.epoch >> 32 != Id) // another clock's, or none: start afresh
    block = detail::SerialBlock{0, 0, 0, 0};
  // When no other thread took serials since this block was taken, its rest
  // is taken again, and more. Either way every serial handed out so far,
  // `atLeast - 1` among them, is below the new block.
  // Otherwise the rest of the block is lost. The blocks of a thread whose
  // events meet other threads' shrink (to 1, a serial an event, as one
  // counter would), and so do those of a thread that used less than half of
  // its block in an epoch (few events, few serials lost); they grow back (to
  // kBlock) as they are used up. So contention costs neither the counter's
  // cache line on every event nor most of the serials. With blocks of 64,
  // the counter's line travelling between two busy threads' cores cost a
  // tenth of their throughput (LedgerPair/threads:2, 1.78x one thread's
  // against 1.99x with 1024).
  bool conflict = block.next < atLeast;
  uint64_t used = block.next - (block.end - block.size);
  uint32_t size = block.size == 0 ? static_cast<uint32_t>(kBlock)
                  : conflict      ? std::max(block.size / 4, 1U)
                  : block.next == block.end
                      ? std::min(block.size * 2, static_cast<uint32_t>(kBlock))
                  : used < block.size / 2 ? std::max(block.size / 2, 1U)
                                          : block.size;
  uint64_t start = block.next;
  uint64_t expected = block.end;
  if (block.end == 0 || conflict ||
      !Next.compare_exchange_strong(expected, start + size,
                                    std::memory_order_relaxed))
    start = Next.fetch_add(size, std::memory_order_relaxed);
  uint64_t end = start + size;
  // A serial whose low bits are kMarkBits is a record table's mark: passed
  // over (the block ends before it, or starts after it).
  for (;;) {
    uint64_t mark = start | kMarkBits;
    if (mark == start)
      ++start;
    else if (mark < end)
      end = mark;
    if (start < end)
      break;
    start = Next.fetch_add(size, std::memory_order_relaxed);
    end = start + size;
  }
  block = detail::SerialBlock{start, end, epoch, size};
  // The first block of an epoch marks when its serials began (timeOfSerial).
  if (CheckpointEpoch.load(std::memory_order_relaxed) != epoch + 1) {
    std::lock_guard<std::mutex> lock(Mutex);
    if (CheckpointEpoch.load(std::memory_order_relaxed) != epoch + 1) {
      CheckpointEpoch.store(epoch + 1, std::memory_order_relaxed);
      if (Checkpoints.empty() || Checkpoints.back().first < start) {
        Checkpoints.emplace_back(start, nowNs());
        if (Checkpoints.size() >= kMaxTimeMarks)
          thinTimeMarks();
      }
    }
  }
  return block.next++;
}

void SerialClock::renewBlock() {
  renew(0, Epoch.load(std::memory_order_relaxed));
  --detail::CurrentSerials.next; // handed out by the next event
}

bool SerialClock::start() {
  bool expected = false;
  if (!Running.compare_exchange_strong(expected, true))
    return false;
  ThreadPid = getpid();
  // Signals are the application's: the thread blocks them all, and so the
  // one it is made with.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  if (pthread_create(&Thread, nullptr, &SerialClock::tick, this) != 0)
    ThreadPid = 0; // serials still work; their times stay at the start
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return true;
}

void *SerialClock::tick(void *self) {
  SerialClock &clock = *static_cast<SerialClock *>(self);
  int pid = getpid();
  while (pid == getpid() && !clock.Stopping.load(std::memory_order_relaxed)) {
    timespec tenMs{0, 10000000};
    nanosleep(&tenMs, nullptr);
    // Each thread takes a new block of serials at its next event.
    clock.Epoch.fetch_add(1, std::memory_order_relaxed);
    uint64_t now = clock.Next.load(std::memory_order_relaxed);
    if (clock.Aging && now >= clock.NextAging) {
      clock.NextAging = now + kAgingPeriod;
      clock.Aging(clock.AgingContext, now);
    }
  }
  return nullptr;
}

void SerialClock::setAging(void (*age)(void *context, uint64_t now),
                           void *context) {
  AgingContext = context;
  Aging = age;
}

void SerialClock::startAt(uint64_t first) {
  Next.store(first, std::memory_order_relaxed);
  NextAging = first + kAgingPeriod;
}

void SerialClock::thinTimeMarks() {
  // Every other mark of the older half goes: a week of 10 ms epochs keeps
  // its latest at their own resolution, older ones at coarser ones (a
  // serial's time is then that of an earlier mark), in bounded memory.
  size_t half = Checkpoints.size() / 2, kept = 0;
  for (size_t i = 0; i < half; i += 2)
    Checkpoints[kept++] = Checkpoints[i];
  for (size_t i = half; i < Checkpoints.size(); ++i)
    Checkpoints[kept++] = Checkpoints[i];
  Checkpoints.resize(kept);
}

uint64_t SerialClock::nowNs() const { return monotonicNs() - StartNs; }

uint64_t SerialClock::timeOfSerial(uint64_t serial) const {
  std::lock_guard<std::mutex> lock(Mutex);
  // The epoch the serial's block was taken in: its first block started at
  // or before the serial, the next epoch's first after it.
  auto after =
      std::upper_bound(Checkpoints.begin(), Checkpoints.end(), serial,
                       [](uint64_t s, const std::pair<uint64_t, uint64_t> &c) {
                         return s < c.first;
                       });
  return after == Checkpoints.begin() ? 0 : std::prev(after)->second;
}

void SerialClock::forkPrepare() { Mutex.lock(); }

void SerialClock::forkParent() { Mutex.unlock(); }

void SerialClock::forkChild() {
  // The parent's block is the parent's: the child takes its own. Its thread
  // is gone; the child's first event starts another.
  detail::CurrentSerials = detail::SerialBlock{0, 0, 0, 0};
  Running.store(false);
  ThreadPid = 0;
}

} // namespace msledger
