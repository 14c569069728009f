//===- JournalRingTest.cpp - the journal's ring and its checkpoints -------===//
#include "journal.h"
#include "journal_report.h"

#include "catalog_table.h"
#include "ledger.h"
#include "record_table.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace msledger;

namespace {

/// The data (not hole) bytes of the file at `path`.
uint64_t allocatedBytes(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? uint64_t(st.st_blocks) * 512 : 0;
}

} // namespace

namespace {

/// A ledger in miniature: a record table whose events go to a journal, and
/// the checkpoints the monitor would write.
struct JournaledTable {
  RecordTable table;
  Journal journal;
  uint64_t counter = 1;
  std::mt19937_64 random{42};
  unsigned malloc = apiIndex("aclrtMalloc"), free = apiIndex("aclrtFree");
  std::string path;

  /// Opens a 1 MiB journal in /tmp for the test `name`; removed with this.
  bool open(const char *name) {
    path = "/tmp/msledger-journal-" + std::string(name) + "-" +
           std::to_string(getpid()) + ".journal";
    std::string error;
    bool opened = journal.open(path, 1 << 20, 1, kJournalCannLevel, &error);
    EXPECT_TRUE(opened) << error;
    return opened;
  }
  ~JournaledTable() {
    if (!path.empty())
      unlink(path.c_str());
  }

  static uint64_t next(void *self, uint64_t atLeast) {
    auto *t = static_cast<JournaledTable *>(self);
    t->counter = std::max(t->counter, atLeast);
    return t->counter++;
  }
  /// An acquisition or a release of one of 2,000 keys, in granules all
  /// over the table's shards.
  void event() { event(0x100000000ULL + (random() % 2000) * 0x10040); }
  /// The next event of `key`: its release if it is live, else its
  /// acquisition.
  void event(uint64_t key) {
    Record found;
    if (table.find(key, &found)) {
      ReleaseEvent release;
      uint64_t serial = 0;
      table.take(key, false, release, &found,
                 RecordTable::SerialSource{next, this}, &serial);
      journal.release(1, key, serial, free, 0, false);
      return;
    }
    Record record;
    record.key = key;
    record.size = 64 + random() % 4096;
    record.api = static_cast<uint16_t>(malloc);
    table.acquire(record, false, nullptr, RecordTable::SerialSource{next, this},
                  &record.serial);
    journal.acquire(1, record);
  }
  /// A checkpoint as Ledger::checkpointJournal writes it; `abandon`: left
  /// without its end after its records, as a kill would leave it.
  bool checkpoint(bool abandon = false) {
    if (!journal.beginCheckpoint())
      return false;
    std::vector<uint64_t> floors(RecordTable::kShards);
    table.forEachShard([&](const RecordTable::ShardView &view) {
      floors[view.index] = view.floor;
      for (const Record &record : view.records)
        journal.checkpointLive(1, record);
    });
    if (abandon) {
      journal.abandonCheckpoint();
      return false;
    }
    journal.checkpointFloors(1, floors.data(), RecordTable::kShards);
    return journal.endCheckpoint();
  }
  /// What the table holds, and what the journal at `path` says is live.
  std::string live() const {
    std::set<std::pair<uint64_t, uint64_t>> records;
    for (const Record &record : table.snapshot())
      records.insert({record.key, record.serial});
    return describe(records);
  }
  static std::string replayed(const JournalContents &contents) {
    JournalReplay replay(contents, true);
    for (const JournalContents::Event &event : contents.events)
      replay.apply(event);
    std::set<std::pair<uint64_t, uint64_t>> records;
    for (const Record &record : replay.live(1))
      records.insert({record.key, record.serial});
    return describe(records);
  }
  static std::string
  describe(const std::set<std::pair<uint64_t, uint64_t>> &r) {
    std::ostringstream out;
    out << r.size() << " live:";
    for (const auto &[key, serial] : r)
      out << ' ' << std::hex << key << '@' << std::dec << serial;
    return out.str();
  }
};

/// The events a 1 MiB journal holds in a lap (each block's first unit is
/// its block unit).
constexpr uint64_t kEventsPerLap =
    (((1 << 20) - kJournalDataOffset) / 4096) * (kBlockUnits - 1);

/// A thread that runs what it is given, one task at a time, while the
/// caller waits: the writers of a journal each hold a block of their own,
/// so their events are kept and reused out of order, as a service's are.
class Writer {
public:
  Writer() : Thread([this] { run(); }) {}
  ~Writer() {
    give(nullptr);
    Thread.join();
  }
  /// Runs `task` on the writer's thread (null: it stops), and waits.
  void give(std::function<void()> task) {
    std::unique_lock<std::mutex> lock(Mutex);
    Task = std::move(task);
    Stop = !Task;
    Pending = true;
    Changed.notify_all();
    Changed.wait(lock, [this] { return !Pending; });
  }

private:
  void run() {
    std::unique_lock<std::mutex> lock(Mutex);
    for (;;) {
      Changed.wait(lock, [this] { return Pending; });
      if (Stop) {
        Pending = false;
        Changed.notify_all();
        return;
      }
      Task();
      Pending = false;
      Changed.notify_all();
    }
  }
  std::mutex Mutex;
  std::condition_variable Changed;
  std::function<void()> Task;
  bool Pending = false, Stop = false;
  std::thread Thread;
};

} // namespace

// The journal is a ring: with a checkpoint each quarter, a 1 MiB journal
// comes round six times and still says exactly what is live; a checkpoint
// left half written (a kill in its middle) falls back to the one before and
// the events after it; events past the room the last complete checkpoint
// leaves are dropped, and the header says what is missing.
TEST(Journal, ARingWithCheckpointsSaysWhatIsLiveAtAnyPoint) {
  JournaledTable t;
  ASSERT_TRUE(t.open("ring"));
  const std::string &path = t.path;
  std::string error;
  JournalContents contents;
  uint64_t checkpoints = 0, reads = 0;
  // Three writers take turns, a few hundred events at a time. Now and
  // then the third acquires a few buffers of its own, which the first frees
  // at once, and holds its block for a lap (as a thread that mostly waits
  // does): its acquisitions are kept long after their releases' blocks are
  // taken again, and only the checkpoint's floors say they are over.
  Writer writers[3];
  std::mt19937 turns(7);
  uint64_t quiet = 0, cold = 0x700000000000ULL;
  for (uint64_t i = 0; i < 6 * kEventsPerLap;) {
    if (i >= quiet) {
      quiet = i + kEventsPerLap;
      cold += 0x100000;
      for (int w : {2, 0})
        writers[w].give([&] {
          for (uint64_t key = cold; key < cold + 5 * 0x10000; key += 0x10000)
            t.event(key);
        });
      i += 10;
    }
    uint64_t events = 1 + turns() % 400;
    writers[turns() % 2].give([&] {
      for (uint64_t e = 0; e < events; ++e)
        t.event();
    });
    i += events;
    if (t.journal.checkpointDue())
      checkpoints += t.checkpoint();
    if (i / (kEventsPerLap / 3) >
        reads) { // now and then, as a kill would find it
      reads = i / (kEventsPerLap / 3);
      ASSERT_TRUE(readJournalFile(path, &contents, &error)) << error;
      ASSERT_EQ(JournaledTable::replayed(contents), t.live()) << "event " << i;
      EXPECT_FALSE(contents.eventsMissing());
    }
  }
  EXPECT_GE(checkpoints, 20u);
  EXPECT_EQ(contents.checkpoint.number, t.journal.checkpointsCompleted());
  EXPECT_LE(allocatedBytes(path), uint64_t(1) << 20);

  // Half a checkpoint: the last complete one and the events after it.
  uint64_t last = t.journal.checkpointsCompleted();
  EXPECT_FALSE(t.checkpoint(/*abandon=*/true));
  writers[0].give([&] {
    for (int i = 0; i < 3000; ++i)
      t.event();
  });
  ASSERT_TRUE(readJournalFile(path, &contents, &error)) << error;
  EXPECT_EQ(contents.checkpoint.number, last);
  EXPECT_EQ(JournaledTable::replayed(contents), t.live());
  EXPECT_FALSE(contents.eventsMissing());

  // No checkpoint after it: the ring has no more room, and says so.
  writers[1].give([&] {
    for (uint64_t i = 0; i < kEventsPerLap; ++i)
      t.event();
  });
  ASSERT_TRUE(readJournalFile(path, &contents, &error)) << error;
  EXPECT_TRUE(contents.eventsMissing());
  EXPECT_EQ(contents.header.full, 1u);
}

// A release whose real call fails puts its record back; a checkpoint that
// copied the shard in between holds no record of it, so the journal says
// what the table did: released at the take, acquired again at the putting
// back. Read back after each, the journal has the handle live, with one
// reference again for a refcounted one.
TEST(Journal, AFailedReleaseAcrossACheckpointStaysLive) {
  std::string path =
      "/tmp/msledger-journal-restore-" + std::to_string(getpid()) + ".journal";
  Options options;
  options.journal_path = path;
  options.journal_size_mb = 1;
  Ledger ledger(options);
  ledger.start();
  ASSERT_TRUE(ledger.journaling());
  unsigned malloc = apiIndex("aclrtMalloc"), free = apiIndex("aclrtFree");
  ledger.acquire(malloc, 0x124080024000, 4096, Space::GM, nullptr);
  PendingRelease pending;
  ledger.beginRelease(free, 0x124080024000, nullptr, &pending);
  ledger.checkpointJournal(); // between the take and the failed call's end
  ledger.endRelease(pending, /*succeeded=*/false);
  JournalContents contents;
  std::string error;
  ASSERT_TRUE(readJournalFile(path, &contents, &error)) << error;
  ASSERT_EQ(contents.checkpoint.number, 1u);
  EXPECT_TRUE(contents.checkpoint.live.empty()) << "taken when it was copied";
  JournalReplay replay(contents, true);
  for (const JournalContents::Event &event : contents.events)
    replay.apply(event);
  std::vector<Record> live = replay.live(1);
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].size, 4096u);
  unlink(path.c_str());
}

// Events dropped while every block was still needed (no monitor wrote a
// checkpoint) are made up for by the next complete checkpoint: the writers'
// dropping does not keep the checkpoint from finding room, and after it
// events are journaled again and the journal is whole.
TEST(Journal, ACheckpointAfterDroppedEventsMakesTheJournalWhole) {
  JournaledTable t;
  ASSERT_TRUE(t.open("heal"));
  const std::string &path = t.path;
  std::string error;
  for (uint64_t i = 0; i < kEventsPerLap; ++i) // a lap, no checkpoint: drops
    t.event();
  JournalContents contents;
  ASSERT_TRUE(readJournalFile(path, &contents, &error)) << error;
  EXPECT_TRUE(contents.eventsMissing());
  ASSERT_TRUE(t.checkpoint());
  for (uint64_t i = 0; i < kEventsPerLap / 8; ++i)
    t.event();
  ASSERT_TRUE(readJournalFile(path, &contents, &error)) << error;
  EXPECT_FALSE(contents.eventsMissing());
  EXPECT_EQ(contents.header.full, 1u) << "it says events were dropped once";
  EXPECT_EQ(JournaledTable::replayed(contents), t.live());
}
