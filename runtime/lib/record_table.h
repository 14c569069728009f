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
//     under the lock (SerialSource): a key's events are numbered in order;
//   * a record keeps its serial's low 40 bits, widened back below its
//     shard's floor when read; age() keeps the whole serial of a record old
//     enough for that to be wrong aside, so a serial read is always whole
//     (records and releases read back, Record::serial and
//     FreedRecord::serial, are whole; unpack() alone gives the kept bits).
//
// Records are copied in and out; nothing returned points into the table.
// acquire() and take(), the operations of every tracked event, are defined
// inline at the end of this header, so that the ledger's event paths compile
// them into themselves.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_RECORD_TABLE_H
#define MSLEDGER_RUNTIME_RECORD_TABLE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <utility>
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
  // Not in the table: for a report, the site of the operator's phase 1
  // whose workspace this memory is (Ledger::liveRecords), 0 if none.
  uint32_t workspaceOf = 0;
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

/// A record as the table stores it, 24 bytes (size:41 space:3 thread:10
/// api:10 in `attributes`, serial:40 site:18 device:6 in `order`): what
/// take() hands back, so that a release reads the API it needs and unpacks
/// the rest only when it needs it (RecordTable::unpack). Not initialized by
/// its constructor: made on every release.
struct PackedRecord {
  uint64_t key;
  uint64_t attributes;
  uint64_t order;
};

constexpr uint64_t kMaxRecordSize = (1ULL << 41) - 1;
constexpr uint64_t kMaxSerial = (1ULL << 40) - 1;
constexpr uint32_t kMaxSite = (1U << 18) - 1;
constexpr uint8_t kNoDevice = 63; // devices 0-62 are recorded as such
constexpr uint16_t kMaxApi = (1U << 10) - 1;
constexpr uint16_t kMaxThread = (1U << 10) - 1;

/// Where an event's serial comes from: a serial at least `atLeast`,
/// unique among its source's and increasing along the calling thread
/// (SerialClock::serialAtLeast). Called under the key's shard lock, so
/// that the events of one key -- whatever threads make them -- have
/// increasing serials in the order they happen: each shard keeps the
/// serial after its latest event, the floor of its next. A function and
/// its context, so that the acquire() and take() inlined into a caller
/// that passes a constant function inline it too.
struct SerialSource {
  uint64_t (*take)(void *context, uint64_t atLeast) = nullptr;
  void *context = nullptr;
};

class RecordTable {
public:
  static constexpr unsigned kShardBits = 10;
  static constexpr unsigned kShards = 1U << kShardBits;
  static constexpr unsigned kFreedPerShard = 64;

  RecordTable();
  ~RecordTable();
  RecordTable(const RecordTable &) = delete;
  RecordTable &operator=(const RecordTable &) = delete;

  using SerialSource = msledger::SerialSource;

  enum class AcquireResult { Inserted, Replaced, Referenced };
  /// Inserts `record`, its serial from `serials` if given (then written to
  /// *serial), else as it is. An existing record with the same key is
  /// replaced (its release was never seen; *previous gets it, if asked) or, if
  /// `refcounted`, gets one more reference and keeps its serial and site.
  AcquireResult acquire(const Record &record, bool refcounted, Record *previous,
                        SerialSource serials = {}, uint64_t *serial = nullptr);
  /// acquire(), the record packed (pack()) by the caller: a caller that
  /// packs it early keeps three words live, not a Record's fields.
  AcquireResult acquire(PackedRecord record, bool refcounted, Record *previous,
                        SerialSource serials = {}, uint64_t *serial = nullptr);

  enum class TakeResult { Taken, Dereferenced, NotFound };
  /// Takes `key` out before its release is attempted (so that the address,
  /// once the real free has returned it, can be handed out and recorded
  /// again): removes the record and remembers `release` as what ended it, or
  /// drops one reference of a refcounted record that has more
  /// (Dereferenced). *found gets the record as it was. The release's serial
  /// comes from `serials` if given (then written to *serial). One lock.
  TakeResult take(uint64_t key, bool refcounted, const ReleaseEvent &release,
                  PackedRecord *found, SerialSource serials = {},
                  uint64_t *serial = nullptr);
  /// take(), the record unpacked.
  TakeResult take(uint64_t key, bool refcounted, const ReleaseEvent &release,
                  Record *found, SerialSource serials = {},
                  uint64_t *serial = nullptr);
  /// Undoes take() after the real release failed: the record is back (with
  /// its own serial) and the release forgotten. The putting back is an
  /// event of its shard: its serial comes from `serials` if given (then
  /// written to *serial), so that a copy of the shard made in between
  /// (forEachShard) is followed by it.
  void restore(const Record &record, TakeResult taken,
               const ReleaseEvent &release, SerialSource serials = {},
               uint64_t *serial = nullptr);

  /// A record as the table stores it: the size, thread, site and device
  /// saturate at their fields' largest values.
  static PackedRecord pack(const Record &record);
  static Record unpack(const PackedRecord &packed);
  static uint16_t apiOf(const PackedRecord &packed) {
    return static_cast<uint16_t>((packed.attributes >> 54) & kMaxApi);
  }

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
  /// One shard as it was at one moment: its records, and the floor of its
  /// next event's serial then. Every event of the shard's keys with a serial
  /// below the floor is reflected in the records; none at or above it is --
  /// but for an implicit release (takeIf), whose serial may be below the
  /// floor of a shard it reaches after the copy (a journal's reader keeps
  /// those whatever their serial).
  struct ShardView {
    unsigned index = 0;
    uint64_t floor = 0;
    std::vector<Record> records; // serials widened below the floor
  };
  /// Calls `visit` with each shard's view in turn, copied under the shard's
  /// lock and visited outside it: a thread waits at most for one shard's
  /// copy (a journal's checkpoint, journal.h).
  void forEachShard(const std::function<void(const ShardView &)> &visit) const;
  /// The shard `key` is in (0 to kShards - 1): a journal's reader applies
  /// a checkpoint's floors by it.
  static unsigned shardIndex(uint64_t key) {
    return static_cast<unsigned>(hash(key >> kShardGranuleBits) >>
                                 (64 - kShardBits));
  }
  /// The serial whose low 40 bits (what a record keeps) are `stored`, the
  /// latest below `floor`: exact while the record is younger than 2^40
  /// serials.
  static uint64_t widenSerial(uint64_t stored, uint64_t floor) {
    if (floor <= stored)
      return stored;
    return floor - 1 - ((floor - 1 - stored) & kMaxSerial);
  }
  /// The kept bits of a record whose whole serial is kept aside (age());
  /// no serial has them (SerialClock::kMarkBits).
  static constexpr uint64_t kAgedMark = kMaxSerial;
  /// How many serials old a record is when age() keeps its serial aside.
  static constexpr uint64_t kAgeLimit = 1ULL << 39;
  /// Keeps aside the whole serial of each record kAgeLimit or more serials
  /// older than `now` (its kept bits become kAgedMark), and forgets each
  /// remembered release as old. Run at least every 2^38 serials
  /// (SerialClock's aging hook), it keeps every other record younger than
  /// 2^40 serials, so that widening its kept bits is exact: no record's
  /// serial is ever wrong, however long the process runs (a process whose
  /// clock thread could not start runs no aging: its records' serials are
  /// exact for 2^40 serials). Each shard's lock in turn.
  void age(uint64_t now);
  /// The whole serial of `packed`, a record this table handed out (take(),
  /// acquire()'s previous one) at an event whose serial is below `floor`.
  uint64_t serialOf(const PackedRecord &packed, uint64_t floor) const;
  size_t size() const;
  /// Bytes the table holds from the heap, slots and release history included.
  size_t memoryBytes() const;

  /// For fork(): hold every shard so no record is half-written in the child.
  void lockAll();
  void unlockAll();

private:
  using Slot = PackedRecord;
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
    uint32_t growAt = 0;     // the count at 90% load, which an insert grows at
    uint64_t nextSerial = 0; // the floor of the next event's serial
    Slot *slots = nullptr;
    FreedSlot *freed = nullptr;
    void lock();
    void unlock() { locked.store(false, std::memory_order_release); }
  };

  static uint64_t hash(uint64_t key);
  /// A slot of `shard` (locked), its serial whole.
  Record unpackIn(const Shard &shard, const Slot &slot) const;
  /// A remembered release of `shard` (locked), its serials whole.
  FreedRecord unpackFreed(const Shard &shard, const FreedSlot &entry) const;
  /// Calls `visit` on the shard's remembered releases, most recent first,
  /// until it returns false. Under the shard's lock.
  template <typename Visit>
  static void forEachRemembered(const Shard &shard, Visit visit);
  static uint32_t home(uint64_t hash, uint32_t capacity);
  static uint32_t distance(const Slot &slot, uint32_t index, uint32_t capacity);
  static constexpr unsigned kShardGranuleBits = 16;
  Shard &shardOf(uint64_t key) const;
  static long findIndex(const Shard &shard, uint64_t key, uint64_t hash);
  /// Robin Hood insertion of `slot`, a key not in the shard, starting at
  /// `index`, `d` slots from its home, where the probe for it ended.
  static void insertAt(Shard &shard, Slot slot, uint32_t index, uint32_t d);
  /// insertAt() from its home; `h`: hash(slot.key).
  static void insertSlot(Shard &shard, Slot slot, uint64_t h);
  static void eraseAt(Shard &shard, uint32_t index);
  /// Makes room for one more slot: grows at 90% load.
  static void reserveOne(Shard &shard);
  static void grow(Shard &shard);
  static void remember(Shard &shard, const Slot &ended,
                       const ReleaseEvent &release);
  /// The shard's release history, allocated at its first release; false if
  /// the host is out of memory.
  static bool allocateFreed(Shard &shard);
  /// The serial of an event in `shard` (from `serials`, or `given`), which
  /// moves the shard's floor past it; *out gets it if asked.
  static uint64_t stamp(Shard &shard, uint64_t given, SerialSource serials,
                        uint64_t *out);
  /// After a change, under its shard's lock.
  void noteChange() {
    if (!Changed.load(std::memory_order_relaxed))
      Changed.store(true, std::memory_order_relaxed);
  }

  Shard *Shards;
  alignas(64) mutable std::atomic<bool> Changed{true};
  // The whole serials of aged records (age()), by key: looked at only for
  // a record marked kAgedMark. Taken under a shard's lock, never the
  // reverse; an entry whose record is gone is dropped by a later age().
  mutable std::mutex AgedMutex;
  struct AgedSerial {
    uint64_t serial;
    unsigned missed; // age() passes that found nothing marked with the key
  };
  std::unordered_map<uint64_t, AgedSerial> Aged;
};

//===----------------------------------------------------------------------===//
// The per-key operations of every tracked event, inline: the ledger's event
// paths compile them into themselves, with the serial source (a constant
// there) called directly. Out of line, the calls, with a Record spilled to
// the stack and read back whole, cost more than the work (LedgerPair
// benchmark). The helpers are forced inline whatever the compiler's size
// heuristics say: each is a few instructions.
//===----------------------------------------------------------------------===//

#define MSLEDGER_TABLE_HOT inline __attribute__((always_inline))

namespace detail {

/// A field of a shard that size() and memoryBytes() read without its lock
/// (the monitor's snapshots): written under the lock, but atomically, so
/// that those reads are not data races.
template <typename T> MSLEDGER_TABLE_HOT void storeRelaxed(T &field, T value) {
  __atomic_store_n(&field, value, __ATOMIC_RELAXED);
}

/// A spinning thread's hint to the core (x86's pause, Arm's yield): the
/// real toolkits run on both.
MSLEDGER_TABLE_HOT void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

} // namespace detail

MSLEDGER_TABLE_HOT void RecordTable::Shard::lock() {
  while (locked.exchange(true, std::memory_order_acquire))
    while (locked.load(std::memory_order_relaxed))
      detail::spinPause();
}

MSLEDGER_TABLE_HOT uint64_t RecordTable::hash(uint64_t key) {
  // Fibonacci hashing: one multiply moves every bit of the key, alignment
  // zeros included, into the high bits; a granule's shard is the top
  // kShardBits of its hash, a key's slot index the low 32 bits of its own
  // (see home()).
  return (key ^ (key >> 32)) * 0x9E3779B97F4A7C15ULL;
}

MSLEDGER_TABLE_HOT PackedRecord RecordTable::pack(const Record &r) {
  uint64_t size = r.size < kMaxRecordSize ? r.size : kMaxRecordSize;
  uint64_t thread = r.thread < kMaxThread ? r.thread : kMaxThread;
  uint64_t site = r.site < kMaxSite ? r.site : kMaxSite;
  uint64_t device = r.device < kNoDevice ? r.device : kNoDevice;
  return Slot{r.key,
              size | (static_cast<uint64_t>(r.space & 7) << 41) |
                  (thread << 44) |
                  (static_cast<uint64_t>(r.api & kMaxApi) << 54),
              (r.serial & kMaxSerial) | (site << 40) | (device << 58)};
}

MSLEDGER_TABLE_HOT Record RecordTable::unpack(const PackedRecord &s) {
  Record r;
  r.key = s.key;
  r.size = s.attributes & kMaxRecordSize;
  r.space = static_cast<uint8_t>((s.attributes >> 41) & 7);
  r.thread = static_cast<uint16_t>((s.attributes >> 44) & kMaxThread);
  r.api = apiOf(s);
  r.serial = s.order & kMaxSerial;
  r.site = static_cast<uint32_t>((s.order >> 40) & kMaxSite);
  r.device = static_cast<uint8_t>(s.order >> 58);
  return r;
}

MSLEDGER_TABLE_HOT uint32_t RecordTable::home(uint64_t hash,
                                              uint32_t capacity) {
  return static_cast<uint32_t>(
      (static_cast<uint64_t>(static_cast<uint32_t>(hash)) * capacity) >> 32);
}

MSLEDGER_TABLE_HOT uint32_t RecordTable::distance(const Slot &slot,
                                                  uint32_t index,
                                                  uint32_t capacity) {
  uint32_t start = home(hash(slot.key), capacity);
  return index >= start ? index - start : index + capacity - start;
}

MSLEDGER_TABLE_HOT RecordTable::Shard &
RecordTable::shardOf(uint64_t key) const {
  // By the key's 64 KiB granule: memory a thread works in (its allocator's
  // region) stays in shards of its own, not a share of all of them.
  return Shards[shardIndex(key)];
}

MSLEDGER_TABLE_HOT long RecordTable::findIndex(const Shard &shard, uint64_t key,
                                               uint64_t h) {
  if (shard.count == 0)
    return -1;
  uint32_t index = home(h, shard.capacity);
  for (uint32_t d = 0;; ++d) {
    const Slot &slot = shard.slots[index];
    if (slot.key == key)
      return index;
    if (slot.key == 0 || distance(slot, index, shard.capacity) < d)
      return -1;
    if (++index == shard.capacity)
      index = 0;
  }
}

MSLEDGER_TABLE_HOT void RecordTable::insertAt(Shard &shard, Slot slot,
                                              uint32_t index, uint32_t d) {
  for (;; ++d) {
    Slot &here = shard.slots[index];
    if (here.key == 0) {
      here = slot;
      detail::storeRelaxed(shard.count, shard.count + 1);
      return;
    }
    uint32_t theirs = distance(here, index, shard.capacity);
    if (theirs < d) { // Robin Hood: the richer slot moves on
      std::swap(here, slot);
      d = theirs;
    }
    if (++index == shard.capacity)
      index = 0;
  }
}

MSLEDGER_TABLE_HOT void RecordTable::insertSlot(Shard &shard, Slot slot,
                                                uint64_t h) {
  insertAt(shard, slot, home(h, shard.capacity), 0);
}

MSLEDGER_TABLE_HOT void RecordTable::eraseAt(Shard &shard, uint32_t index) {
  // Backward-shift deletion: no tombstones, probe lengths stay short.
  for (;;) {
    uint32_t next = index + 1 == shard.capacity ? 0 : index + 1;
    Slot &following = shard.slots[next];
    if (following.key == 0 || distance(following, next, shard.capacity) == 0)
      break;
    shard.slots[index] = following;
    index = next;
  }
  shard.slots[index] = Slot{0, 0, 0};
  detail::storeRelaxed(shard.count, shard.count - 1);
}

MSLEDGER_TABLE_HOT void RecordTable::reserveOne(Shard &shard) {
  if (shard.count >= shard.growAt)
    grow(shard);
}

MSLEDGER_TABLE_HOT uint64_t RecordTable::stamp(Shard &shard, uint64_t given,
                                               SerialSource serials,
                                               uint64_t *out) {
  uint64_t serial =
      serials.take ? serials.take(serials.context, shard.nextSerial) : given;
  if (serial >= shard.nextSerial)
    shard.nextSerial = serial + 1;
  if (out)
    *out = serial;
  return serial;
}

MSLEDGER_TABLE_HOT void RecordTable::remember(Shard &shard, const Slot &ended,
                                              const ReleaseEvent &release) {
  if (!shard.freed && !allocateFreed(shard))
    return; // no history: a later double release reads as an illegal one
  uint32_t thread = release.thread < kMaxThread ? release.thread : kMaxThread;
  shard.freed[shard.freedNext++ % kFreedPerShard] = FreedSlot{
      ended,
      (release.serial & kMaxSerial) |
          (static_cast<uint64_t>(release.site & kMaxSite) << 40),
      static_cast<uint32_t>(release.api & kMaxApi) | (thread << 10), 0};
}

MSLEDGER_TABLE_HOT RecordTable::AcquireResult
RecordTable::acquire(PackedRecord record, bool refcounted, Record *previous,
                     SerialSource serials, uint64_t *serial) {
  // Packed before the lock: three words live across it, not a Record's
  // fields spilled to the stack (stores the lock's exchange waits for).
  uint64_t h = hash(record.key);
  Shard &shard = shardOf(record.key);
  if (refcounted) // a new record's count
    record.attributes = (record.attributes & ~kMaxRecordSize) | 1;
  shard.lock();
  uint64_t stamped = stamp(shard, record.order & kMaxSerial, serials, serial);
  record.order = (record.order & ~kMaxSerial) | (stamped & kMaxSerial);
  // Room first (rarely needed for a key that is there): then one probe
  // either finds the key or ends where it goes.
  reserveOne(shard);
  AcquireResult result = AcquireResult::Inserted;
  uint32_t index = home(h, shard.capacity);
  for (uint32_t d = 0;; ++d) {
    Slot &slot = shard.slots[index];
    if (slot.key == record.key) {
      if (previous)
        *previous = unpackIn(shard, slot);
      if (refcounted) {
        if ((slot.attributes & kMaxRecordSize) < kMaxRecordSize)
          slot.attributes += 1; // one more reference, saturating
        result = AcquireResult::Referenced;
      } else {
        slot = record;
        result = AcquireResult::Replaced;
      }
      break;
    }
    if (slot.key == 0 || distance(slot, index, shard.capacity) < d) {
      insertAt(shard, record, index, d);
      break;
    }
    if (++index == shard.capacity)
      index = 0;
  }
  noteChange();
  shard.unlock();
  return result;
}

MSLEDGER_TABLE_HOT RecordTable::AcquireResult
RecordTable::acquire(const Record &record, bool refcounted, Record *previous,
                     SerialSource serials, uint64_t *serial) {
  // The record's own serial whole, not its packed 40 bits: the shard's
  // floor follows it.
  uint64_t given = record.serial;
  if (!serials.take)
    serials = {
        [](void *whole, uint64_t) { return *static_cast<uint64_t *>(whole); },
        &given};
  return acquire(pack(record), refcounted, previous, serials, serial);
}

MSLEDGER_TABLE_HOT RecordTable::TakeResult
RecordTable::take(uint64_t key, bool refcounted, const ReleaseEvent &given,
                  PackedRecord *found, SerialSource serials, uint64_t *serial) {
  uint64_t h = hash(key);
  Shard &shard = shardOf(key);
  shard.lock();
  ReleaseEvent release = given;
  release.serial = stamp(shard, given.serial, serials, serial);
  long index = findIndex(shard, key, h);
  TakeResult result = TakeResult::NotFound;
  if (index >= 0) {
    Slot &slot = shard.slots[index];
    *found = slot;
    if (refcounted && (slot.attributes & kMaxRecordSize) > 1) {
      slot.attributes -= 1; // the size field's low bits: one reference
      result = TakeResult::Dereferenced;
    } else {
      remember(shard, slot, release);
      eraseAt(shard, static_cast<uint32_t>(index));
      result = TakeResult::Taken;
    }
  }
  noteChange();
  shard.unlock();
  return result;
}

inline RecordTable::TakeResult
RecordTable::take(uint64_t key, bool refcounted, const ReleaseEvent &release,
                  Record *found, SerialSource serials, uint64_t *serial) {
  PackedRecord packed{};
  uint64_t stamped = 0;
  TakeResult result =
      take(key, refcounted, release, &packed, serials, &stamped);
  if (serial)
    *serial = stamped;
  if (result != TakeResult::NotFound) {
    *found = unpack(packed);
    found->serial = serialOf(packed, stamped + 1);
  }
  return result;
}

#undef MSLEDGER_TABLE_HOT

} // namespace msledger

#endif
