//===- SnapshotRetentionTest.cpp - which snapshots a long run keeps -------===//
#include "snapshot_retention.h"

#include <gtest/gtest.h>

using namespace msledger;

TEST(SnapshotRetention, KeepsAllUntilFullThenTheFirstAndTheLatest) {
  SnapshotRetention retention(4);
  for (uint64_t s = 1; s <= 4; ++s)
    EXPECT_TRUE(retention.written(s).empty());
  EXPECT_EQ(retention.kept(), (std::vector<uint64_t>{1, 2, 3, 4}));
  std::vector<uint64_t> removed = retention.written(5);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(retention.kept().size(), 4u);
  EXPECT_EQ(retention.kept().front(), 1u);
  EXPECT_EQ(retention.kept().back(), 5u);
  // Below 2 is 2: the first and the latest.
  SnapshotRetention two(0);
  for (uint64_t s = 1; s <= 10; ++s)
    two.written(s);
  EXPECT_EQ(two.kept(), (std::vector<uint64_t>{1, 10}));
}

// A day at two snapshots a second, 240 kept: the start, the latest, and
// spans that grow in proportion to age -- the oldest far wider than the
// newest.
TEST(SnapshotRetention, ThinsGeometricallyAsTheyAge) {
  SnapshotRetention retention(240);
  const uint64_t run = 24 * 3600 * 2;
  uint64_t removedCount = 0;
  for (uint64_t s = 1; s <= run; ++s)
    removedCount += retention.written(s).size();
  const std::vector<uint64_t> &kept = retention.kept();
  ASSERT_EQ(kept.size(), 240u);
  EXPECT_EQ(removedCount, run - 240);
  EXPECT_EQ(kept.front(), 1u);
  EXPECT_EQ(kept.back(), run);
  for (size_t i = 1; i < kept.size(); ++i)
    ASSERT_LT(kept[i - 1], kept[i]);
  uint64_t newest = kept[kept.size() - 1] - kept[kept.size() - 2];
  uint64_t oldest = kept[2] - kept[1];
  EXPECT_LT(newest, 8u) << "the latest moments stay dense";
  EXPECT_GT(oldest, 1000 * newest) << "the past is thinner";
  // Spans grow with age: the span of each thinned snapshot over its age
  // stays within a small factor across the whole run (the latest ones,
  // consecutive, span 2 whatever their age).
  double least = 1e30, most = 0;
  for (size_t i = 1; i + 1 < kept.size(); ++i) {
    if (kept[i + 1] - kept[i - 1] <= 2)
      continue;
    double worth =
        double(kept[i + 1] - kept[i - 1]) / double(run - kept[i] + 1);
    least = std::min(least, worth);
    most = std::max(most, worth);
  }
  EXPECT_LT(most / least, 4.0) << least << " to " << most;
}
