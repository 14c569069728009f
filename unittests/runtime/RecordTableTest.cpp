//===- RecordTableTest.cpp - the ledger's live-record table ---------------===//
#include "record_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <unordered_map>

using namespace msledger;

namespace {

Record record(uint64_t key, uint64_t size = 64, uint64_t serial = 1) {
  Record r;
  r.key = key;
  r.size = size;
  r.serial = serial;
  r.site = 7;
  r.api = 3;
  r.thread = 2;
  r.space = 1;
  return r;
}

FreedRecord releaseEvent(uint64_t serial) {
  FreedRecord event;
  event.serial = serial;
  event.api = 4;
  event.site = 9;
  event.thread = 5;
  return event;
}

/// Every field of `out` is `in`'s.
void expectSameRecord(const Record &out, const Record &in) {
  EXPECT_EQ(out.key, in.key);
  EXPECT_EQ(out.size, in.size);
  EXPECT_EQ(out.serial, in.serial);
  EXPECT_EQ(out.site, in.site);
  EXPECT_EQ(out.api, in.api);
  EXPECT_EQ(out.thread, in.thread);
  EXPECT_EQ(out.space, in.space);
  EXPECT_EQ(out.device, in.device);
}

} // namespace

TEST(RecordTable, PacksEveryFieldExactly) {
  RecordTable table;
  // The largest serial bits a record keeps (all ones is the mark of one
  // whose serial is kept aside).
  Record in = record(0x124080024000, (1ULL << 41) - 1, (1ULL << 40) - 2);
  in.site = kMaxSite;
  in.device = kNoDevice - 1;
  in.api = 1023;
  in.thread = 1023;
  in.space = 4;
  Record previous;
  EXPECT_EQ(table.acquire(in, false, &previous),
            RecordTable::AcquireResult::Inserted);
  Record out;
  ASSERT_TRUE(table.find(in.key, &out));
  expectSameRecord(out, in);
  in.device = 0;
  table.acquire(in, false, &previous);
  ASSERT_TRUE(table.find(in.key, &out));
  EXPECT_EQ(out.device, 0u);
  EXPECT_EQ(out.site, kMaxSite) << "the device does not spill into the site";
  EXPECT_EQ(record(0x20).device, kNoDevice) << "unknown unless set";
}

TEST(RecordTable, SizesAndThreadsSaturate) {
  RecordTable table;
  Record in = record(0x10, 1ULL << 50);
  in.thread = 5000;
  Record previous, out;
  table.acquire(in, false, &previous);
  ASSERT_TRUE(table.find(0x10, &out));
  EXPECT_EQ(out.size, kMaxRecordSize);
  EXPECT_EQ(out.thread, kMaxThread);
  in = record(0x30);
  in.site = kMaxSite + 5;
  in.device = 200;
  table.acquire(in, false, &previous);
  ASSERT_TRUE(table.find(0x30, &out));
  EXPECT_EQ(out.site, kMaxSite);
  EXPECT_EQ(out.device, kNoDevice);
  EXPECT_EQ(out.serial, in.serial) << "nothing spills into the serial";
}

TEST(RecordTable, TakeRemovesAndRestorePutsBack) {
  RecordTable table;
  Record previous, found;
  table.acquire(record(0x1000), false, &previous);
  EXPECT_EQ(table.take(0x1000, false, releaseEvent(100), &found),
            RecordTable::TakeResult::Taken);
  EXPECT_EQ(found.size, 64u);
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.take(0x1000, false, releaseEvent(100), &found),
            RecordTable::TakeResult::NotFound);
  FreedRecord freed;
  EXPECT_TRUE(table.findFreed(0x1000, &freed));
  table.restore(found, RecordTable::TakeResult::Taken, releaseEvent(100));
  EXPECT_TRUE(table.find(0x1000, &found));
  EXPECT_EQ(table.size(), 1u);
  EXPECT_FALSE(table.findFreed(0x1000, &freed))
      << "a failed release is forgotten";
}

TEST(RecordTable, RefcountedRecordsCountReferences) {
  RecordTable table;
  Record previous, found;
  EXPECT_EQ(table.acquire(record(0x5, 0, 1), true, &previous),
            RecordTable::AcquireResult::Inserted);
  EXPECT_EQ(table.acquire(record(0x5, 0, 2), true, &previous),
            RecordTable::AcquireResult::Referenced);
  ASSERT_TRUE(table.find(0x5, &found));
  EXPECT_EQ(found.size, 2u) << "two references";
  EXPECT_EQ(found.serial, 1u) << "the first acquisition is the one reported";
  EXPECT_EQ(table.take(0x5, true, releaseEvent(100), &found),
            RecordTable::TakeResult::Dereferenced);
  table.restore(found, RecordTable::TakeResult::Dereferenced,
                releaseEvent(100));
  ASSERT_TRUE(table.find(0x5, &found));
  EXPECT_EQ(found.size, 2u) << "a failed release gives the reference back";
  EXPECT_EQ(table.take(0x5, true, releaseEvent(100), &found),
            RecordTable::TakeResult::Dereferenced);
  EXPECT_EQ(table.take(0x5, true, releaseEvent(100), &found),
            RecordTable::TakeResult::Taken);
  EXPECT_EQ(table.size(), 0u);
}

TEST(RecordTable, ReacquiringALiveKeyReplacesIt) {
  RecordTable table;
  Record previous;
  table.acquire(record(0x9, 10, 1), false, &previous);
  EXPECT_EQ(table.acquire(record(0x9, 20, 2), false, &previous),
            RecordTable::AcquireResult::Replaced);
  EXPECT_EQ(previous.size, 10u);
  Record found;
  table.find(0x9, &found);
  EXPECT_EQ(found.size, 20u);
  EXPECT_EQ(table.size(), 1u);
}

TEST(RecordTable, RemembersRecentReleases) {
  RecordTable table;
  Record previous, found;
  table.acquire(record(0x77, 64, 10), false, &previous);
  table.take(0x77, false, releaseEvent(11), &found);
  FreedRecord freed;
  ASSERT_TRUE(table.findFreed(0x77, &freed));
  EXPECT_EQ(freed.serial, 11u);
  EXPECT_EQ(freed.api, 4u);
  EXPECT_EQ(freed.site, 9u);
  EXPECT_EQ(freed.thread, 5u);
  EXPECT_EQ(freed.acquired.serial, 10u);
  EXPECT_EQ(freed.acquired.size, 64u);
  EXPECT_FALSE(table.findFreed(0x78, &freed));
}

TEST(RecordTable, TakeIfTakesEveryMatchAndRemembersTheRelease) {
  // Enough records that shards hold several and erasing shifts slots.
  RecordTable table;
  Record previous;
  for (uint64_t i = 1; i <= 5000; ++i)
    table.acquire(record(i * 0x40, /*size=*/i % 3, /*serial=*/i), false,
                  &previous);
  std::vector<Record> taken = table.takeIf(
      [](const Record &r) { return r.size == 1; }, releaseEvent(9000));
  EXPECT_EQ(taken.size(), 1667u); // i % 3 == 1 for i in 1..5000
  for (const Record &r : taken)
    EXPECT_EQ(r.size, 1u);
  EXPECT_EQ(table.size(), 5000u - 1667u);
  Record found;
  for (uint64_t i = 1; i <= 5000; ++i)
    EXPECT_EQ(table.find(i * 0x40, &found), i % 3 != 1) << i;
  // Each shard remembers its last releases: some taken keys are there, with
  // the implicit release as what ended them.
  unsigned remembered = 0;
  for (const Record &r : taken) {
    FreedRecord freed;
    if (table.findFreed(r.key, &freed)) {
      ++remembered;
      EXPECT_EQ(freed.serial, 9000u);
      EXPECT_EQ(freed.acquired.serial, r.serial);
    }
  }
  EXPECT_GT(remembered, 0u);
  EXPECT_TRUE(
      table.takeIf([](const Record &) { return false; }, releaseEvent(9001))
          .empty());
}

TEST(RecordTable, ReacquiringLiveKeysInACrowdedShardReplacesEach) {
  // One 64 KiB granule: every key in one shard, so that probes are long and
  // acquire()'s single probe must tell a live key from where a new one goes.
  RecordTable table;
  constexpr uint64_t kBase = 0x7f0000000000ULL;
  constexpr uint64_t kKeys = 1000;
  Record previous;
  for (uint64_t i = 0; i < kKeys; ++i)
    table.acquire(record(kBase + i * 64, i), false, &previous);
  for (uint64_t i = 0; i < kKeys; i += 2) { // replace the even ones ...
    ASSERT_EQ(
        table.acquire(record(kBase + i * 64, 100000 + i, 2), false, &previous),
        RecordTable::AcquireResult::Replaced);
    ASSERT_EQ(previous.size, i);
  }
  for (uint64_t i = 1; i < kKeys; i += 2) { // ... take the odd ones out ...
    Record found;
    ASSERT_EQ(table.take(kBase + i * 64, false, releaseEvent(3), &found),
              RecordTable::TakeResult::Taken);
  }
  for (uint64_t i = 0; i < kKeys; i += 2) // ... and count the even ones again
    ASSERT_EQ(table.acquire(record(kBase + i * 64, 0, 4), true, &previous),
              RecordTable::AcquireResult::Referenced);
  EXPECT_EQ(table.size(), kKeys / 2);
  for (uint64_t i = 0; i < kKeys; ++i) {
    Record found;
    ASSERT_EQ(table.find(kBase + i * 64, &found), i % 2 == 0) << i;
    if (i % 2 == 0) {
      ASSERT_EQ(found.size, 100000 + i + 1) << "replaced, then referenced";
    }
  }
}

TEST(RecordTable, TakeHandsBackTheRecordPacked) {
  RecordTable table;
  Record in = record(0x4000, 96, 11);
  in.api = 517;
  in.device = 5;
  Record previous;
  table.acquire(in, false, &previous);
  PackedRecord packed{};
  ASSERT_EQ(table.take(0x4000, false, releaseEvent(12), &packed),
            RecordTable::TakeResult::Taken);
  EXPECT_EQ(RecordTable::apiOf(packed), 517u);
  expectSameRecord(RecordTable::unpack(packed), in);
  EXPECT_EQ(table.take(0x4000, false, releaseEvent(13), &packed),
            RecordTable::TakeResult::NotFound);
}

TEST(RecordTable, MatchesAReferenceMapUnderRandomWork) {
  RecordTable table;
  std::unordered_map<uint64_t, uint64_t> reference;
  std::mt19937_64 random(7);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 200000; ++i) {
    if (keys.empty() || random() % 3) {
      uint64_t key = (random() | 1) & 0x00007FFFFFFFFFF0ULL;
      if (!key || reference.count(key))
        continue;
      Record previous;
      table.acquire(record(key, key & 0xFFFF, i), false, &previous);
      reference[key] = key & 0xFFFF;
      keys.push_back(key);
    } else {
      size_t index = random() % keys.size();
      Record found;
      ASSERT_EQ(table.take(keys[index], false, releaseEvent(100), &found),
                RecordTable::TakeResult::Taken);
      ASSERT_EQ(found.size, reference[keys[index]]);
      reference.erase(keys[index]);
      keys[index] = keys.back();
      keys.pop_back();
    }
  }
  EXPECT_EQ(table.size(), reference.size());
  std::vector<Record> all = table.snapshot();
  ASSERT_EQ(all.size(), reference.size());
  for (const Record &r : all)
    ASSERT_EQ(reference.at(r.key), r.size);
}

TEST(RecordTable, MemoryPerLiveRecordStaysSmall) {
  RecordTable table;
  Record previous;
  const uint64_t live = 1000000;
  for (uint64_t i = 1; i <= live; ++i)
    table.acquire(record(0x124080000000ULL + i * 512), false, &previous);
  double perRecord =
      static_cast<double>(table.memoryBytes()) / static_cast<double>(live);
  EXPECT_LE(perRecord, 36.0) << "24-byte slots at 72-90% load";
  EXPECT_GE(perRecord, 24.0);
}

TEST(RecordTable, ConcurrentThreadsNeverLoseOrShareRecords) {
  RecordTable table;
  const int threads = 4, perThread = 50000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&table, t] {
      for (int i = 0; i < perThread; ++i) {
        uint64_t key =
            (static_cast<uint64_t>(t + 1) << 40) | static_cast<uint64_t>(i + 1);
        Record previous, found;
        table.acquire(record(key, 1, i), false, &previous);
        if (i % 2 == 0) {
          ASSERT_EQ(table.take(key, false, releaseEvent(100), &found),
                    RecordTable::TakeResult::Taken);
        }
      }
    });
  for (auto &worker : workers)
    worker.join();
  EXPECT_EQ(table.size(), static_cast<size_t>(threads * perThread / 2));
  std::set<uint64_t> keys;
  for (const Record &r : table.snapshot())
    keys.insert(r.key);
  EXPECT_EQ(keys.size(), table.size());
}

TEST(RecordTable, ChangedAfterEveryChangeAndFreedSnapshotListsReleases) {
  RecordTable table;
  EXPECT_TRUE(table.takeChanged()) << "no view was built yet";
  EXPECT_FALSE(table.takeChanged());
  Record previous, found;
  table.acquire(record(0x1000), false, &previous);
  EXPECT_TRUE(table.takeChanged());
  EXPECT_FALSE(table.takeChanged()) << "taken: clear until the next change";
  table.find(0x1000, &found);
  EXPECT_FALSE(table.takeChanged()) << "a lookup changes nothing";
  EXPECT_TRUE(table.freedSnapshot().empty());
  table.take(0x1000, false, releaseEvent(2), &found);
  EXPECT_TRUE(table.takeChanged());
  std::vector<FreedRecord> released = table.freedSnapshot();
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(released[0].acquired.key, 0x1000u);
  EXPECT_EQ(released[0].serial, 2u);
  EXPECT_EQ(released[0].site, 9u);
  // A release undone (the real call failed) is forgotten.
  table.acquire(record(0x2000), false, &previous);
  RecordTable::TakeResult taken =
      table.take(0x2000, false, releaseEvent(4), &found);
  EXPECT_TRUE(table.takeChanged());
  table.restore(found, taken, releaseEvent(4));
  EXPECT_TRUE(table.takeChanged()) << "a restore is a change";
  EXPECT_EQ(table.freedSnapshot().size(), 1u);
}

TEST(RecordTable, AViewBuiltAfterTakeChangedMissesNoChange) {
  // What access.h's RangeIndex relies on: a view built from snapshot() after
  // takeChanged() said true is current whenever takeChanged() says false,
  // changes made while the view was being built included. The writer stops
  // after each batch of changes (an odd number of them) for the reader to
  // check that.
  RecordTable table;
  constexpr unsigned kBatches = 40, kBatch = 499;
  std::atomic<unsigned> batchesDone{0}, batchesChecked{0};
  std::thread writer([&] {
    Record previous, found;
    uint64_t i = 0;
    for (unsigned batch = 0; batch < kBatches; ++batch) {
      for (unsigned n = 0; n < kBatch; ++n, ++i) {
        uint64_t key = 0x10000 + (i % 97) * 0x40;
        if (i % 3 == 2)
          table.take(key, false, releaseEvent(i), &found);
        else
          table.acquire(record(key), false, &previous);
      }
      batchesDone = batch + 1;
      while (batchesChecked.load() != batch + 1)
        ;
    }
  });
  auto keysOf = [](const std::vector<Record> &records) {
    std::set<uint64_t> keys;
    for (const Record &r : records)
      keys.insert(r.key);
    return keys;
  };
  std::set<uint64_t> view;
  for (unsigned checked = 0; checked < kBatches;) {
    bool stopped = batchesDone.load() == checked + 1;
    if (table.takeChanged())
      view = keysOf(table.snapshot());
    if (!stopped)
      continue;
    EXPECT_EQ(view, keysOf(table.snapshot())) << "after batch " << checked;
    batchesChecked = ++checked;
  }
  writer.join();
}

TEST(RecordTable, SerialsFollowTheShardsLatestEvent) {
  RecordTable table;
  // A source that hands out what it is asked for, at least 100.
  static uint64_t asked = 0;
  RecordTable::SerialSource source{[](void *, uint64_t atLeast) {
                                     asked = atLeast;
                                     return std::max<uint64_t>(atLeast, 100);
                                   },
                                   nullptr};
  Record previous, found;
  uint64_t serial = 0;
  table.acquire(record(0x7000), false, &previous, source, &serial);
  EXPECT_EQ(serial, 100u);
  ASSERT_TRUE(table.find(0x7000, &found));
  EXPECT_EQ(found.serial, 100u);
  table.take(0x7000, false, releaseEvent(0), &found, source, &serial);
  EXPECT_EQ(asked, 101u) << "the floor: after the shard's latest event";
  EXPECT_EQ(serial, 101u);
  // An implicit release takes only what was acquired before it, and what
  // comes after it follows it.
  table.acquire(record(0x8000, 64, 5), false, &previous);
  table.acquire(record(0x9000, 64, 50), false, &previous);
  std::vector<Record> taken =
      table.takeIf([](const Record &) { return true; }, releaseEvent(20));
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].key, 0x8000u);
  EXPECT_TRUE(table.find(0x9000, &found));
  table.acquire(record(0x8000, 64, 1), false, &previous, source, &serial);
  EXPECT_GE(asked, 21u);
}

// Serials never wrap: a record keeps 40 bits of its serial, widened back
// below its shard's floor, and age() keeps aside the whole serial of a
// record old enough for that to be wrong. Here records made near serial 0
// outlive 2^41 serials of events in their shards: their serials read back
// whole, an implicit release made after 2^40 takes what was acquired
// before it and not what was acquired after it, and a release remembered
// that long ago is forgotten rather than misdated.
TEST(RecordTable, SerialsReadBackWholePastTwoToTheForty) {
  RecordTable table;
  const uint64_t kEarly = 5, kLate = (1ULL << 41) + 12345;
  // Two records in one granule (one shard), one early and one late, and
  // one early in a shard that sees no later event.
  table.acquire(record(0x10000100, 64, kEarly), false, nullptr);
  table.acquire(record(0x90000000, 64, kEarly + 1), false, nullptr);
  table.acquire(record(0x10000200, 64, kEarly + 2), false, nullptr);
  ReleaseEvent release = releaseEvent(kEarly + 3);
  Record found;
  ASSERT_EQ(table.take(0x10000200, false, release, &found),
            RecordTable::TakeResult::Taken);
  // The clock's aging hook runs every 2^38 serials; the late events come
  // in between.
  for (uint64_t now = 1ULL << 38; now < kLate; now += 1ULL << 38)
    table.age(now);
  table.acquire(record(0x10000300, 64, kLate), false, nullptr);
  table.age(kLate + 1);
  std::map<uint64_t, uint64_t> serials;
  for (const Record &r : table.snapshot())
    serials[r.key] = r.serial;
  EXPECT_EQ(serials[0x10000100], kEarly);
  EXPECT_EQ(serials[0x90000000], kEarly + 1);
  EXPECT_EQ(serials[0x10000300], kLate);
  Record one;
  ASSERT_TRUE(table.find(0x10000100, &one));
  EXPECT_EQ(one.serial, kEarly);
  FreedRecord freed;
  EXPECT_FALSE(table.findFreed(0x10000200, &freed))
      << "a release 2^41 serials old is forgotten, not misdated";

  // An implicit release between the two: the early records only.
  std::vector<Record> taken = table.takeIf([](const Record &) { return true; },
                                           releaseEvent(kLate - 1000));
  std::set<uint64_t> keys;
  for (const Record &r : taken) {
    keys.insert(r.key);
    EXPECT_LT(r.serial, kLate - 1000);
  }
  EXPECT_EQ(keys, (std::set<uint64_t>{0x10000100, 0x90000000}));
  ASSERT_TRUE(table.find(0x10000300, &one));
  EXPECT_EQ(one.serial, kLate);
  // The aside entries of records gone are dropped at the next age().
  table.age(kLate + 2);
  Record late;
  ASSERT_EQ(table.take(0x10000300, false, releaseEvent(kLate + 3), &late),
            RecordTable::TakeResult::Taken);
  EXPECT_EQ(late.serial, kLate);
}
