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
        view.records.push_back(unpack(shard.slots[s]));
    shard.unlock();
    for (Record &record : view.records)
      record.serial = widenSerial(record.serial, view.floor);
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
}

void RecordTable::unlockAll() {
  for (unsigned i = 0; i < kShards; ++i)
    Shards[i].unlock();
}

} // namespace msledger
