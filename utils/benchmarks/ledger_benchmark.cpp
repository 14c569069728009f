//===- ledger_benchmark.cpp - what tracking costs -------------------------===//
//
// Google Benchmark. Run through utils/benchmarks/run.py, which runs the Sim
// benchmarks with and without libmsledger preloaded and prints the ratios.
//
//   SimPair/threads:N     aclrtMalloc + aclrtFree of 1 KiB on the simulated
//                         device (tracked when libmsledger is preloaded;
//                         with both levels off, the interposers alone)
//   SimCopy               aclrtMemcpy of 1 KiB from a std::vector to the
//                         middle of a device buffer (checked when preloaded,
//                         unless check_access=no)
//   AccessCheck/interior  Ledger::access alone, with 10,000 live buffers: a
//   AccessCheck/start     copy into the middle of one (found through the
//                         range index) or at its start (one lookup), from
//                         memory no record covers
//   LedgerPair/threads:N  the ledger alone: one acquire and one release
//   CrossThread/LedgerPair one thread acquires, another releases
//   CrossThread/HandOffAlone  their hand-off without the ledger
//   LockFloor             the two uncontended lock + unlock pairs of a pair
//   LiveRecords           ledger bytes per live allocation at 1,000,000
//   Report1M              the leak report over 1,000,000 live allocations
//   HelperCall/Framed     a call of a helper function, as is and with the
//                         frame a rewritten call pushes (MSLEDGER_CHAIN)
//   LedgerPairInChain     LedgerPair inside three rewritten helper calls
//   JournalCost           LedgerPair in batches with the journal paused and
//                         not, alternating, so both see the same machine
//                         (needs journal_path in MSLEDGER_OPTIONS)
//
// Every timed call's result is checked (counted in the loop, without a
// branch, and looked at after it): a benchmark whose calls failed -- a loop
// of refused mallocs, releases that found nothing -- is an error, not a
// figure, and the binary exits with status 1 naming it. A benchmark that
// cannot run here at all (JournalCost without a journal, CrossThread on
// other than two threads) is skipped, saying why, and is no failure.
//
//===----------------------------------------------------------------------===//
#include "acl/acl.h"
#include "process.h"
#include "report.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

using namespace msledger;

namespace {

std::atomic<bool> AnyFailed{false};

/// Marks the benchmark an error if `failures` of its timed calls failed
/// (Google Benchmark prints "ERROR OCCURRED" beside it and leaves its
/// figures out; main() then exits with status 1).
void expectNoFailures(benchmark::State &state, uint64_t failures,
                      const char *what) {
  if (failures == 0)
    return;
  AnyFailed = true;
  state.SkipWithError((std::to_string(failures) + " " + what).c_str());
}

/// Marks the benchmark an error if the ledger found something while it ran
/// (a release of what it does not know, a copy out of bounds): what it
/// timed was not the path it means to time.
void expectNoLedgerErrors(benchmark::State &state, uint64_t before) {
  expectNoFailures(state, processLedger().errorCount() - before,
                   "error(s) reported by the ledger");
}

aclrtContext simContext() {
  static aclrtContext context = [] {
    aclrtContext created = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtGetCurrentContext(&created) != ACL_SUCCESS)
      abort();
    return created;
  }();
  return context;
}

void SimPair(benchmark::State &state) {
  aclrtSetCurrentContext(simContext());
  uint64_t failures = 0;
  for (auto _ : state) {
    void *p = nullptr;
    failures += aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
    benchmark::DoNotOptimize(p);
    failures += aclrtFree(p) != ACL_SUCCESS;
  }
  expectNoFailures(state, failures, "aclrtMalloc or aclrtFree call(s) failed");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(SimPair)->Threads(1)->Threads(2)->UseRealTime();

void SimCopy(benchmark::State &state) {
  aclrtSetCurrentContext(simContext());
  void *device = nullptr;
  uint64_t failures =
      aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
  std::vector<char> host(1024, 1);
  for (auto _ : state)
    failures +=
        aclrtMemcpy(static_cast<char *>(device) + 1024, 1024, host.data(), 1024,
                    ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS;
  failures += aclrtFree(device) != ACL_SUCCESS;
  expectNoFailures(state, failures,
                   "aclrtMalloc, aclrtMemcpy or aclrtFree call(s) failed");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(SimCopy)->UseRealTime();

void AccessCheck(benchmark::State &state, uint64_t offset) {
  Ledger &ledger = processLedger();
  const unsigned alloc = static_cast<unsigned>(apiIndex("aclrtMalloc"));
  const unsigned copy = static_cast<unsigned>(apiIndex("aclrtMemcpy"));
  const uint64_t base = 0x7000000000ULL;
  for (uint64_t i = 0; i < 10000; ++i)
    ledger.acquire(alloc, base + (i << 12), 4096, Space::GM, nullptr);
  std::vector<char> host(1024);
  uint64_t i = 0;
  uint64_t errors = ledger.errorCount();
  for (auto _ : state) {
    uint64_t address = base + ((i++ % 10000) << 12) + offset;
    ledger.access(
        copy, nullptr,
        {address, 1024, reinterpret_cast<uintptr_t>(host.data()), 1024, 1});
  }
  // Every copy lies inside a live buffer: a finding means the check did
  // not see the buffers it was meant to search.
  expectNoLedgerErrors(state, errors);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(AccessCheck, interior, 1024)->UseRealTime();
BENCHMARK_CAPTURE(AccessCheck, start, 0)->UseRealTime();

std::atomic<uint64_t> NextBase{0x6000000000ULL};

void LedgerPair(benchmark::State &state) {
  Ledger &ledger = processLedger();
  const unsigned alloc = static_cast<unsigned>(apiIndex("aclrtMalloc"));
  const unsigned release = static_cast<unsigned>(apiIndex("aclrtFree"));
  // Each thread cycles through 4096 addresses of its own, as an allocator
  // would.
  uint64_t base = NextBase.fetch_add(1ULL << 32);
  uint64_t i = 0, failures = 0, errors = ledger.errorCount();
  for (auto _ : state) {
    uint64_t address = base + ((i++ & 4095) << 9);
    ledger.acquire(alloc, address, 1024, Space::GM, nullptr);
    PendingRelease pending;
    ledger.beginRelease(release, address, nullptr, &pending);
    failures += pending.taken != RecordTable::TakeResult::Taken;
    ledger.endRelease(pending, true);
  }
  expectNoFailures(state, failures, "release(s) found no record");
  expectNoLedgerErrors(state, errors);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(LedgerPair)->Threads(1)->Threads(2)->UseRealTime();

// CrossThread/LedgerPair: thread 0 acquires, thread 1 releases what it
// acquired, handed over a ring of kHandOff addresses (a producer and a
// consumer of buffers). Items are pairs. HandOffAlone: the ring without the
// ledger, the part of the figure that is the hand-off's own.
constexpr uint64_t kHandOff = 1024;
struct HandOff {
  std::atomic<uint64_t> slots[kHandOff];
  alignas(64) std::atomic<uint64_t> produced{0};
  alignas(64) std::atomic<uint64_t> consumed{0};
} Ring;

void CrossThread(benchmark::State &state, bool tracked) {
  if (state.threads() != 2) {
    state.SkipWithError("needs two threads");
    return;
  }
  Ledger &ledger = processLedger();
  const unsigned alloc = static_cast<unsigned>(apiIndex("aclrtMalloc"));
  const unsigned release = static_cast<unsigned>(apiIndex("aclrtFree"));
  // 4096 addresses cycled, at most kHandOff of them in the ring: an
  // address is released before it is acquired again.
  static uint64_t base = NextBase.fetch_add(1ULL << 32);
  if (state.thread_index() == 0) {
    uint64_t n = Ring.produced.load(std::memory_order_relaxed);
    for (auto _ : state) {
      uint64_t address = base + ((n & 4095) << 9);
      if (tracked)
        ledger.acquire(alloc, address, 1024, Space::GM, nullptr);
      while (n - Ring.consumed.load(std::memory_order_acquire) >= kHandOff)
        ;
      Ring.slots[n % kHandOff].store(address, std::memory_order_relaxed);
      Ring.produced.store(++n, std::memory_order_release);
    }
    state.SetItemsProcessed(0);
  } else {
    uint64_t n = Ring.consumed.load(std::memory_order_relaxed);
    uint64_t failures = 0;
    for (auto _ : state) {
      while (Ring.produced.load(std::memory_order_acquire) == n)
        ;
      uint64_t address =
          Ring.slots[n % kHandOff].load(std::memory_order_relaxed);
      Ring.consumed.store(++n, std::memory_order_release);
      if (!tracked) {
        benchmark::DoNotOptimize(address);
        continue;
      }
      PendingRelease pending;
      ledger.beginRelease(release, address, nullptr, &pending);
      failures += pending.taken != RecordTable::TakeResult::Taken;
      ledger.endRelease(pending, true);
    }
    expectNoFailures(state, failures,
                     "release(s) found no record the other thread acquired");
    state.SetItemsProcessed(state.iterations());
  }
}
BENCHMARK_CAPTURE(CrossThread, LedgerPair, true)->Threads(2)->UseRealTime();
BENCHMARK_CAPTURE(CrossThread, HandOffAlone, false)->Threads(2)->UseRealTime();

// LockFloor: the two uncontended lock + unlock pairs of a spin lock like a
// shard's that LedgerPair takes (acquire's, and the release's take()): what
// any table with a lock per event costs a pair on this machine.
void LockFloor(benchmark::State &state) {
  std::atomic<bool> locks[2] = {};
  for (auto _ : state) {
    for (std::atomic<bool> &lock : locks) {
      while (lock.exchange(true, std::memory_order_acquire))
        ;
      lock.store(false, std::memory_order_release);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(LockFloor)->UseRealTime();

void JournalCost(benchmark::State &state) {
  Ledger &ledger = processLedger();
  if (!ledger.journaling()) {
    state.SkipWithError("no journal: set journal_path in MSLEDGER_OPTIONS");
    return;
  }
  const unsigned alloc = static_cast<unsigned>(apiIndex("aclrtMalloc"));
  const unsigned release = static_cast<unsigned>(apiIndex("aclrtFree"));
  constexpr int kBatch = 1024;
  uint64_t base = NextBase.fetch_add(1ULL << 32);
  uint64_t i = 0, failures = 0, errors = ledger.errorCount();
  auto batch = [&] {
    auto start = std::chrono::steady_clock::now();
    for (int n = 0; n < kBatch; ++n) {
      uint64_t address = base + ((i++ & 4095) << 9);
      ledger.acquire(alloc, address, 1024, Space::GM, nullptr);
      PendingRelease pending;
      ledger.beginRelease(release, address, nullptr, &pending);
      failures += pending.taken != RecordTable::TakeResult::Taken;
      ledger.endRelease(pending, true);
    }
    return std::chrono::duration<double, std::nano>(
               std::chrono::steady_clock::now() - start)
               .count() /
           kBatch;
  };
  std::vector<double> without, with, added;
  bool journalFirst = false;
  for (auto _ : state) {
    double paused = 0, journaled = 0;
    for (int turn = 0; turn < 2; ++turn) {
      bool journal = (turn == 0) == journalFirst; // alternate the order too
      ledger.journal().pause(!journal);
      (journal ? journaled : paused) = batch();
    }
    journalFirst = !journalFirst;
    without.push_back(paused);
    with.push_back(journaled);
    added.push_back((journaled - paused) / 2); // two events per pair
  }
  ledger.journal().pause(false);
  expectNoFailures(state, failures, "release(s) found no record");
  expectNoLedgerErrors(state, errors);
  auto median = [](std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2,
                     values.end());
    return values[values.size() / 2];
  };
  state.counters["pair_ns_without"] = median(without);
  state.counters["pair_ns_with"] = median(with);
  state.counters["event_ns_added"] = median(added);
  state.SetItemsProcessed(state.iterations() * 2 * kBatch);
}
BENCHMARK(JournalCost);

// A helper the compiler cannot inline or drop.
__attribute__((noinline)) uint64_t helper(uint64_t x) {
  benchmark::DoNotOptimize(x);
  return x + 1;
}

const msledger_site kHelperSite = {"bench.cpp", 1, 1, 1, "helper", "caller"};

void HelperCall(benchmark::State &state) {
  uint64_t x = 0;
  for (auto _ : state)
    x = helper(x);
  benchmark::DoNotOptimize(x);
  expectNoFailures(state, x != static_cast<uint64_t>(state.iterations()),
                   "helper result(s) wrong");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(HelperCall);

void HelperCallFramed(benchmark::State &state) {
  uint64_t x = 0;
  for (auto _ : state) {
    msledger_frame_push(&kHelperSite); // what MSLEDGER_CHAIN does
    x = helper(x);
    msledger_frame_pop();
  }
  benchmark::DoNotOptimize(x);
  expectNoFailures(state, x != static_cast<uint64_t>(state.iterations()),
                   "helper result(s) wrong");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(HelperCallFramed);

void LedgerPairInChain(benchmark::State &state) {
  static const msledger_site sites[3] = {
      {"main.cpp", 31, 3, 1, "Prepare", "main"},
      {"model.cpp", 77, 3, 2, "Load", "Prepare"},
      {"utils.cpp", 190, 3, 3, "MallocMemory", "Load"}};
  for (const msledger_site &site : sites)
    msledger_frame_push(&site);
  LedgerPair(state);
  for (int i = 0; i < 3; ++i)
    msledger_frame_pop();
}
BENCHMARK(LedgerPairInChain)->UseRealTime();

void LiveRecords(benchmark::State &state) {
  for (auto _ : state) {
    RecordTable table;
    Record record, previous;
    uint64_t failures = 0;
    for (uint64_t i = 1; i <= 1000000; ++i) {
      record.key = 0x124080000000ULL + (i << 9);
      record.size = 1024;
      record.serial = i;
      failures += table.acquire(record, false, &previous) !=
                  RecordTable::AcquireResult::Inserted;
    }
    failures += table.size() != 1000000;
    expectNoFailures(state, failures, "record(s) not inserted as new");
    state.counters["bytes_per_live_allocation"] =
        static_cast<double>(table.memoryBytes()) / 1e6;
  }
}
BENCHMARK(LiveRecords)->Unit(benchmark::kMillisecond)->Iterations(1);

void Report1M(benchmark::State &state) {
  Ledger &ledger = processLedger();
  static std::once_flag populated;
  std::call_once(populated, [&] {
    const unsigned alloc = static_cast<unsigned>(apiIndex("aclrtMalloc"));
    for (uint64_t i = 1; i <= 1000000; ++i)
      ledger.acquire(alloc, 0x7000000000ULL + (i << 9), 1024, Space::GM,
                     nullptr);
  });
  size_t bytes = 0;
  uint64_t failures = 0;
  for (auto _ : state) {
    std::vector<Record> live = ledger.table(Level::Cann).snapshot();
    std::string text = formatLeaks(ledger.siteTable(), Level::Cann, live, false,
                                   true, false, nullptr);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
    // The report is of all of them (other benchmarks' records may be live
    // beside them in this process).
    failures += live.size() < 1000000 ||
                text.find("leaked in " + std::to_string(live.size()) +
                          " allocation(s)") == std::string::npos;
  }
  expectNoFailures(state, failures, "report(s) not of every live allocation");
  state.counters["report_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(Report1M)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (AnyFailed)
    fprintf(stderr, "ledger_benchmark: the timed calls of a benchmark failed "
                    "(ERROR OCCURRED above): its figures are not figures\n");
  return AnyFailed ? 1 : 0;
}
