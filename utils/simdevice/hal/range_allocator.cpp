//===- range_allocator.cpp - Best-fit allocator over an offset range ------===//
#include "range_allocator.h"

namespace mssim {

RangeAllocator::RangeAllocator(uint64_t capacity, uint64_t alignment)
    : Capacity(capacity / alignment * alignment), Alignment(alignment) {
  if (Capacity)
    insertFree(0, Capacity);
}

void RangeAllocator::insertFree(uint64_t offset, uint64_t size) {
  FreeByOffset.emplace(offset, size);
  FreeBySize.emplace(size, offset);
}

void RangeAllocator::eraseFree(std::map<uint64_t, uint64_t>::iterator it) {
  FreeBySize.erase({it->second, it->first});
  FreeByOffset.erase(it);
}

std::optional<uint64_t> RangeAllocator::allocate(uint64_t size) {
  if (size == 0 || size > Capacity)
    return std::nullopt;
  uint64_t rounded = roundUp(size);
  auto best = FreeBySize.lower_bound({rounded, 0});
  if (best == FreeBySize.end())
    return std::nullopt;
  uint64_t offset = best->second;
  uint64_t freeSize = best->first;
  eraseFree(FreeByOffset.find(offset));
  if (freeSize > rounded)
    insertFree(offset + rounded, freeSize - rounded);
  Allocated.emplace(offset, rounded);
  Used += rounded;
  return offset;
}

bool RangeAllocator::allocateAt(uint64_t offset, uint64_t size) {
  if (size == 0 || offset % Alignment != 0)
    return false;
  uint64_t rounded = roundUp(size);
  auto it = FreeByOffset.upper_bound(offset);
  if (it == FreeByOffset.begin())
    return false;
  --it;
  uint64_t freeStart = it->first, freeSize = it->second;
  if (offset + rounded > freeStart + freeSize || offset + rounded < offset)
    return false;
  eraseFree(it);
  if (offset > freeStart)
    insertFree(freeStart, offset - freeStart);
  if (freeStart + freeSize > offset + rounded)
    insertFree(offset + rounded, freeStart + freeSize - offset - rounded);
  Allocated.emplace(offset, rounded);
  Used += rounded;
  return true;
}

std::optional<uint64_t> RangeAllocator::release(uint64_t offset) {
  auto it = Allocated.find(offset);
  if (it == Allocated.end())
    return std::nullopt;
  uint64_t size = it->second;
  Allocated.erase(it);
  Used -= size;
  uint64_t start = offset, end = offset + size;
  auto next = FreeByOffset.lower_bound(end);
  if (next != FreeByOffset.end() && next->first == end) {
    end += next->second;
    eraseFree(next);
  }
  auto prev = FreeByOffset.lower_bound(start);
  if (prev != FreeByOffset.begin()) {
    --prev;
    if (prev->first + prev->second == start) {
      start = prev->first;
      eraseFree(prev);
    }
  }
  insertFree(start, end - start);
  return size;
}

std::optional<std::pair<uint64_t, uint64_t>>
RangeAllocator::find(uint64_t offset) const {
  auto it = Allocated.upper_bound(offset);
  if (it == Allocated.begin())
    return std::nullopt;
  --it;
  if (offset >= it->first + it->second)
    return std::nullopt;
  return std::make_pair(it->first, it->second);
}

} // namespace mssim
