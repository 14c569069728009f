//===- record_table.cpp - The ledger's table of live records --------------===//
#include "record_table.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

// The hot path's helpers are inlined into acquire() and take() whatever the
// compiler's size heuristics say: each is a few instructions, and a call
// (with a Record spilled to the stack and read back whole) cost more than
// the work in the benchmarks.
#define MSLEDGER_HOT inline __attribute__((always_inline))

namespace msledger {

namespace {

/// A field of a shard that size() and memoryBytes() read without its lock
/// (the monitor's snapshots): written under the lock, but atomically, so
/// that those reads are not data races.
template <typename T> void storeRelaxed(T &field, T value) {
  __atomic_store_n(&field, value, __ATOMIC_RELAXED);
}

/// A spinning thread's hint to the core (x86's pause, Arm's yield): the
/// real toolkits run on both.
inline void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

} // namespace

MSLEDGER_HOT void RecordTable::Shard::lock() {
  while (locked.exchange(true, std::memory_order_acquire))
    while (locked.load(std::memory_order_relaxed))
      spinPause();
}

RecordTable::RecordTable() {
  void *memory = nullptr;
  if (posix_memalign(&memory, 64, sizeof(Shard) * kShards) != 0)
    abort();
  Shards = static_cast<Shard *>(memory);
  for (unsigned i = 0; i < kShards; ++i)
    new (&Shards[i]) Shard();
}

RecordTable::~RecordTable() {
  for (unsigned i = 0; i < kShards; ++i) {
    free(Shards[i].slots);
    free(Shards[i].freed);
    Shards[i].~Shard();
  }
  free(Shards);
}

MSLEDGER_HOT uint64_t RecordTable::hash(uint64_t key) {
  // Fibonacci hashing: one multiply moves every bit of the key, alignment
  // zeros included, into the high bits; a granule's shard is the top
  // kShardBits of its hash, a key's slot index the low 32 bits of its own
  // (see home()).
  return (key ^ (key >> 32)) * 0x9E3779B97F4A7C15ULL;
}

MSLEDGER_HOT RecordTable::Slot RecordTable::pack(const Record &r) {
  uint64_t size = std::min<uint64_t>(r.size, kMaxRecordSize);
  uint64_t thread = std::min<uint64_t>(r.thread, kMaxThread);
  return Slot{r.key,
              size | (static_cast<uint64_t>(r.space & 7) << 41) |
                  (thread << 44) |
                  (static_cast<uint64_t>(r.api & kMaxApi) << 54),
              (r.serial & kMaxSerial) |
                  (static_cast<uint64_t>(std::min(r.site, kMaxSite)) << 40) |
                  (static_cast<uint64_t>(std::min(r.device, kNoDevice)) << 58)};
}

MSLEDGER_HOT Record RecordTable::unpack(const Slot &s) {
  Record r;
  r.key = s.key;
  r.size = s.attributes & kMaxRecordSize;
  r.space = static_cast<uint8_t>((s.attributes >> 41) & 7);
  r.thread = static_cast<uint16_t>((s.attributes >> 44) & kMaxThread);
  r.api = static_cast<uint16_t>((s.attributes >> 54) & kMaxApi);
  r.serial = s.order & kMaxSerial;
  r.site = static_cast<uint32_t>((s.order >> 40) & kMaxSite);
  r.device = static_cast<uint8_t>(s.order >> 58);
  return r;
}

MSLEDGER_HOT uint32_t RecordTable::home(uint64_t hash, uint32_t capacity) {
  return static_cast<uint32_t>(
      (static_cast<uint64_t>(static_cast<uint32_t>(hash)) * capacity) >> 32);
}

MSLEDGER_HOT uint32_t RecordTable::distance(const Slot &slot, uint32_t index,
                                            uint32_t capacity) {
  uint32_t start = home(hash(slot.key), capacity);
  return index >= start ? index - start : index + capacity - start;
}

MSLEDGER_HOT RecordTable::Shard &RecordTable::shardOf(uint64_t key) const {
  // By the key's 64 KiB granule: memory a thread works in (its allocator's
  // region) stays in shards of its own, not a share of all of them.
  return Shards[hash(key >> kShardGranuleBits) >> (64 - kShardBits)];
}

MSLEDGER_HOT long RecordTable::findIndex(const Shard &shard, uint64_t key,
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

MSLEDGER_HOT void RecordTable::insertSlot(Shard &shard, Slot slot, uint64_t h) {
  uint32_t index = home(h, shard.capacity);
  for (uint32_t d = 0;; ++d) {
    Slot &here = shard.slots[index];
    if (here.key == 0) {
      here = slot;
      storeRelaxed(shard.count, shard.count + 1);
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

MSLEDGER_HOT void RecordTable::eraseAt(Shard &shard, uint32_t index) {
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
  storeRelaxed(shard.count, shard.count - 1);
}

void RecordTable::grow(Shard &shard) {
  uint32_t capacity =
      std::max<uint32_t>(16, shard.capacity + shard.capacity / 4 + 1);
  Slot *old = shard.slots;
  uint32_t oldCapacity = shard.capacity;
  shard.slots = static_cast<Slot *>(calloc(capacity, sizeof(Slot)));
  if (!shard.slots)
    abort(); // out of host memory: nothing sensible left to do
  storeRelaxed(shard.capacity, capacity);
  storeRelaxed(shard.count, 0u);
  for (uint32_t i = 0; i < oldCapacity; ++i)
    if (old[i].key)
      insertSlot(shard, old[i], hash(old[i].key));
  free(old);
}

namespace {

/// The serial of an event in `nextSerial`'s shard (from `serials`, or
/// `given`), and the shard's next floor; *out gets it if asked.
MSLEDGER_HOT uint64_t stamp(uint64_t given, uint64_t &nextSerial,
                            RecordTable::SerialSource serials, uint64_t *out) {
  uint64_t serial = serials ? serials(nextSerial) : given;
  if (serial >= nextSerial)
    nextSerial = serial + 1;
  if (out)
    *out = serial;
  return serial;
}

} // namespace

RecordTable::AcquireResult
RecordTable::acquire(const Record &given, bool refcounted, Record *previous,
                     SerialSource serials, uint64_t *serial) {
  uint64_t h = hash(given.key);
  Shard &shard = shardOf(given.key);
  shard.lock();
  Record record = given;
  record.serial = stamp(given.serial, shard.nextSerial, serials, serial);
  long index = findIndex(shard, record.key, h);
  AcquireResult result = AcquireResult::Inserted;
  if (index >= 0) {
    Slot &slot = shard.slots[index];
    Record found = unpack(slot);
    if (previous)
      *previous = found;
    if (refcounted) {
      Record counted = found;
      counted.size = found.size + 1;
      slot = pack(counted);
      result = AcquireResult::Referenced;
    } else {
      slot = pack(record);
      result = AcquireResult::Replaced;
    }
  } else {
    if ((shard.count + 1) * 10ULL > shard.capacity * 9ULL)
      grow(shard);
    Record inserted = record;
    if (refcounted)
      inserted.size = 1;
    insertSlot(shard, pack(inserted), h);
  }
  noteChange();
  shard.unlock();
  return result;
}

RecordTable::TakeResult RecordTable::take(uint64_t key, bool refcounted,
                                          const ReleaseEvent &given,
                                          Record *found, SerialSource serials,
                                          uint64_t *serial) {
  uint64_t h = hash(key);
  Shard &shard = shardOf(key);
  shard.lock();
  ReleaseEvent release = given;
  release.serial = stamp(given.serial, shard.nextSerial, serials, serial);
  long index = findIndex(shard, key, h);
  TakeResult result = TakeResult::NotFound;
  if (index >= 0) {
    Slot &slot = shard.slots[index];
    *found = unpack(slot);
    if (refcounted && found->size > 1) {
      Record counted = *found;
      counted.size -= 1;
      slot = pack(counted);
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

std::vector<Record>
RecordTable::takeIf(const std::function<bool(const Record &)> &matches,
                    const ReleaseEvent &release) {
  std::vector<Record> taken;
  std::vector<uint64_t> keys;
  for (unsigned i = 0; i < kShards; ++i) {
    Shard &shard = Shards[i];
    shard.lock();
    uint64_t serial = stamp(release.serial, shard.nextSerial, nullptr, nullptr);
    // Keys first, then erase: backward-shift deletion moves slots.
    keys.clear();
    for (uint32_t s = 0; s < shard.capacity; ++s)
      if (shard.slots[s].key && unpack(shard.slots[s]).serial < serial &&
          matches(unpack(shard.slots[s])))
        keys.push_back(shard.slots[s].key);
    for (uint64_t key : keys) {
      long index = findIndex(shard, key, hash(key));
      if (index < 0)
        continue;
      taken.push_back(unpack(shard.slots[index]));
      remember(shard, shard.slots[index], release);
      eraseAt(shard, static_cast<uint32_t>(index));
    }
    noteChange();
    shard.unlock();
  }
  return taken;
}

void RecordTable::remember(Shard &shard, const Slot &ended,
                           const ReleaseEvent &release) {
  if (!shard.freed) {
    storeRelaxed(shard.freed, static_cast<FreedSlot *>(
                                  calloc(kFreedPerShard, sizeof(FreedSlot))));
    if (!shard.freed)
      return; // no history: a later double release reads as an illegal one
  }
  shard.freed[shard.freedNext++ % kFreedPerShard] = FreedSlot{
      ended,
      (release.serial & kMaxSerial) |
          (static_cast<uint64_t>(release.site & kMaxSite) << 40),
      static_cast<uint32_t>(release.api & kMaxApi) |
          (static_cast<uint32_t>(std::min(release.thread, kMaxThread)) << 10),
      0};
}

void RecordTable::restore(const Record &record, TakeResult taken,
                          const ReleaseEvent &release) {
  uint64_t h = hash(record.key);
  Shard &shard = shardOf(record.key);
  shard.lock();
  long index = findIndex(shard, record.key, h);
  if (taken == TakeResult::Dereferenced && index >= 0) {
    Record counted = unpack(shard.slots[index]);
    counted.size += 1;
    shard.slots[index] = pack(counted);
  } else if (taken == TakeResult::Taken) {
    if (index >= 0) {
      shard.slots[index] = pack(record);
    } else {
      if ((shard.count + 1) * 10ULL > shard.capacity * 9ULL)
        grow(shard);
      insertSlot(shard, pack(record), h);
    }
    uint64_t order = (release.serial & kMaxSerial) |
                     (static_cast<uint64_t>(release.site & kMaxSite) << 40);
    for (uint32_t i = 0; shard.freed && i < kFreedPerShard; ++i)
      if (shard.freed[i].acquired.key == record.key &&
          shard.freed[i].order == order)
        shard.freed[i].acquired.key = 0;
  }
  noteChange();
  shard.unlock();
}

FreedRecord RecordTable::unpackFreed(const FreedSlot &entry) {
  FreedRecord freed;
  freed.acquired = unpack(entry.acquired);
  freed.serial = entry.order & kMaxSerial;
  freed.site = static_cast<uint32_t>((entry.order >> 40) & kMaxSite);
  freed.api = static_cast<uint16_t>(entry.caller & kMaxApi);
  freed.thread = static_cast<uint16_t>((entry.caller >> 10) & kMaxThread);
  return freed;
}

template <typename Visit>
void RecordTable::forEachRemembered(const Shard &shard, Visit visit) {
  uint32_t remembered =
      shard.freed ? std::min(shard.freedNext, kFreedPerShard) : 0;
  for (uint32_t back = 1; back <= remembered; ++back) {
    const FreedSlot &entry =
        shard.freed[(shard.freedNext - back) % kFreedPerShard];
    // Key 0: forgotten (the release failed).
    if (entry.acquired.key && !visit(entry))
      return;
  }
}

bool RecordTable::findFreed(uint64_t key, FreedRecord *freed) const {
  Shard &shard = shardOf(key);
  shard.lock();
  bool hit = false;
  forEachRemembered(shard, [&](const FreedSlot &entry) {
    if (entry.acquired.key == key) {
      *freed = unpackFreed(entry);
      hit = true;
    }
    return !hit;
  });
  shard.unlock();
  return hit;
}

std::vector<FreedRecord> RecordTable::freedSnapshot() const {
  std::vector<FreedRecord> released;
  for (unsigned i = 0; i < kShards; ++i) {
    Shard &shard = Shards[i];
    shard.lock();
    forEachRemembered(shard, [&](const FreedSlot &entry) {
      released.push_back(unpackFreed(entry));
      return true;
    });
    shard.unlock();
  }
  return released;
}

bool RecordTable::takeChanged() const {
  // A change made after this (while the view is built from the snapshots)
  // sets the flag again: either its shard's snapshot is taken after the
  // change, or before it, and then the change's lock comes after ours and
  // it sees the flag clear.
  if (!Changed.load(std::memory_order_relaxed))
    return false;
  Changed.store(false, std::memory_order_relaxed);
  return true;
}

bool RecordTable::find(uint64_t key, Record *record) const {
  uint64_t h = hash(key);
  Shard &shard = shardOf(key);
  shard.lock();
  long index = findIndex(shard, key, h);
  if (index >= 0)
    *record = unpack(shard.slots[index]);
  shard.unlock();
  return index >= 0;
}

std::vector<Record> RecordTable::snapshot() const {
  std::vector<Record> records;
  records.reserve(size());
  for (unsigned i = 0; i < kShards; ++i) {
    Shard &shard = Shards[i];
    shard.lock();
    for (uint32_t s = 0; s < shard.capacity; ++s)
      if (shard.slots[s].key)
        records.push_back(unpack(shard.slots[s]));
    shard.unlock();
  }
  return records;
}

size_t RecordTable::size() const {
  size_t total = 0;
  for (unsigned i = 0; i < kShards; ++i)
    total += __atomic_load_n(&Shards[i].count, __ATOMIC_RELAXED);
  return total;
}

size_t RecordTable::memoryBytes() const {
  size_t bytes = sizeof(Shard) * kShards;
  for (unsigned i = 0; i < kShards; ++i) {
    bytes += static_cast<size_t>(
                 __atomic_load_n(&Shards[i].capacity, __ATOMIC_RELAXED)) *
             sizeof(Slot);
    if (__atomic_load_n(&Shards[i].freed, __ATOMIC_RELAXED))
      bytes += kFreedPerShard * sizeof(FreedSlot);
  }
  return bytes;
}

void RecordTable::lockAll() {
  for (unsigned i = 0; i < kShards; ++i)
    Shards[i].lock();
}

void RecordTable::unlockAll() {
  for (unsigned i = 0; i < kShards; ++i)
    Shards[i].unlock();
}

} // namespace msledger
