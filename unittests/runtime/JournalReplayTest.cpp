//===- JournalReplayTest.cpp - what a journal says was live ---------------===//
#include "journal_report.h"

#include "catalog_table.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

JournalContents::Event event(uint8_t type, const char *api, uint64_t handle,
                             uint64_t serial, uint64_t size = 0) {
  JournalContents::Event e{};
  e.type = type;
  e.level = 1; // the CANN heap
  e.api = static_cast<unsigned>(apiIndex(api));
  e.key = keyOf(e.api, handle);
  e.serial = serial;
  e.size = size;
  return e;
}

} // namespace

TEST(JournalReplay, ARefcountedHandleEndsWithItsLastRelease) {
  // aclrtSetDevice twice on device 0 is one handle with two references.
  JournalReplay replay(true);
  JournalReplay::Step first =
      replay.apply(event(kJournalAcquire, "aclrtSetDevice", 0, 1, 0));
  ASSERT_NE(first.started, nullptr);
  JournalReplay::Step second =
      replay.apply(event(kJournalAcquire, "aclrtSetDevice", 0, 2, 0));
  EXPECT_EQ(second.started, nullptr);
  EXPECT_FALSE(second.ended);
  ASSERT_EQ(replay.live(1).size(), 1u);
  EXPECT_EQ(replay.live(1)[0].size, 2u) << "references, where a size would be";
  JournalReplay::Step drop =
      replay.apply(event(kJournalRelease, "aclrtResetDevice", 0, 3));
  EXPECT_FALSE(drop.ended);
  EXPECT_EQ(replay.live(1)[0].size, 1u);
  JournalReplay::Step last =
      replay.apply(event(kJournalRelease, "aclrtResetDevice", 0, 4));
  ASSERT_TRUE(last.ended);
  EXPECT_EQ(last.ended->acquired.serial, 1u);
  EXPECT_TRUE(replay.live(1).empty());
}

TEST(JournalReplay, MemoryReacquiredOrReleasedImplicitlyEndsTheOldRecord) {
  JournalReplay replay(/*keepImplicit=*/true);
  replay.apply(event(kJournalAcquire, "aclrtMalloc", 0x1000, 1, 64));
  // The same address again, its release not journaled: the old one ended.
  JournalReplay::Step again =
      replay.apply(event(kJournalAcquire, "aclrtMalloc", 0x1000, 2, 32));
  ASSERT_TRUE(again.ended);
  EXPECT_EQ(again.ended->acquired.size, 64u);
  ASSERT_NE(again.started, nullptr);
  EXPECT_EQ(again.started->acquired.size, 32u);
  // An implicit release names the record it ends, by the releasing call.
  JournalContents::Event reset =
      event(kJournalReleaseAll, "aclrtResetDevice", 0, 3);
  reset.key = keyOf(static_cast<unsigned>(apiIndex("aclrtMalloc")), 0x1000);
  JournalReplay::Step all = replay.apply(reset);
  ASSERT_TRUE(all.ended);
  ASSERT_EQ(replay.implicit(1).size(), 1u);
  EXPECT_EQ(replay.implicit(1)[0].acquired.serial, 2u);
  EXPECT_EQ(replay.implicit(1)[0].release.serial, 3u);
  EXPECT_TRUE(replay.live(1).empty());
}
