//===- AccessTest.cpp - copies and sets checked against a record table ----===//
#include "access.h"
#include "KnownApi.h"
#include "catalog_table.h"
#include "ledger.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

/// Records an allocation of `size` bytes at `address` through `allocator`.
Record allocate(RecordTable &table, uint64_t address, uint64_t size,
                uint64_t serial, const char *allocator = "aclrtMalloc",
                Space space = Space::GM) {
  Record record;
  record.key = address;
  record.size = size;
  record.serial = serial;
  record.api = api(allocator);
  record.space = static_cast<uint8_t>(space);
  Record previous;
  table.acquire(record, false, &previous);
  return record;
}

void release(RecordTable &table, uint64_t address, uint64_t serial) {
  FreedRecord event;
  event.serial = serial;
  event.api = api("aclrtFree");
  event.site = 5;
  Record found;
  table.take(address, false, event, &found);
}

struct Checker {
  RecordTable table;
  RangeIndex index;
  AccessFinding finding;
  bool nested = false;
  bool check(uint64_t address, uint64_t size, bool write = true,
             int direction = -1) {
    finding = AccessFinding();
    return checkSide(table, index, address, size, write, direction, nested,
                     &finding);
  }
};

constexpr uint64_t kBase = 0x124080024000;

} // namespace

TEST(Access, InBoundsAtTheStartOrInsideIsClean) {
  Checker c;
  allocate(c.table, kBase, 256, 1);
  EXPECT_FALSE(c.check(kBase, 256));
  EXPECT_FALSE(c.check(kBase + 128, 128)) << "inside, through the index";
  EXPECT_FALSE(c.check(kBase + 255, 1));
  EXPECT_FALSE(c.check(kBase, 0)) << "nothing touched";
}

TEST(Access, PastTheEndIsOutOfBoundsFromWhereItStarts) {
  Checker c;
  Record block = allocate(c.table, kBase, 256, 1);
  ASSERT_TRUE(c.check(kBase, 320));
  EXPECT_EQ(c.finding.problem, AccessProblem::OutOfBounds);
  EXPECT_EQ(c.finding.address, kBase + 256) << "the first byte at fault";
  EXPECT_EQ(c.finding.badBytes, 64u);
  EXPECT_EQ(c.finding.acquired.serial, block.serial);
  ASSERT_TRUE(c.check(kBase + 200, 100, false));
  EXPECT_EQ(c.finding.problem, AccessProblem::OutOfBounds);
  EXPECT_FALSE(c.finding.write);
  EXPECT_EQ(c.finding.badBytes, 44u);
  EXPECT_EQ(c.finding.start, kBase + 200);
  EXPECT_EQ(c.finding.size, 100u);
}

TEST(Access, FreedMemoryIsAUseAfterFreeUntilHandedOutAgain) {
  Checker c;
  allocate(c.table, kBase, 4096, 1);
  release(c.table, kBase, 2);
  ASSERT_TRUE(c.check(kBase + 1000, 16, false));
  EXPECT_EQ(c.finding.problem, AccessProblem::UseAfterFree);
  EXPECT_TRUE(c.finding.freed);
  EXPECT_EQ(c.finding.release.serial, 2u);
  EXPECT_EQ(c.finding.release.site, 5u);
  EXPECT_EQ(c.finding.acquired.size, 4096u);
  // The same address handed out again, smaller: in it, the new allocation;
  // past it but inside the old one, still the old one's free.
  allocate(c.table, kBase, 512, 3);
  EXPECT_FALSE(c.check(kBase + 100, 16));
  ASSERT_TRUE(c.check(kBase + 1000, 16));
  EXPECT_EQ(c.finding.problem, AccessProblem::UseAfterFree);
}

TEST(Access, ARegionFreedInsideALiveHeapIsAUseAfterFree) {
  Checker c;
  c.nested = true;                   // a heap is registered
  allocate(c.table, kBase, 8192, 1); // the pool's block
  // Regions are keyed in their own namespace.
  uint64_t regionKey = keyOf(api("msledger_region_register"), kBase);
  allocate(c.table, regionKey, 512, 2, "msledger_region_register");
  allocate(c.table, regionKey + 1024, 512, 3, "msledger_region_register");
  EXPECT_FALSE(c.check(kBase + 1024, 512));
  ASSERT_TRUE(c.check(kBase, 1024));
  EXPECT_EQ(c.finding.problem, AccessProblem::OutOfBounds)
      << "the innermost record: the region at the block's start";
  EXPECT_EQ(c.finding.acquired.serial, 2u);
  ASSERT_TRUE(c.check(kBase + 1024 + 256, 512));
  EXPECT_EQ(c.finding.acquired.serial, 3u);
  FreedRecord event;
  event.serial = 4;
  event.api = api("msledger_region_unregister");
  Record found;
  c.table.take(regionKey + 1024, false, event, &found);
  ASSERT_TRUE(c.check(kBase + 1100, 8));
  EXPECT_EQ(c.finding.problem, AccessProblem::UseAfterFree);
  EXPECT_FALSE(c.check(kBase + 4096, 8)) << "elsewhere in the block";
}

TEST(Access, HostMemoryWhereTheKindSaysDeviceGoesTheWrongWay) {
  Checker c;
  allocate(c.table, kBase, 256, 1);
  allocate(c.table, 0x7f0000001000, 256, 2, "aclrtMallocHost", Space::Host);
  const int hostToDevice = 1, deviceToHost = 2, deflt = 4;
  EXPECT_FALSE(c.check(kBase, 256, true, hostToDevice));
  EXPECT_FALSE(c.check(0x7f0000001000, 256, false, hostToDevice));
  ASSERT_TRUE(c.check(0x7f0000001000, 256, true, hostToDevice));
  EXPECT_EQ(c.finding.problem, AccessProblem::WrongDirection);
  EXPECT_EQ(c.finding.badBytes, 256u);
  ASSERT_TRUE(c.check(kBase, 256, true, deviceToHost));
  EXPECT_EQ(c.finding.problem, AccessProblem::WrongDirection);
  EXPECT_FALSE(c.check(kBase, 256, true, deflt));
  EXPECT_FALSE(c.check(kBase, 256, true, -1));
}

TEST(Access, MemoryNoRecordCoversIsNotJudged) {
  Checker c;
  allocate(c.table, kBase, 256, 1);
  char stack[64];
  EXPECT_FALSE(c.check(reinterpret_cast<uintptr_t>(stack), sizeof stack));
  EXPECT_FALSE(c.check(kBase - 16, 8)) << "before the allocation";
  EXPECT_FALSE(c.check(kBase + 4096, 8));
}

TEST(Access, TheIndexFollowsTheTable) {
  Checker c;
  EXPECT_FALSE(c.check(kBase + 8, 8)) << "builds an empty index";
  allocate(c.table, kBase, 16, 1);
  ASSERT_TRUE(c.check(kBase + 8, 16)) << "rebuilt: the table changed";
  EXPECT_EQ(c.finding.badBytes, 8u);
  release(c.table, kBase, 2);
  ASSERT_TRUE(c.check(kBase + 8, 4));
  EXPECT_EQ(c.finding.problem, AccessProblem::UseAfterFree);
}

TEST(Access, DirectionsOfEveryMemcpyKind) {
  // (write side, read side) is device: H2H, H2D, D2H, D2D, DEFAULT, H2B2D,
  // inner D2D, inter D2D.
  const int expected[8][2] = {{0, 0},   {1, 0}, {0, 1}, {1, 1},
                              {-1, -1}, {1, 0}, {1, 1}, {1, 1}};
  for (int kind = 0; kind < 8; ++kind) {
    EXPECT_EQ(sideIsDevice(kind, true), expected[kind][0]) << kind;
    EXPECT_EQ(sideIsDevice(kind, false), expected[kind][1]) << kind;
  }
  EXPECT_EQ(sideIsDevice(-1, true), -1);
  EXPECT_STREQ(directionName(1), "ACL_MEMCPY_HOST_TO_DEVICE");
  EXPECT_STREQ(directionName(9), "");
}

TEST(Access, TheLedgerReportsEachFindingOnce) {
  Ledger ledger{Options()};
  uint64_t address = 0x2000009000;
  ledger.acquire(api("aclrtMalloc"), address, 100, Space::GM, nullptr);
  static const msledger_site site = {"copy.cpp",    12,    3, 77,
                                     "aclrtMemcpy", "main"};
  uint64_t before = ledger.errorCount();
  for (int i = 0; i < 3; ++i)
    ledger.access(api("aclrtMemcpy"), &site, {address, 120, 0, 0, 1});
  EXPECT_EQ(ledger.errorCount(), before + 1) << "a bad copy in a loop, once";
  ErrorEvent error = ledger.errors().back();
  EXPECT_EQ(error.kind, ErrorKind::OutOfBounds);
  EXPECT_TRUE(error.write);
  EXPECT_EQ(error.handle, address + 100);
  EXPECT_EQ(error.badBytes, 20u);
  EXPECT_EQ(error.direction, 1);
  EXPECT_EQ(ledger.sites().site(error.site), &site);
  // The driver's copy checks the device level's records, which have none
  // here.
  ledger.access(api("drvMemcpy"), &site, {address, 120, 0, 0, -1});
  EXPECT_EQ(ledger.errorCount(), before + 1);
  PendingRelease pending;
  ledger.beginRelease(api("aclrtFree"), address, nullptr, &pending);
  ledger.endRelease(pending, true);
}
