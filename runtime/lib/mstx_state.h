//===- mstx_state.h - The mstx heaps and annotations ------------*- C++ -*-===//
//
// Contract: what the application tells the ledger through mstx (and
// msledger_heap_register) besides its calls:
//
//   * HeapRegistry: memory pools' backing blocks. A heap is named by an
//     index + 1 (never 0), handed out by registerHeap and never reused;
//     unregisterHeap ends it. While a heap is registered its block is left
//     out of the leak report (its regions are tracked instead) and copies
//     may land inside records nested in it (anyHeap(), access.h).
//   * Annotations: the application's marks (a moment) and ranges (an
//     interval, ended by its id), in the order made, with times in ms since
//     the clock's start; at most kMaxAnnotations are kept, and the first one
//     refused is said once through `note`.
//
// Both are thread-safe; forkPrepare/forkParent take and release their locks
// around fork().
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_MSTX_STATE_H
#define MSLEDGER_RUNTIME_MSTX_STATE_H

#include "events.h"
#include "serial_clock.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace msledger {

class HeapRegistry {
public:
  uintptr_t registerHeap(uint64_t base, uint64_t size);
  void unregisterHeap(uintptr_t heap);
  /// The base and size of a registered heap; false if it is not one.
  bool heapRange(uintptr_t heap, uint64_t *base, uint64_t *size) const;
  /// Whether [address, address + size) lies in the registered `heap`.
  bool inHeap(uintptr_t heap, uint64_t address, uint64_t size) const;
  /// The bases of the heaps registered now.
  std::vector<uint64_t> liveBases() const;
  /// Whether a heap was ever registered (records may nest).
  bool anyHeap() const { return Any.load(std::memory_order_relaxed); }
  void forkPrepare() { Mutex.lock(); }
  void forkParent() { Mutex.unlock(); }

private:
  struct Heap {
    uint64_t base = 0, size = 0;
    bool live = false;
  };
  mutable std::mutex Mutex;
  std::vector<Heap> Heaps;
  std::atomic<bool> Any{false};
};

class Annotations {
public:
  static constexpr size_t kMaxAnnotations = 10000;
  using Note = std::function<void(const std::string &line)>;
  Annotations(const SerialClock &clock, Note note)
      : Clock(clock), Say(std::move(note)) {}
  void mark(const std::string &message);
  /// A range's id (never 0), for rangeEnd.
  uint64_t rangeStart(const std::string &message);
  void rangeEnd(uint64_t id);
  /// Every annotation kept, in the order started.
  std::vector<Annotation> list() const;
  void forkPrepare() { Mutex.lock(); }
  void forkParent() { Mutex.unlock(); }

private:
  /// Keeps `annotation` unless there are kMaxAnnotations already.
  bool keep(Annotation annotation);
  const SerialClock &Clock;
  Note Say;
  mutable std::mutex Mutex;
  std::vector<Annotation> Kept;
  std::atomic<uint64_t> NextId{0};
  std::atomic<bool> FullSaid{false};
};

} // namespace msledger

#endif
