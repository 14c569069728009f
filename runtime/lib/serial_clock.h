//===- serial_clock.h - Event serials, their times, threads -----*- C++ -*-===//
//
// Contract: a SerialClock hands out the serials of a ledger's events:
//
//   * serialAtLeast(n) gives the calling thread a serial >= n, unique among
//     this clock's serials and increasing along the thread. Each thread takes
//     blocks of up to kBlock serials from one counter: a new block when its
//     block is used up, when the clock's epoch moved on (every 10 ms, on the
//     clock's thread, once start() ran), and when the caller asks for more
//     than the block's next (a record table's shard saw a later serial: the
//     thread's blocks then shrink). So the counter is touched once a block,
//     not once an event, and a lone thread's serials stay dense (a
//     deterministic program's reports are the same run after run);
//   * an event's time is known within an epoch without reading a clock on
//     the hot path: the first block of each epoch marks when its serials
//     began (timeOfSerial);
//   * renewBlock() makes the thread's next serial follow every serial handed
//     out so far (what an implicit release ends was acquired before it);
//   * several clocks may live in one process (unit tests): a thread's block
//     belongs to the clock that handed it out (its epochs carry a number no
//     other clock of the process gets), and a destroyed clock's thread is
//     stopped and joined first;
//   * fork(): forkPrepare before it, forkParent after it in the parent,
//     forkChild then forkParent in the child; the child's clock
//     continues from the parent's counter (next()) with no block and no
//     thread until its next start().
//
// Serials are 64 bits, never wrapping; record tables keep 40 bits of them
// and widen them back (record_table.h), which the clock helps with: it
// hands out no serial whose low 40 bits are all ones, and calls an aging
// hook every 2^38 serials.
//
// threadIndex() numbers the process's threads from 1, in the order of their
// first event (saturating at record_table.h's kMaxThread).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_SERIAL_CLOCK_H
#define MSLEDGER_RUNTIME_SERIAL_CLOCK_H

#include <atomic>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <utility>
#include <vector>

namespace msledger {

namespace detail {
/// The serials the calling thread hands out next, [next, end): a block of
/// a clock's counter taken in its epoch `epoch` -- whose top half is the
/// clock's number, so that one compare tells both.
struct SerialBlock {
  uint64_t next;
  uint64_t end;
  uint64_t epoch;
  uint32_t size; // of the next block: smaller after a shard's conflict
};
// initial-exec: libmsledger is preloaded or linked, never dlopen'ed late, and
// the general-dynamic model would make every event call __tls_get_addr.
// __thread, not thread_local: plain data, so no access pays for a check of
// a dynamic initializer in another file.
extern __thread SerialBlock CurrentSerials
    __attribute__((tls_model("initial-exec")));
extern __thread uint16_t CurrentThreadIndex
    __attribute__((tls_model("initial-exec")));
} // namespace detail

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t monotonicNs();

class SerialClock {
public:
  static constexpr uint64_t kBlock = 1024;
  /// No serial whose low 40 bits are all ones is handed out: a record table
  /// keeps a serial's low 40 bits, and marks with these a record whose whole
  /// serial it keeps aside (record_table.h).
  static constexpr uint64_t kMarkBits = (1ULL << 40) - 1;
  /// How many serials apart the aging hook runs.
  static constexpr uint64_t kAgingPeriod = 1ULL << 38;

  SerialClock();
  ~SerialClock();
  SerialClock(const SerialClock &) = delete;
  SerialClock &operator=(const SerialClock &) = delete;

  /// Inline: every event takes one, under its record's shard lock.
  uint64_t serialAtLeast(uint64_t atLeast) {
    detail::SerialBlock &block = detail::CurrentSerials;
    uint64_t epoch = Epoch.load(std::memory_order_relaxed);
    if (block.next < block.end && block.next >= atLeast && block.epoch == epoch)
      return block.next++;
    return renew(atLeast, epoch);
  }
  void renewBlock();
  /// Whether start() ran (in this process).
  bool started() const { return Running.load(std::memory_order_relaxed); }
  /// Starts the epoch thread, once; false if this call did not start it.
  bool start();
  /// Nanoseconds since the clock was made.
  uint64_t nowNs() const;
  uint64_t startUnixMs() const { return StartUnixMs; }
  /// Nanoseconds since the start at which `serial` had happened.
  uint64_t timeOfSerial(uint64_t serial) const;
  /// The first serial of the next block the counter hands out.
  uint64_t next() const { return Next.load(std::memory_order_relaxed); }
  /// `age` runs on the clock's thread each time kAgingPeriod more serials
  /// were handed out, with the counter's value then (record tables age
  /// their records, RecordTable::age). Before start().
  void setAging(void (*age)(void *context, uint64_t now), void *context);
  /// Serials start at `first`, not 0; before the first event (tests of
  /// serials past 2^40: first_serial).
  void startAt(uint64_t first);
  /// For tests: the next epoch now, as the clock's thread makes it every
  /// 10 ms; and how many time marks (timeOfSerial) are kept.
  void tickForTests() { Epoch.fetch_add(1, std::memory_order_relaxed); }
  size_t timeMarks() const {
    std::lock_guard<std::mutex> lock(Mutex);
    return Checkpoints.size();
  }

  void forkPrepare();
  void forkParent();
  /// In the child, before forkParent() releases the lock: forgets the
  /// parent's block and thread.
  void forkChild();

  static uint16_t threadIndex() {
    if (detail::CurrentThreadIndex == 0)
      detail::CurrentThreadIndex = newThreadIndex();
    return detail::CurrentThreadIndex;
  }

private:
  uint64_t renew(uint64_t atLeast, uint64_t epoch);
  static uint16_t newThreadIndex();
  static void *tick(void *clock);

  // On cache lines of their own: every thread writes Next, and the fields
  // every event reads would travel between cores with it.
  alignas(64) std::atomic<uint64_t> Next{0};
  // The clock's number << 32 | the 10 ms ticks since its start: a block
  // of another clock never matches (a tick count would wrap after 497
  // days).
  alignas(64) std::atomic<uint64_t> Epoch;
  std::atomic<uint64_t> CheckpointEpoch{0}; // epoch + 1 of the last one
  const uint64_t Id;

  void (*Aging)(void *, uint64_t) = nullptr;
  void *AgingContext = nullptr;
  uint64_t NextAging = kAgingPeriod; // the clock thread's

  // (first serial of an epoch's first block, time): at most kMaxTimeMarks,
  // the older ones thinned (thinTimeMarks).
  mutable std::mutex Mutex;
  std::vector<std::pair<uint64_t, uint64_t>> Checkpoints;
  static constexpr size_t kMaxTimeMarks = 1 << 16;
  /// Drops every other mark of the older half; under Mutex.
  void thinTimeMarks();
  std::atomic<bool> Running{false};
  std::atomic<bool> Stopping{false};
  pthread_t Thread{};
  int ThreadPid = 0; // the process Thread runs in
  uint64_t StartNs = 0;
  uint64_t StartUnixMs = 0;
};

} // namespace msledger

#endif
