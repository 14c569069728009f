//===- range_allocator.h - Best-fit offset ranges ---------------*- C++ -*-===//
//
// Contract: hands out aligned, non-overlapping [offset, offset+size) ranges
// inside [0, capacity). Best fit, ties broken by the lowest offset, so the same
// sequence of calls always yields the same offsets. Freed neighbours coalesce.
// Every operation is O(log n). Not thread-safe: callers hold their own lock.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HAL_RANGE_ALLOCATOR_H
#define MSSIM_HAL_RANGE_ALLOCATOR_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace mssim {

class RangeAllocator {
public:
  RangeAllocator(uint64_t capacity, uint64_t alignment);

  /// Reserves `size` bytes (rounded up to the alignment); nullopt when no free
  /// range is large enough or size is zero.
  std::optional<uint64_t> allocate(uint64_t size);
  /// Reserves exactly [offset, offset + size) if it is free.
  bool allocateAt(uint64_t offset, uint64_t size);
  /// Releases the range that starts at `offset`; returns its rounded size, or
  /// nullopt if no range starts there.
  std::optional<uint64_t> release(uint64_t offset);
  /// The allocated range containing `offset`, as (start, rounded size).
  std::optional<std::pair<uint64_t, uint64_t>> find(uint64_t offset) const;

  uint64_t capacity() const { return Capacity; }
  uint64_t usedBytes() const { return Used; }
  size_t liveRanges() const { return Allocated.size(); }
  uint64_t roundUp(uint64_t size) const {
    return (size + Alignment - 1) / Alignment * Alignment;
  }

private:
  void insertFree(uint64_t offset, uint64_t size);
  void eraseFree(std::map<uint64_t, uint64_t>::iterator it);

  uint64_t Capacity;
  uint64_t Alignment;
  uint64_t Used = 0;
  std::map<uint64_t, uint64_t> FreeByOffset;          // offset -> size
  std::set<std::pair<uint64_t, uint64_t>> FreeBySize; // (size, offset)
  std::map<uint64_t, uint64_t> Allocated;             // offset -> size
};

} // namespace mssim

#endif
