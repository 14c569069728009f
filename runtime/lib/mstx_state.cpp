//===- mstx_state.cpp - The mstx heaps and annotations --------------------===//
#include "mstx_state.h"

namespace msledger {

uintptr_t HeapRegistry::registerHeap(uint64_t base, uint64_t size) {
  Any.store(true, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(Mutex);
  Heaps.push_back(Heap{base, size, true});
  return Heaps.size();
}

void HeapRegistry::unregisterHeap(uintptr_t heap) {
  std::lock_guard<std::mutex> lock(Mutex);
  if (heap >= 1 && heap <= Heaps.size())
    Heaps[heap - 1].live = false;
}

bool HeapRegistry::heapRange(uintptr_t heap, uint64_t *base,
                             uint64_t *size) const {
  std::lock_guard<std::mutex> lock(Mutex);
  if (heap < 1 || heap > Heaps.size() || !Heaps[heap - 1].live)
    return false;
  *base = Heaps[heap - 1].base;
  *size = Heaps[heap - 1].size;
  return true;
}

bool HeapRegistry::inHeap(uintptr_t heap, uint64_t address,
                          uint64_t size) const {
  uint64_t base, heapSize;
  return heapRange(heap, &base, &heapSize) && address >= base &&
         size <= heapSize && address - base <= heapSize - size;
}

std::vector<uint64_t> HeapRegistry::liveBases() const {
  std::vector<uint64_t> bases;
  std::lock_guard<std::mutex> lock(Mutex);
  for (const Heap &heap : Heaps)
    if (heap.live)
      bases.push_back(heap.base);
  return bases;
}

bool Annotations::keep(Annotation annotation) {
  bool full;
  {
    std::lock_guard<std::mutex> lock(Mutex);
    full = Kept.size() >= kMaxAnnotations;
    if (!full)
      Kept.push_back(std::move(annotation));
  }
  // Said once, outside the lock (fork takes the output's lock first).
  if (full && !FullSaid.exchange(true) && Say)
    Say("====== WARNING: more than " + std::to_string(kMaxAnnotations) +
        " mstx marks and ranges: later ones are not kept\n");
  return !full;
}

void Annotations::mark(const std::string &message) {
  Annotation mark;
  mark.message = message;
  mark.startMs = Clock.nowNs() / 1000000;
  keep(std::move(mark));
}

uint64_t Annotations::rangeStart(const std::string &message) {
  Annotation range;
  range.message = message;
  range.range = true;
  range.startMs = Clock.nowNs() / 1000000;
  range.id = ++NextId;
  uint64_t id = range.id;
  keep(std::move(range));
  return id;
}

void Annotations::rangeEnd(uint64_t id) {
  std::lock_guard<std::mutex> lock(Mutex);
  for (auto it = Kept.rbegin(); it != Kept.rend(); ++it)
    if (it->range && it->id == id && it->endMs < 0) {
      it->endMs = static_cast<int64_t>(Clock.nowNs() / 1000000);
      return;
    }
}

std::vector<Annotation> Annotations::list() const {
  std::lock_guard<std::mutex> lock(Mutex);
  return Kept;
}

} // namespace msledger
