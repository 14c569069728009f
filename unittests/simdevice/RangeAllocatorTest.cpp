//===- RangeAllocatorTest.cpp - best-fit allocator of the device heap -----===//
#include "range_allocator.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using mssim::RangeAllocator;

TEST(RangeAllocator, RoundsToAlignmentAndPacksFromTheBottom) {
  RangeAllocator heap(1 << 20, 512);
  EXPECT_EQ(heap.allocate(1), 0u);
  EXPECT_EQ(heap.allocate(512), 512u);
  EXPECT_EQ(heap.allocate(513), 1024u);
  EXPECT_EQ(heap.usedBytes(), 512u + 512u + 1024u);
  EXPECT_EQ(heap.liveRanges(), 3u);
}

TEST(RangeAllocator, ZeroAndOversizedRequestsFail) {
  RangeAllocator heap(4096, 512);
  EXPECT_FALSE(heap.allocate(0));
  EXPECT_FALSE(heap.allocate(4097));
  EXPECT_EQ(heap.allocate(4096), 0u);
  EXPECT_FALSE(heap.allocate(1)) << "the heap is full";
}

TEST(RangeAllocator, ReleaseCoalescesNeighbours) {
  RangeAllocator heap(3 * 512, 512);
  auto a = heap.allocate(512), b = heap.allocate(512), c = heap.allocate(512);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(heap.release(*a), 512u);
  EXPECT_EQ(heap.release(*c), 512u);
  EXPECT_FALSE(heap.allocate(1024)) << "free space is split in two";
  EXPECT_EQ(heap.release(*b), 512u);
  EXPECT_EQ(heap.allocate(3 * 512), 0u) << "all three merged into one range";
}

TEST(RangeAllocator, ReleaseOfUnknownOrInteriorOffsetFails) {
  RangeAllocator heap(1 << 16, 512);
  auto a = heap.allocate(2048);
  ASSERT_TRUE(a);
  EXPECT_FALSE(heap.release(*a + 512));
  EXPECT_FALSE(heap.release(1 << 15));
  EXPECT_TRUE(heap.release(*a));
  EXPECT_FALSE(heap.release(*a)) << "double release";
}

TEST(RangeAllocator, BestFitPrefersTheSmallestHole) {
  RangeAllocator heap(1 << 20, 512);
  auto big = heap.allocate(8192), sep1 = heap.allocate(512),
       small = heap.allocate(1024), sep2 = heap.allocate(512);
  ASSERT_TRUE(big && sep1 && small && sep2);
  heap.release(*big);
  heap.release(*small);
  EXPECT_EQ(heap.allocate(1000), *small);
  EXPECT_EQ(heap.allocate(4096), *big);
}

TEST(RangeAllocator, FindReturnsTheContainingRange) {
  RangeAllocator heap(1 << 20, 512);
  auto a = heap.allocate(1000);
  ASSERT_TRUE(a);
  auto found = heap.find(*a + 999);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->first, *a);
  EXPECT_EQ(found->second, 1024u);
  EXPECT_TRUE(heap.find(*a + 1023));
  EXPECT_FALSE(heap.find(*a + 1024));
}

TEST(RangeAllocator, AllocateAtHonoursFreeRangesOnly) {
  RangeAllocator heap(1 << 20, 4096);
  EXPECT_TRUE(heap.allocateAt(8192, 4096));
  EXPECT_FALSE(heap.allocateAt(8192, 4096)) << "already taken";
  EXPECT_FALSE(heap.allocateAt(4096, 8192)) << "overlaps the taken range";
  EXPECT_FALSE(heap.allocateAt(100, 4096)) << "unaligned";
  EXPECT_EQ(heap.allocate(4096), 0u);
  EXPECT_EQ(heap.allocate(4096), 4096u);
  EXPECT_EQ(heap.allocate(4096), 12288u);
}

TEST(RangeAllocator, RandomWorkloadKeepsAccountingExact) {
  RangeAllocator heap(64 << 20, 512);
  std::mt19937 random(42);
  std::vector<std::pair<uint64_t, uint64_t>> live;
  uint64_t expectedUsed = 0;
  for (int i = 0; i < 20000; ++i) {
    if (live.empty() || random() % 3) {
      uint64_t size = 1 + random() % 65536;
      if (auto offset = heap.allocate(size)) {
        for (auto &range : live) { // no overlap with anything live
          ASSERT_TRUE(*offset + heap.roundUp(size) <= range.first ||
                      range.first + range.second <= *offset);
        }
        live.emplace_back(*offset, heap.roundUp(size));
        expectedUsed += heap.roundUp(size);
      }
    } else {
      size_t index = random() % live.size();
      ASSERT_EQ(heap.release(live[index].first), live[index].second);
      expectedUsed -= live[index].second;
      live.erase(live.begin() + index);
    }
    if (i % 1000 == 0) {
      ASSERT_EQ(heap.usedBytes(), expectedUsed);
    }
  }
  for (auto &range : live)
    heap.release(range.first);
  EXPECT_EQ(heap.usedBytes(), 0u);
  EXPECT_EQ(heap.allocate(64 << 20), 0u) << "everything coalesced back";
}
