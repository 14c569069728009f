//===- record_table.cpp - The ledger's table of live records --------------===//
#include "record_table.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace msledger {

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

void RecordTable::grow(Shard &shard) {
  uint32_t capacity =
      std::max<uint32_t>(16, shard.capacity + shard.capacity / 4 + 1);
  Slot *old = shard.slots;
  uint32_t oldCapacity = shard.capacity;
  shard.slots = static_cast<Slot *>(calloc(capacity, sizeof(Slot)));
  if (!shard.slots)
    abort(); // out of host memory: nothing sensible left to do
  detail::storeRelaxed(shard.capacity, capacity);
  shard.growAt = static_cast<uint32_t>(capacity * 9ULL / 10);
  detail::storeRelaxed(shard.count, 0u);
  for (uint32_t i = 0; i < oldCapacity; ++i)
    if (old[i].key)
      insertSlot(shard, old[i], hash(old[i].key));
  free(old);
}

bool RecordTable::allocateFreed(Shard &shard) {
  detail::storeRelaxed(shard.freed, static_cast<FreedSlot *>(calloc(
                                        kFreedPerShard, sizeof(FreedSlot))));
  return shard.freed != nullptr;
}

std::vector<Record>
RecordTable::takeIf(const std::function<bool(const Record &)> &matches,
                    const ReleaseEvent &release) {
  std::vector<Record> taken;
  std::vector<uint64_t> keys;
  for (unsigned i = 0; i < kShards; ++i) {
    Shard &shard = Shards[i];
    shard.lock();
    uint64_t serial = stamp(shard, release.serial, SerialSource{}, nullptr);
    // Keys first, then erase: backward-shift deletion moves slots.
    keys.clear();
    for (uint32_t s = 0; s < shard.capacity; ++s)
      if (shard.slots[s].key) {
        Record record = unpackIn(shard, shard.slots[s]);
        if (record.serial < serial && matches(record))
          keys.push_back(shard.slots[s].key);
      }
    for (uint64_t key : keys) {
      long index = findIndex(shard, key, hash(key));
      if (index < 0)
        continue;
      taken.push_back(unpackIn(shard, shard.slots[index]));
      remember(shard, shard.slots[index], release);
      eraseAt(shard, static_cast<uint32_t>(index));
    }
    noteChange();
    shard.unlock();
  }
  return taken;
}

void RecordTable::restore(const Record &record, TakeResult taken,
                          const ReleaseEvent &release, SerialSource serials,
                          uint64_t *serial) {
  uint64_t h = hash(record.key);
  Shard &shard = shardOf(record.key);
  shard.lock();
  if (serials.take)
    stamp(shard, 0, serials, serial);
  long index = findIndex(shard, record.key, h);
  if (taken == TakeResult::Dereferenced && index >= 0) {
    Record counted = unpack(shard.slots[index]);
    counted.size += 1;
    shard.slots[index] = pack(counted);
  } else if (taken == TakeResult::Taken) {
    if (index >= 0) {
      shard.slots[index] = pack(record);
    } else {
      reserveOne(shard);
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

Record RecordTable::unpackIn(const Shard &shard, const Slot &slot) const {
  Record record = unpack(slot);
  record.serial = serialOf(slot, shard.nextSerial);
  return record;
}

uint64_t RecordTable::serialOf(const PackedRecord &packed,
                               uint64_t floor) const {
  uint64_t kept = packed.order & kMaxSerial;
  if (kept != kAgedMark)
    return widenSerial(kept, floor);
  std::lock_guard<std::mutex> lock(AgedMutex);
  auto aged = Aged.find(packed.key);
  // Not there: the record was taken and its entry dropped since; it was
  // older than kAgeLimit, which is all that can be said.
  return aged != Aged.end() ? aged->second.serial
                            : (floor > kAgeLimit ? floor - kAgeLimit : 0);
}

void RecordTable::age(uint64_t now) {
  for (unsigned i = 0; i < kShards; ++i) {
    Shard &shard = Shards[i];
    shard.lock();
    for (uint32_t s = 0; s < shard.capacity; ++s) {
      Slot &slot = shard.slots[s];
      uint64_t kept = slot.order & kMaxSerial;
      if (!slot.key || kept == kAgedMark)
        continue;
      uint64_t serial = widenSerial(kept, shard.nextSerial);
      if (now - serial < kAgeLimit || serial > now)
        continue;
      {
        std::lock_guard<std::mutex> lock(AgedMutex);
        Aged[slot.key] = AgedSerial{serial, 0};
      }
      slot.order = (slot.order & ~kMaxSerial) | kAgedMark;
    }
    // A release that old is forgotten: a double release of it reads as a
    // release of something never seen.
    for (uint32_t f = 0; shard.freed && f < kFreedPerShard; ++f) {
      FreedSlot &entry = shard.freed[f];
      if (entry.acquired.key &&
          now - widenSerial(entry.order & kMaxSerial, shard.nextSerial) >=
              kAgeLimit)
        entry.acquired.key = 0;
    }
    shard.unlock();
  }
  // Entries whose records are gone (taken, or replaced), dropped once no
  // record or remembered release is marked with their key at two passes in
  // a row: a record a failed release takes out and puts back (restore())
  // finds its entry still there.
  std::vector<uint64_t> keys;
  {
    std::lock_guard<std::mutex> lock(AgedMutex);
    for (const auto &entry : Aged)
      keys.push_back(entry.first);
  }
  for (uint64_t key : keys) {
    Shard &shard = shardOf(key);
    shard.lock();
    long index = findIndex(shard, key, hash(key));
    bool marked =
        index >= 0 && (shard.slots[index].order & kMaxSerial) == kAgedMark;
    forEachRemembered(shard, [&](const FreedSlot &entry) {
      marked = marked || (entry.acquired.key == key &&
                          (entry.acquired.order & kMaxSerial) == kAgedMark);
      return !marked;
    });
    shard.unlock();
    std::lock_guard<std::mutex> lock(AgedMutex);
    auto entry = Aged.find(key);
    if (entry == Aged.end())
      continue;
    if (marked)
      entry->second.missed = 0;
    else if (++entry->second.missed >= 2)
      Aged.erase(entry);
  }
}

FreedRecord RecordTable::unpackFreed(const Shard &shard,
                                     const FreedSlot &entry) const {
  FreedRecord freed;
  freed.serial = widenSerial(entry.order & kMaxSerial, shard.nextSerial);
  // Acquired before its release, and less than 2^40 serials before (age()
  // marks a record at 2^39): exact below the release, not below the floor.
  freed.acquired = unpack(entry.acquired);
  freed.acquired.serial = serialOf(entry.acquired, freed.serial + 1);
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
      *freed = unpackFreed(shard, entry);
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
      released.push_back(unpackFreed(shard, entry));
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
    *record = unpackIn(shard, shard.slots[index]);
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
        records.push_back(unpackIn(shard, shard.slots[s]));
    shard.unlock();
  }
  return records;
}

void RecordTable::forEachShard(
    const std::function<void(const ShardView &)> &visit) const {
  ShardView view;
  for (unsigned i = 0; i < kShards; ++i) {
    Shard &shard = Shards[i];
    view.index = i;
    view.records.clear();
    shard.lock();
    view.floor = shard.nextSerial;
    for (uint32_t s = 0; s < shard.capacity; ++s)
      if (shard.slots[s].key)
        view.records.push_back(unpackIn(shard, shard.slots[s]));
    shard.unlock();
    visit(view);
  }
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
  AgedMutex.lock(); // after the shards, as everywhere
}

void RecordTable::unlockAll() {
  AgedMutex.unlock();
  for (unsigned i = 0; i < kShards; ++i)
    Shards[i].unlock();
}

} // namespace msledger
