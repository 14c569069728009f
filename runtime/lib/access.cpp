//===- access.cpp - Copies and sets checked against the ledger ------------===//
#include "access.h"

#include "catalog_table.h"

#include <algorithm>

namespace msledger {

namespace {

/// Memory whose handle is its address: every memory family's but a
/// handle-id one's. Pool regions are keyed in a namespace of their own
/// (keyInNameSpace); an index keeps records by address.
bool isAddressRecord(const Record &record) {
  const FamilyInfo &family = familyOf(record.api);
  return family.kind == Kind::Memory && family.handleIsPointer;
}

Record byAddress(Record record) {
  record.key = handleOf(record.key);
  return record;
}

bool contains(const Record &record, uint64_t address) {
  return address >= record.key && address - record.key < record.size;
}

/// Host memory (1), device memory (0), or neither (-1: virtual ranges).
int isHostSpace(Space space) {
  switch (space) {
  case Space::Host:
    return 1;
  case Space::GM:
  case Space::DVPP:
    return 0;
  case Space::Virtual:
  case Space::None:
    break;
  }
  return -1;
}

} // namespace

int sideIsDevice(int direction, bool write) {
  switch (direction) {
  case 0: // ACL_MEMCPY_HOST_TO_HOST
    return 0;
  case 1: // ACL_MEMCPY_HOST_TO_DEVICE
  case 5: // ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE
    return write ? 1 : 0;
  case 2: // ACL_MEMCPY_DEVICE_TO_HOST
    return write ? 0 : 1;
  case 3: // ACL_MEMCPY_DEVICE_TO_DEVICE
  case 6: // ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
  case 7: // ACL_MEMCPY_INTER_DEVICE_TO_DEVICE
    return 1;
  default: // ACL_MEMCPY_DEFAULT (4) decides by the addresses; none given
    return -1;
  }
}

const char *directionName(int direction) {
  static const char *const kNames[] = {"ACL_MEMCPY_HOST_TO_HOST",
                                       "ACL_MEMCPY_HOST_TO_DEVICE",
                                       "ACL_MEMCPY_DEVICE_TO_HOST",
                                       "ACL_MEMCPY_DEVICE_TO_DEVICE",
                                       "ACL_MEMCPY_DEFAULT",
                                       "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
                                       "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
                                       "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"};
  return direction >= 0 && direction < 8 ? kNames[direction] : "";
}

uint64_t RangeIndex::Range::start() const { return handleOf(key); }

void RangeIndex::refresh(const RecordTable &table) {
  // Taken before the snapshots: a change made while they are taken leaves
  // the index older than the table, and the next lookup rebuilds it.
  bool changed = table.takeChanged();
  if (Built && !changed)
    return;
  // Ranges only (20 bytes a live allocation with its parent); a hit reads
  // its record from the table.
  Live.clear();
  for (const Record &record : table.snapshot())
    if (isAddressRecord(record))
      Live.push_back(Range{record.key, record.size});
  // At one address the larger (a heap's block) before the smaller (its
  // first region).
  std::sort(Live.begin(), Live.end(), [](const Range &a, const Range &b) {
    return a.start() < b.start() || (a.start() == b.start() && a.size > b.size);
  });
  // Each range's parent: the innermost earlier one its start lies in (a
  // region's heap block), found with a stack of the ranges still open.
  Parent.assign(Live.size(), -1);
  std::vector<int32_t> open;
  for (size_t i = 0; i < Live.size(); ++i) {
    while (!open.empty() && !Live[open.back()].contains(Live[i].start()))
      open.pop_back();
    if (!open.empty())
      Parent[i] = open.back();
    open.push_back(static_cast<int32_t>(i));
  }
  Released.clear();
  for (FreedRecord freed : table.freedSnapshot())
    if (isAddressRecord(freed.acquired)) {
      freed.acquired = byAddress(freed.acquired);
      Released.push_back(freed);
    }
  std::sort(Released.begin(), Released.end(),
            [](const FreedRecord &a, const FreedRecord &b) {
              return a.acquired.key < b.acquired.key;
            });
  LargestReleased = 0;
  for (const FreedRecord &freed : Released)
    LargestReleased = std::max(LargestReleased, freed.acquired.size);
  Built = true;
}

bool RangeIndex::find(const RecordTable &table, uint64_t address, Record *live,
                      FreedRecord *released, bool *freed) {
  std::lock_guard<std::mutex> lock(Mutex);
  refresh(table);
  // The innermost live record containing `address` is the one that starts
  // last at or before it, or one of that one's parents (records nest, as
  // regions in a heap's block, or lie apart): a walk as deep as the nesting.
  bool foundLive = false;
  auto end = std::upper_bound(
      Live.begin(), Live.end(), address,
      [](uint64_t value, const Range &r) { return value < r.start(); });
  for (int32_t i = static_cast<int32_t>(end - Live.begin()) - 1; i >= 0;
       i = Parent[i])
    if (Live[i].contains(address)) {
      // Released since the index was built: as if not found (the next
      // lookup rebuilds it).
      foundLive = table.find(Live[i].key, live);
      live->key = Live[i].start();
      break;
    }
  // The most recent release of memory containing `address` -- releases
  // overlap, so all those starting within the largest one's size before it
  // are looked at -- if it came after the live record was made inside it (a
  // region released in a heap still registered).
  bool foundFreed = false;
  auto releasedEnd = std::upper_bound(Released.begin(), Released.end(), address,
                                      [](uint64_t value, const FreedRecord &r) {
                                        return value < r.acquired.key;
                                      });
  for (auto it = releasedEnd; it != Released.begin();) {
    --it;
    if (address - it->acquired.key >= LargestReleased)
      break;
    if (contains(it->acquired, address) &&
        (!foundFreed || it->serial > released->serial)) {
      *released = *it;
      foundFreed = true;
    }
  }
  if (foundFreed && foundLive &&
      (released->acquired.key < live->key ||
       released->acquired.serial < live->serial))
    foundFreed = false; // handed out again since
  *freed = foundFreed;
  return foundLive || foundFreed;
}

bool checkSide(const RecordTable &table, RangeIndex &index, uint64_t address,
               uint64_t size, bool write, int direction, bool nested,
               AccessFinding *finding) {
  if (address == 0 || size == 0)
    return false;
  Record live;
  FreedRecord released;
  bool freed = false;
  // A buffer's start: one lookup, no index -- unless records may nest, when
  // a region may start where its heap's block does.
  bool exact = !nested && table.find(address, &live) && isAddressRecord(live) &&
               size <= live.size;
  if (!exact && !index.find(table, address, &live, &released, &freed))
    return false;
  finding->write = write;
  finding->start = address;
  finding->size = size;
  if (freed) {
    finding->problem = AccessProblem::UseAfterFree;
    finding->address = address;
    finding->badBytes = size;
    finding->acquired = released.acquired;
    finding->freed = true;
    finding->release = released;
    return true;
  }
  finding->acquired = live;
  uint64_t end = live.key + live.size;
  if (size > end - address) {
    finding->problem = AccessProblem::OutOfBounds;
    finding->address = end;
    finding->badBytes = size - (end - address);
    return true;
  }
  int host = isHostSpace(static_cast<Space>(live.space));
  int device = sideIsDevice(direction, write);
  if (host >= 0 && device >= 0 && host == device) {
    finding->problem = AccessProblem::WrongDirection;
    finding->address = address;
    finding->badBytes = size;
    return true;
  }
  return false;
}

} // namespace msledger
