//===- LedgerTest.cpp - events, errors and levels of the ledger -----------===//
//
// Each test builds a ledger of its own, with the default options, and
// checks what its events did.
//
//===----------------------------------------------------------------------===//
#include "ledger.h"
#include "KnownApi.h"
#include "interpose.h"
#include "report.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace msledger;

namespace {

void releaseIn(Ledger &ledger, const char *name, uint64_t handle,
               bool succeeded, const msledger_site *site = nullptr) {
  PendingRelease pending;
  ledger.beginRelease(api(name), handle, site, &pending);
  ledger.endRelease(pending, succeeded);
}

class LedgerTest : public ::testing::Test {
protected:
  Ledger ledger{Options()};

  bool live(Level level, unsigned apiIndex, uint64_t handle,
            Record *out = nullptr) {
    Record record;
    bool found = ledger.table(level).find(keyOf(apiIndex, handle), &record);
    if (out)
      *out = record;
    return found;
  }
  void release(const char *name, uint64_t handle, bool succeeded,
               const msledger_site *site = nullptr) {
    releaseIn(ledger, name, handle, succeeded, site);
  }
  ErrorEvent lastError() {
    std::vector<ErrorEvent> errors = ledger.errors();
    EXPECT_FALSE(errors.empty());
    return errors.empty() ? ErrorEvent() : errors.back();
  }
};

} // namespace

TEST_F(LedgerTest, AcquireAndReleaseAtTheFamilysLevel) {
  ledger.acquire(api("aclrtMalloc"), 0x2000001000, 100, Space::GM, nullptr);
  ledger.acquire(api("halMemAlloc"), 0x2000001000, 164, Space::GM, nullptr);
  Record cann, device;
  ASSERT_TRUE(live(Level::Cann, api("aclrtMalloc"), 0x2000001000, &cann));
  ASSERT_TRUE(live(Level::Device, api("halMemAlloc"), 0x2000001000, &device));
  EXPECT_EQ(cann.size, 100u);
  EXPECT_EQ(device.size, 164u);
  EXPECT_EQ(device.serial, cann.serial + 1) << "one counter for every event";
  uint64_t errors = ledger.errorCount();
  release("aclrtFree", 0x2000001000, true);
  release("halMemFree", 0x2000001000, true);
  EXPECT_FALSE(live(Level::Cann, api("aclrtMalloc"), 0x2000001000));
  EXPECT_FALSE(live(Level::Device, api("halMemAlloc"), 0x2000001000));
  EXPECT_EQ(ledger.errorCount(), errors);
}

TEST_F(LedgerTest, AFailedReleaseKeepsTheRecord) {
  ledger.acquire(api("aclrtMalloc"), 0x2000002000, 64, Space::GM, nullptr);
  uint64_t errors = ledger.errorCount();
  release("aclrtFree", 0x2000002000, false);
  EXPECT_TRUE(live(Level::Cann, api("aclrtMalloc"), 0x2000002000));
  EXPECT_EQ(ledger.errorCount(), errors)
      << "a live pointer the API refused is not our error";
  release("aclrtFree", 0x2000002000, true);
}

TEST_F(LedgerTest, IllegalDoubleAndMismatchedReleases) {
  static const msledger_site site = {"test.cpp", 12, 3, 1, "aclrtFree", "f"};
  release("aclrtFree", 0x2000003000, false, &site);
  ErrorEvent error = lastError();
  EXPECT_EQ(error.kind, ErrorKind::IllegalRelease);
  EXPECT_EQ(error.handle, 0x2000003000u);
  EXPECT_TRUE(error.callFailed);
  ASSERT_NE(ledger.sites().site(error.site), nullptr);
  EXPECT_STREQ(ledger.sites().site(error.site)->file, "test.cpp");

  ledger.acquire(api("aclrtMalloc"), 0x2000004000, 64, Space::GM, nullptr);
  release("aclrtFree", 0x2000004000, true);
  release("aclrtFree", 0x2000004000, false);
  error = lastError();
  EXPECT_EQ(error.kind, ErrorKind::DoubleRelease);
  ASSERT_TRUE(error.hasPrevious && error.hasAcquired);
  EXPECT_EQ(error.previous.api, api("aclrtFree"));
  EXPECT_EQ(error.acquired.size, 64u);

  ledger.acquire(api("aclrtMalloc"), 0x2000005000, 64, Space::GM, nullptr);
  release("acldvppFree", 0x2000005000, true);
  error = lastError();
  EXPECT_EQ(error.kind, ErrorKind::MismatchedRelease);
  EXPECT_EQ(error.acquired.api, api("aclrtMalloc"));
  EXPECT_FALSE(live(Level::Cann, api("aclrtMalloc"), 0x2000005000))
      << "the memory is gone all the same";
}

TEST_F(LedgerTest, ANullHandleIsAnIllegalReleaseNeverAnotherFamilysRecord) {
  // aclInit's record has no handle: keyed as 0 in its namespace. A NULL
  // mstx heap or region handle, or a NULL stream, is no release of it.
  ledger.acquire(api("aclInit"), 0, 0, Space::None, nullptr);
  for (const char *release_ :
       {"mstxMemRegionsUnregister", "aclrtDestroyStream", "aclrtFree"}) {
    release(release_, 0, false);
    ErrorEvent error = lastError();
    EXPECT_EQ(error.kind, ErrorKind::IllegalRelease) << release_;
    EXPECT_FALSE(error.hasAcquired) << release_;
    EXPECT_TRUE(error.callFailed) << release_;
  }
  // Where the real release takes NULL as free() does (catalog "null":
  // "accepted") and succeeds, there is nothing to report.
  uint64_t before = ledger.errorCount();
  for (const char *release_ :
       {"mstxMemHeapUnregister", "aclDestroyTensor", "acldvppDestroyPicDesc"})
    release(release_, 0, true);
  EXPECT_EQ(ledger.errorCount(), before);
  EXPECT_TRUE(live(Level::Cann, api("aclInit"), 0));
  // A success that made nothing (a NULL handle) is no acquisition.
  ledger.acquire(api("HcclCreateSubCommConfig"), 0, 0, Space::None, nullptr);
  EXPECT_FALSE(live(Level::Cann, api("HcclCreateSubCommConfig"), 0));
  // A device id of 0 is a handle, not NULL.
  uint64_t errors = ledger.errorCount();
  ledger.acquire(api("aclrtSetDevice"), 0, 0, Space::None, nullptr);
  release("aclrtResetDevice", 0, true);
  EXPECT_EQ(ledger.errorCount(), errors);
  release("aclFinalize", 0, true);
  EXPECT_FALSE(live(Level::Cann, api("aclInit"), 0));
}

TEST_F(LedgerTest, FamiliesWithoutHandlesNeverMeetEachOther) {
  // aclInit's and aclprofInit's records both have no handle (0): a release
  // of one family that holds nothing is no release of the other.
  ledger.acquire(api("aclInit"), 0, 0, Space::None, nullptr);
  release("aclfvRelease", 0, false);
  ErrorEvent error = lastError();
  EXPECT_EQ(error.kind, ErrorKind::IllegalRelease);
  EXPECT_FALSE(error.hasAcquired);
  EXPECT_TRUE(live(Level::Cann, api("aclInit"), 0));
  ledger.acquire(api("aclprofInit"), 0, 0, Space::None, nullptr);
  uint64_t before = ledger.errorCount();
  release("aclprofFinalize", 0, true);
  EXPECT_EQ(ledger.errorCount(), before);
  release("aclprofFinalize", 0, true);
  EXPECT_EQ(lastError().kind, ErrorKind::DoubleRelease);
  EXPECT_TRUE(live(Level::Cann, api("aclInit"), 0));
}

TEST_F(LedgerTest, HandleNamespacesKeepFamiliesApart) {
  // A channel description and its channel share an address; a device id and a
  // model id may share a number. Neither collides.
  ledger.acquire(api("acldvppCreateChannelDesc"), 0x3000000100, 0, Space::None,
                 nullptr);
  ledger.acquire(api("acldvppCreateChannel"), 0x3000000100, 0, Space::None,
                 nullptr);
  ledger.acquire(api("aclrtSetDevice"), 5, 0, Space::None, nullptr);
  ledger.acquire(api("aclmdlLoadFromFile"), 5, 0, Space::None, nullptr);
  EXPECT_TRUE(live(Level::Cann, api("acldvppCreateChannelDesc"), 0x3000000100));
  EXPECT_TRUE(live(Level::Cann, api("acldvppCreateChannel"), 0x3000000100));
  uint64_t errors = ledger.errorCount();
  release("acldvppDestroyChannel", 0x3000000100, true);
  release("acldvppDestroyChannelDesc", 0x3000000100, true);
  release("aclmdlUnload", 5, true);
  EXPECT_TRUE(live(Level::Cann, api("aclrtSetDevice"), 5));
  release("aclrtResetDevice", 5, true);
  EXPECT_EQ(ledger.errorCount(), errors);
  EXPECT_NE(keyOf(api("aclrtSetDevice"), 0), 0u) << "device 0 is a valid key";
  EXPECT_EQ(keyOf(api("aclrtMalloc"), 0x1234), 0x1234u)
      << "memory keys are addresses";
}

TEST_F(LedgerTest, RefcountedDevicesNeedEveryReset) {
  ledger.acquire(api("aclrtSetDevice"), 6, 0, Space::None, nullptr);
  ledger.acquire(api("aclrtSetDevice"), 6, 0, Space::None, nullptr);
  release("aclrtResetDevice", 6, true);
  Record record;
  ASSERT_TRUE(live(Level::Cann, api("aclrtSetDevice"), 6, &record));
  EXPECT_EQ(record.size, 1u);
  release("aclrtResetDevice", 6, true);
  EXPECT_FALSE(live(Level::Cann, api("aclrtSetDevice"), 6));
  release("aclrtResetDevice", 6, false);
  EXPECT_EQ(lastError().kind, ErrorKind::DoubleRelease);
}

TEST_F(LedgerTest, CallScopeTracksOnlyTheOutermostCallOfALevel) {
  CallScope outer(api("aclrtMalloc"));
  EXPECT_TRUE(outer.tracking());
  {
    CallScope inner(api("aclrtMallocCached"));
    EXPECT_FALSE(inner.tracking())
        << "an ACL call inside an ACL call is one event";
    CallScope driver(api("halMemAlloc"));
    EXPECT_TRUE(driver.tracking()) << "its driver calls are the device level's";
  }
  CallScope again(api("aclrtFree"));
  EXPECT_FALSE(again.tracking());
}

TEST_F(LedgerTest, SpacesFromDriverFlags) {
  EXPECT_EQ(spaceFromDriverFlag(1ULL << 10), Space::GM);
  EXPECT_EQ(spaceFromDriverFlag((2ULL << 10) | 3), Space::Host);
  EXPECT_EQ(spaceFromDriverFlag((3ULL << 10) | (33ULL << 56)), Space::DVPP);
  EXPECT_EQ(spaceFromDriverFlag(0), Space::GM);
}

TEST_F(LedgerTest, SerialsAreUniqueAcrossThreads) {
  const int threads = 4, events = 20000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([this, t] {
      for (int i = 0; i < events; ++i)
        ledger.acquire(apiIndex("aclrtMalloc"),
                       0x4000000000ULL + (static_cast<uint64_t>(t) << 32) +
                           i * 16,
                       16, Space::GM, nullptr);
    });
  for (auto &worker : workers)
    worker.join();
  std::set<uint64_t> serials;
  size_t mine = 0;
  for (const Record &r : ledger.table(Level::Cann).snapshot())
    if (handleOf(r.key) >= 0x4000000000ULL &&
        handleOf(r.key) < 0x4400000000ULL) {
      serials.insert(r.serial);
      ++mine;
    }
  EXPECT_EQ(mine, static_cast<size_t>(threads * events));
  EXPECT_EQ(serials.size(), mine);
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < events; ++i)
      release("aclrtFree",
              0x4000000000ULL + (static_cast<uint64_t>(t) << 32) + i * 16,
              true);
}

TEST_F(LedgerTest, HeapsContainTheirRegionsOnly) {
  uintptr_t heap = ledger.heaps().registerHeap(0x10000, 0x1000);
  EXPECT_TRUE(ledger.heaps().inHeap(heap, 0x10000, 0x1000));
  EXPECT_TRUE(ledger.heaps().inHeap(heap, 0x10fff, 1));
  EXPECT_FALSE(ledger.heaps().inHeap(heap, 0x10fff, 2)); // runs past the end
  EXPECT_FALSE(ledger.heaps().inHeap(heap, 0xffff, 1));
  EXPECT_FALSE(
      ledger.heaps().inHeap(heap, 0x10001, UINT64_MAX));     // no wrap-around
  EXPECT_FALSE(ledger.heaps().inHeap(heap + 1, 0x10000, 1)); // no such heap
  EXPECT_FALSE(ledger.heaps().inHeap(0, 0x10000, 1));
  ledger.heaps().unregisterHeap(heap);
  EXPECT_FALSE(ledger.heaps().inHeap(heap, 0x10000, 1));
}

TEST_F(LedgerTest, AReleaseThroughTheWrongHandleFamilyNamesTheAcquisition) {
  ledger.acquire(api("aclrtCreateStream"), 0x3000001000, 0, Space::None,
                 nullptr);
  size_t before = ledger.errors().size();
  release("aclrtDestroyEvent", 0x3000001000, false);
  std::vector<ErrorEvent> errors = ledger.errors();
  ASSERT_EQ(errors.size(), before + 1);
  EXPECT_EQ(errors.back().kind, ErrorKind::MismatchedRelease);
  EXPECT_EQ(errors.back().acquired.api, api("aclrtCreateStream"));
  release("aclrtDestroyStream", 0x3000001000, true);
  EXPECT_EQ(ledger.errors().size(), before + 1);
}

namespace {

/// One site reached through more callers than the chain table holds, then
/// more sites than the site table holds.
void fillChainsThenSites() {
  // What the ledger could not do goes to stderr, as the process's reporter
  // writes it.
  struct ToStderr : LedgerObserver {
    bool error(const ErrorEvent &) override { return true; }
    void note(const std::string &line) override { fputs(line.c_str(), stderr); }
    void forkedChildStarts() override {}
  } observer;
  Ledger ledger(Options(), &observer);
  unsigned malloc = api("aclrtMalloc");
  static msledger_site callers[70000];
  static const msledger_site site = {"a.cpp", 1, 1, 0, "aclrtMalloc", "f"};
  for (uint64_t i = 0; i < 40000; ++i) {
    msledger_frame_push(&callers[i]);
    ledger.acquire(malloc, 0x700000000000 + i * 64, 64, Space::GM, &site);
    msledger_frame_pop();
  }
  for (uint64_t i = 0; i < 70000; ++i)
    ledger.acquire(malloc, 0x710000000000 + i * 64, 64, Space::GM, &callers[i]);
  exit(0);
}

} // namespace

// A full site table and a full chain table are each said once: with one flag
// for both, the second was never said. (In a child: the tables stay full.)
TEST(LedgerDeathTest, FullSiteAndChainTablesAreEachSaid) {
  EXPECT_EXIT(fillChainsThenSites(), ::testing::ExitedWithCode(0),
              "too many call chains.*too many call sites");
}

TEST_F(LedgerTest, AnnotationsAreKeptInOrderUpToTheirLimit) {
  uint64_t phase = ledger.annotations().rangeStart("phase");
  ledger.annotations().mark("moment");
  ledger.annotations().rangeEnd(phase);
  std::vector<Annotation> kept = ledger.annotations().list();
  ASSERT_GE(kept.size(), 2u);
  const Annotation &range = kept[kept.size() - 2];
  EXPECT_TRUE(range.range);
  EXPECT_EQ(range.message, "phase");
  EXPECT_GE(range.endMs, static_cast<int64_t>(range.startMs));
  EXPECT_FALSE(kept.back().range);
  EXPECT_EQ(kept.back().message, "moment");
  for (int i = 0; i < 10001; ++i)
    ledger.annotations().mark("flood");
  EXPECT_EQ(ledger.annotations().list().size(), 10000u)
      << "later ones are not kept";
  EXPECT_NE(ledger.annotations().rangeStart("after the limit"), 0u)
      << "ids still given";
}

TEST_F(LedgerTest, AReleaseOnAnotherThreadFollowsTheAcquisition) {
  // Thread B takes a block of serials first; this thread then takes a newer
  // one and acquires X; B releases X: its release must still follow the
  // acquisition (the journal replays by serial), as must X's next
  // acquisition here.
  const uint64_t x = 0x5000001000, y = 0x5000003000;
  std::mutex mutex;
  std::condition_variable changed;
  int stage = 0;
  auto waitFor = [&](int wanted) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return stage == wanted; });
  };
  auto moveTo = [&](int next) {
    std::lock_guard<std::mutex> lock(mutex);
    stage = next;
    changed.notify_all();
  };
  std::thread other([&] {
    ledger.acquire(api("aclrtMalloc"), y, 16, Space::GM, nullptr);
    moveTo(1);
    waitFor(2);
    release("aclrtFree", x, true);
    release("aclrtFree", y, true);
  });
  waitFor(1);
  // More than a block's worth of events: this thread's serials are now
  // newer than every serial of the other thread's block.
  for (int i = 0; i < 200; ++i) {
    ledger.acquire(api("aclrtMalloc"), 0x5000100000 + i * 64, 16, Space::GM,
                   nullptr);
    release("aclrtFree", 0x5000100000 + i * 64, true);
  }
  ledger.acquire(api("aclrtMalloc"), x, 16, Space::GM, nullptr);
  Record acquired;
  ASSERT_TRUE(live(Level::Cann, api("aclrtMalloc"), x, &acquired));
  moveTo(2);
  other.join();
  FreedRecord released;
  ASSERT_TRUE(ledger.table(Level::Cann)
                  .findFreed(keyOf(api("aclrtMalloc"), x), &released));
  EXPECT_GT(released.serial, acquired.serial);
  ledger.acquire(api("aclrtMalloc"), x, 16, Space::GM, nullptr);
  Record again;
  ASSERT_TRUE(live(Level::Cann, api("aclrtMalloc"), x, &again));
  EXPECT_GT(again.serial, released.serial);
  release("aclrtFree", x, true);
}

TEST_F(LedgerTest, ALoneThreadsSerialsAreDense) {
  std::vector<uint64_t> serials;
  std::thread alone([&] {
    for (int i = 0; i < 300; ++i) {
      uint64_t address = 0x5000200000 + i * 64;
      ledger.acquire(api("aclrtMalloc"), address, 16, Space::GM, nullptr);
      Record record;
      if (live(Level::Cann, api("aclrtMalloc"), address, &record))
        serials.push_back(record.serial);
      release("aclrtFree", address, true);
    }
  });
  alone.join();
  ASSERT_EQ(serials.size(), 300u);
  // Acquisition and release take one serial each; block after block.
  for (size_t i = 1; i < serials.size(); ++i)
    EXPECT_EQ(serials[i], serials[i - 1] + 2) << i;
}

TEST_F(LedgerTest, PhaseTwoConsumesAnExecutorUnlessItWasRetained) {
  ASSERT_GE(kOperatorPrepareApi, 0) << "the built-in catalog has the rule";
  unsigned prepare = static_cast<unsigned>(kOperatorPrepareApi);
  unsigned run = static_cast<unsigned>(kOperatorRunApi);
  msledger_site phase1{}, phase2{};
  phase1.callee = "aclnnAddGetWorkspaceSize";
  phase2.callee = "aclnnAdd";
  uint64_t errors = ledger.errorCount();

  // Made and run: consumed.
  ledger.operatorPrepared(prepare, 0x5000, 0, &phase1);
  ASSERT_TRUE(live(Level::Cann, prepare, 0x5000));
  ledger.consume(run, 0x5000, &phase2);
  EXPECT_FALSE(live(Level::Cann, prepare, 0x5000));
  EXPECT_EQ(ledger.errorCount(), errors);
  // Run again: the executor is gone, a double release.
  ledger.consume(run, 0x5000, &phase2);
  EXPECT_EQ(lastError().kind, ErrorKind::DoubleRelease);
  errors = ledger.errorCount();

  // Made repeatable: runs leave it live, its destroy releases it, and a new
  // executor at the same address is consumed again.
  ledger.operatorPrepared(prepare, 0x6000, 0, &phase1);
  ledger.retain(api("aclSetAclOpExecutorRepeatable"), 0x6000);
  ledger.consume(run, 0x6000, &phase2);
  ledger.consume(run, 0x6000, &phase2);
  EXPECT_TRUE(live(Level::Cann, prepare, 0x6000));
  release("aclDestroyAclOpExecutor", 0x6000, true);
  EXPECT_FALSE(live(Level::Cann, prepare, 0x6000));
  ledger.operatorPrepared(prepare, 0x6000, 0, &phase1);
  ledger.consume(run, 0x6000, &phase2);
  EXPECT_FALSE(live(Level::Cann, prepare, 0x6000)) << "not repeatable";
  EXPECT_EQ(ledger.errorCount(), errors);
}

TEST_F(LedgerTest, AWorkspaceIsTheNextAllocationOfItsSize) {
  unsigned prepare = static_cast<unsigned>(kOperatorPrepareApi);
  msledger_site phase1{};
  phase1.callee = "aclnnReduceSumGetWorkspaceSize";
  ledger.operatorPrepared(prepare, 0x7000, 1000, &phase1);
  // Another size first: not the workspace.
  ledger.acquire(api("aclrtMalloc"), 0x2000010000, 64, Space::GM, nullptr);
  // The driver allocation behind the workspace (padded by the ACL layer),
  // then the workspace itself.
  ledger.acquire(api("halMemAlloc"), 0x2000020000, (1000 + 32 + 31) / 32 * 32,
                 Space::GM, nullptr);
  ledger.acquire(api("aclrtMalloc"), 0x2000020000, 1000, Space::GM, nullptr);
  // The next one of that size is not.
  ledger.acquire(api("aclrtMalloc"), 0x2000030000, 1000, Space::GM, nullptr);
  auto workspaceOf = [&](Level level, uint64_t address) {
    for (const Record &r : ledger.liveRecords(level))
      if (handleOf(r.key) == address)
        return r.workspaceOf
                   ? operatorAt(ledger.siteTable().site(r.workspaceOf))
                   : std::string();
    return std::string("(not live)");
  };
  EXPECT_EQ(workspaceOf(Level::Cann, 0x2000010000), "");
  EXPECT_EQ(workspaceOf(Level::Cann, 0x2000020000), "aclnnReduceSum");
  EXPECT_EQ(workspaceOf(Level::Device, 0x2000020000), "aclnnReduceSum");
  EXPECT_EQ(workspaceOf(Level::Cann, 0x2000030000), "");
  // Freed and handed out again: no longer a workspace.
  release("aclrtFree", 0x2000020000, true);
  ledger.acquire(api("aclrtMalloc"), 0x2000020000, 1000, Space::GM, nullptr);
  EXPECT_EQ(workspaceOf(Level::Cann, 0x2000020000), "");

  // A later phase 1 that asks for none, or a phase 2, ends the wait: an
  // allocation of the size after it is no workspace.
  ledger.operatorPrepared(prepare, 0, 2000, &phase1);
  ledger.operatorPrepared(prepare, 0, 0, &phase1);
  ledger.acquire(api("aclrtMalloc"), 0x2000040000, 2000, Space::GM, nullptr);
  EXPECT_EQ(workspaceOf(Level::Cann, 0x2000040000), "");
  ledger.operatorPrepared(prepare, 0, 3000, &phase1);
  ledger.consume(static_cast<unsigned>(kOperatorRunApi), 0x7000, &phase1);
  ledger.acquire(api("aclrtMalloc"), 0x2000050000, 3000, Space::GM, nullptr);
  EXPECT_EQ(workspaceOf(Level::Cann, 0x2000050000), "");
}

TEST_F(LedgerTest, ANewExecutorAtARetainedAddressIsNotRetained) {
  unsigned prepare = static_cast<unsigned>(kOperatorPrepareApi);
  unsigned run = static_cast<unsigned>(kOperatorRunApi);
  unsigned retain = api("aclSetAclOpExecutorRepeatable");
  msledger_site phase1{};
  phase1.callee = "aclnnAddGetWorkspaceSize";
  // A retain of an executor msledger never saw made marks nothing.
  ledger.retain(retain, 0x8000);
  ledger.operatorPrepared(prepare, 0x8000, 0, &phase1);
  ledger.consume(run, 0x8000, &phase1);
  EXPECT_FALSE(live(Level::Cann, prepare, 0x8000));
  // Nor does a retain outlive its executor's address being handed out
  // again without a release msledger saw.
  ledger.operatorPrepared(prepare, 0x9000, 0, &phase1);
  ledger.retain(retain, 0x9000);
  ledger.operatorPrepared(prepare, 0x9000, 0, &phase1);
  ledger.consume(run, 0x9000, &phase1);
  EXPECT_FALSE(live(Level::Cann, prepare, 0x9000));
}

// aclrtMemRetainAllocationHandle: each retain is one more aclrtFreePhysical,
// dropped before the record; a failed release keeps its reference; a
// handle never recorded is not retained; an import is released by
// aclrtFreePhysical as its own family's.
TEST_F(LedgerTest, ARetainIsOneMoreReleaseOfTheRecord) {
  const uint64_t handle = 0x5000;
  ledger.acquire(api("aclrtMallocPhysical"), handle, 2 << 20, Space::GM,
                 nullptr);
  ledger.retain(api("aclrtMemRetainAllocationHandle"), handle);
  ledger.retain(api("aclrtMemRetainAllocationHandle"), handle);
  uint64_t errors = ledger.errorCount();
  release("aclrtFreePhysical", handle, true);
  release("aclrtFreePhysical", handle, false); // refused: still held
  release("aclrtFreePhysical", handle, true);
  EXPECT_TRUE(live(Level::Cann, api("aclrtMallocPhysical"), handle))
      << "two retains dropped, the allocation's own reference left";
  release("aclrtFreePhysical", handle, true);
  EXPECT_FALSE(live(Level::Cann, api("aclrtMallocPhysical"), handle));
  EXPECT_EQ(ledger.errorCount(), errors);
  release("aclrtFreePhysical", handle, true);
  EXPECT_EQ(lastError().kind, ErrorKind::DoubleRelease);

  // Released while mapped, then retained from the mapping: the handle is
  // handed out again, a record of its own at the retain's site with the
  // size it had, which its release ends -- no double release.
  static const msledger_site retainSite = {
      "a.cpp", 7, 1, 1, "aclrtMemRetainAllocationHandle", "f"};
  ledger.acquire(api("aclrtMallocPhysical"), 0x6000, 2 << 20, Space::GM,
                 nullptr);
  errors = ledger.errorCount();
  release("aclrtFreePhysical", 0x6000, true);
  ledger.retain(api("aclrtMemRetainAllocationHandle"), 0x6000, &retainSite);
  Record again;
  ASSERT_TRUE(
      live(Level::Cann, api("aclrtMemRetainAllocationHandle"), 0x6000, &again));
  EXPECT_EQ(again.size, uint64_t{2} << 20);
  EXPECT_EQ(ledger.siteTable().site(again.site), &retainSite);
  release("aclrtFreePhysical", 0x6000, true);
  EXPECT_FALSE(
      live(Level::Cann, api("aclrtMemRetainAllocationHandle"), 0x6000));
  EXPECT_EQ(ledger.errorCount(), errors);

  // A key handed out again has none of its former references.
  ledger.acquire(api("aclrtMallocPhysical"), 0x7000, 2 << 20, Space::GM,
                 nullptr);
  ledger.retain(api("aclrtMemRetainAllocationHandle"), 0x7000);
  ledger.acquire(api("aclrtMallocPhysical"), 0x7000, 2 << 20, Space::GM,
                 nullptr);
  release("aclrtFreePhysical", 0x7000, true);
  EXPECT_FALSE(live(Level::Cann, api("aclrtMallocPhysical"), 0x7000));

  errors = ledger.errorCount();
  ledger.acquire(api("aclrtMemImportFromShareableHandle"), 0x8000, 0,
                 Space::None, nullptr);
  release("aclrtFreePhysical", 0x8000, true);
  EXPECT_FALSE(
      live(Level::Cann, api("aclrtMemImportFromShareableHandle"), 0x8000));
  EXPECT_EQ(ledger.errorCount(), errors) << "released as physical memory";
}
