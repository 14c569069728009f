//===- record_table.h - The ledger's table of live records ------*- C++ -*-===//
//
// Contract: a thread-safe map from a 64-bit key (an address, or a namespaced
// handle; 0 is never a key) to a packed 24-byte record, built for the hot path
// of every tracked call:
//
//   * 1024 shards chosen by a hash of the key's 64 KiB granule, each an
//     open-addressed Robin Hood table under its own spin lock: threads that
//     work in memory of their own (an allocator's per-thread region) use
//     shards of their own, and their cache lines do not travel between
//     cores (hashing each key alone would spread every thread over every
//     shard). Two threads' regions of 32 granules each share one shard on
//     average (four with 256 shards, which cost a sixth of two threads'
//     throughput in the LedgerPair benchmark). The operations on one key
//     (acquire, take, restore, find, findFreed) take that key's shard lock
//     once and are O(1) expected (findFreed scans the shard's remembered
//     releases); those on the whole table (snapshot, takeIf, lockAll) take
//     each shard's lock in turn; size() and memoryBytes() take none;
//   * slots are the records themselves (key + 16 bytes), tables grow by 1.25x
//     at 90% load, so live records cost 24-34 bytes each;
//   * each shard remembers its last kFreedPerShard releases, which is how a
//     double release is told from a release of something never seen (and a
//     copy into freed memory found, access.h); releases concentrated in a
//     few granules share those shards' memory of them;
//   * each shard keeps the floor of its next event's serial, which it takes
//     under the lock (SerialSource): a key's events are numbered in order.
//
// Records are copied in and out; nothing returned points into the table.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_RECORD_TABLE_H
#define MSLEDGER_RUNTIME_RECORD_TABLE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace msledger {

/// One live acquisition, unpacked.
struct Record {
  uint64_t key = 0;
  uint64_t size = 0; // bytes (41 bits, saturating), or the reference count of a
                     // refcounted handle
  uint64_t serial = 0; // 40 bits
  uint32_t site = 0;   // site id (24 bits), 0 = unknown
  uint16_t api = 0;    // catalog index (10 bits)
  uint16_t thread = 0; // thread index (10 bits, saturating)
  uint8_t space = 0;   // msledger_space (3 bits)
  uint8_t device = 63; // the device memory is on (6 bits); kNoDevice: unknown
};

/// A release: its own serial, site, API and thread.
struct ReleaseEvent {
  uint64_t serial = 0;
  uint32_t site = 0;
  uint16_t api = 0;
  uint16_t thread = 0;
};

/// A release the table remembers, with the record it ended.
struct FreedRecord : ReleaseEvent {
  Record acquired;
};

constexpr uint64_t kMaxRecordSize = (1ULL << 41) - 1;
constexpr uint64_t kMaxSerial = (1ULL << 40) - 1;
constexpr uint32_t kMaxSite = (1U << 18) - 1;
constexpr uint8_t kNoDevice = 63; // devices 0-62 are recorded as such
constexpr uint16_t kMaxApi = (1U << 10) - 1;
constexpr uint16_t kMaxThread = (1U << 10) - 1;

class RecordTable {
public:
  static constexpr unsigned kShardBits = 10;
  static constexpr unsigned kShards = 1U << kShardBits;
  static constexpr unsigned kFreedPerShard = 64;

  RecordTable();
  ~RecordTable();
  RecordTable(const RecordTable &) = delete;
  RecordTable &operator=(const RecordTable &) = delete;

  /// Where an event's serial comes from: a serial at least `atLeast`,
  /// unique in the process and increasing along the calling thread
  /// (Ledger::serialAtLeast). Called under the key's shard lock, so that
  /// the events of one key -- whatever threads make them -- have increasing
  /// serials in the order they happen: each shard keeps the serial after its
  /// latest event, the floor of its next.
  using SerialSource = uint64_t (*)(uint64_t atLeast);

  enum class AcquireResult { Inserted, Replaced, Referenced };
  /// Inserts `record`, its serial from `serials` if given (then written to
  /// *serial), else as it is. An existing record with the same key is
  /// replaced (its release was never seen; *previous gets it, if asked) or, if
  /// `refcounted`, gets one more reference and keeps its serial and site.
  AcquireResult acquire(const Record &record, bool refcounted, Record *previous,
                        SerialSource serials = nullptr,
                        uint64_t *serial = nullptr);

  enum class TakeResult { Taken, Dereferenced, NotFound };
  /// Takes `key` out before its release is attempted (so that the address,
  /// once the real free has returned it, can be handed out and recorded
  /// again): removes the record and remembers `release` as what ended it, or
  /// drops one reference of a refcounted record that has more
  /// (Dereferenced). *found gets the record as it was. The release's serial
  /// comes from `serials` if given (then written to *serial). One lock.
  TakeResult take(uint64_t key, bool refcounted, const ReleaseEvent &release,
                  Record *found, SerialSource serials = nullptr,
                  uint64_t *serial = nullptr);
  /// Undoes take() after the real release failed: the record is back and
  /// the release forgotten.
  void restore(const Record &record, TakeResult taken,
               const ReleaseEvent &release);

  /// Takes out every record `matches` accepts, remembering `release` as what
  /// ended each: an implicit release (a device reset ends its streams). Only
  /// records with serials below the release's are taken (a later one was
  /// acquired after it), and every shard's next serial is made to follow
  /// it. Takes each shard's lock in turn; for rare calls, not the hot path.
  std::vector<Record> takeIf(const std::function<bool(const Record &)> &matches,
                             const ReleaseEvent &release);

  /// The remembered release of `key`, most recent first.
  bool findFreed(uint64_t key, FreedRecord *freed) const;
  /// Every remembered release, shard by shard, each shard's most recent
  /// first.
  std::vector<FreedRecord> freedSnapshot() const;
  /// Whether a record or a remembered release changed since the last call
  /// (true at the first), for the table's one view built from snapshot() and
  /// freedSnapshot() (access.h's RangeIndex): taken before the snapshots,
  /// the view is current while it is false. One flag, not a count: a change
  /// writes it only when it is clear, so the events of threads with shards
  /// of their own share no cache line while no view is being rebuilt, and
  /// the check reads one word, not one per shard.
  bool takeChanged() const;
  bool find(uint64_t key, Record *record) const;

  /// Every live record, shard by shard (each shard consistent in itself).
  std::vector<Record> snapshot() const;
  size_t size() const;
  /// Bytes the table holds from the heap, slots and release history included.
  size_t memoryBytes() const;

  /// For fork(): hold every shard so no record is half-written in the child.
  void lockAll();
  void unlockAll();

private:
  struct Slot {
    uint64_t key;
    uint64_t attributes; // size:41 space:3 thread:10 api:10
    uint64_t order;      // serial:40 site:18 device:6
  };
  struct FreedSlot {
    Slot acquired;
    uint64_t order;  // release serial:40 site:18
    uint32_t caller; // release api:10 thread:10
    uint32_t unused;
  };
  struct alignas(64) Shard {
    std::atomic<bool> locked{false};
    // Written under the lock, atomically: size() and memoryBytes() read
    // them without it.
    uint32_t capacity = 0;
    uint32_t count = 0;
    uint32_t freedNext = 0;
    uint64_t nextSerial = 0; // the floor of the next event's serial
    Slot *slots = nullptr;
    FreedSlot *freed = nullptr;
    void lock();
    void unlock() { locked.store(false, std::memory_order_release); }
  };

  static uint64_t hash(uint64_t key);
  static Slot pack(const Record &record);
  static Record unpack(const Slot &slot);
  static FreedRecord unpackFreed(const FreedSlot &entry);
  /// Calls `visit` on the shard's remembered releases, most recent first,
  /// until it returns false. Under the shard's lock.
  template <typename Visit>
  static void forEachRemembered(const Shard &shard, Visit visit);
  static uint32_t home(uint64_t hash, uint32_t capacity);
  static uint32_t distance(const Slot &slot, uint32_t index, uint32_t capacity);
  static constexpr unsigned kShardGranuleBits = 16;
  Shard &shardOf(uint64_t key) const;
  static long findIndex(const Shard &shard, uint64_t key, uint64_t hash);
  /// `h`: hash(slot.key).
  static void insertSlot(Shard &shard, Slot slot, uint64_t h);
  static void eraseAt(Shard &shard, uint32_t index);
  static void grow(Shard &shard);
  static void remember(Shard &shard, const Slot &ended,
                       const ReleaseEvent &release);
  /// After a change, under its shard's lock.
  void noteChange() {
    if (!Changed.load(std::memory_order_relaxed))
      Changed.store(true, std::memory_order_relaxed);
  }

  Shard *Shards;
  alignas(64) mutable std::atomic<bool> Changed{true};
};

} // namespace msledger

#endif
