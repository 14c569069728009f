//===- access.h - Copies and sets checked against the ledger ---*- C++ -*-===//
//
// Contract: the check of one copy or set (a catalog API of role "access":
// aclrtMemcpy*, aclrtMemset*, drvMemcpy, drvMemsetD8, halMemcpy2D) against
// what a level's RecordTable knows, before the call runs:
//
//   * each side (the range written, the range read) is looked up in the
//     table's memory records: first by its exact address (one lock, the
//     common case of a copy in bounds from a buffer's start), then in a
//     RangeIndex -- the live records' ranges (20 bytes a live allocation,
//     made when a copy first needs them) and the remembered releases, sorted by
//     address -- which is rebuilt only when the table changed since
//     (RecordTable::takeChanged()), so a loop of copies between buffers it
//     allocated once pays a binary search;
//   * a side inside a live allocation that runs past its end is out of
//     bounds; one inside memory released since (and not handed out again)
//     is a use after free; one whose memory is host memory where the call's
//     aclrtMemcpyKind says device memory, or the reverse, goes the wrong
//     way. Memory no record covers (a std::vector, a stack buffer, memory of
//     an allocator the catalog does not know) is not judged;
//   * the allocation and the free are those of the innermost record: a
//     region of a registered heap before the heap's block.
//
// Nothing here takes a serial, writes, or reads options: Ledger::access()
// does that with the findings.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_ACCESS_H
#define MSLEDGER_RUNTIME_ACCESS_H

#include "catalog.h"
#include "record_table.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace msledger {

/// What a copy or set touches: msledger_record_access's arguments.
struct AccessRanges {
  uint64_t write = 0, writeSize = 0;
  uint64_t read = 0, readSize = 0;
  int direction = -1; // an aclrtMemcpyKind; -1: none (a set, a driver copy)
};

enum class AccessProblem { UseAfterFree, OutOfBounds, WrongDirection };

struct AccessFinding {
  AccessProblem problem = AccessProblem::OutOfBounds;
  bool write = false;
  uint64_t address = 0;  // the first byte at fault
  uint64_t badBytes = 0; // how many bytes are at fault
  uint64_t start = 0;    // the side's whole range
  uint64_t size = 0;
  Record acquired; // the allocation touched
  bool freed = false;
  FreedRecord release; // its release, for a use after free
};

/// Whether the memory on one side of a copy of `direction` (an
/// aclrtMemcpyKind) is device memory: 1 yes, 0 host memory, -1 either
/// (ACL_MEMCPY_DEFAULT, no direction, a kind it does not know).
int sideIsDevice(int direction, bool write);
/// "ACL_MEMCPY_HOST_TO_DEVICE", ...; "" for a kind it does not know.
const char *directionName(int direction);

/// The memory records of one RecordTable by address, for lookups of the
/// record that contains an address. Thread-safe.
class RangeIndex {
public:
  /// The innermost live memory record containing `address`, or else the
  /// most recent remembered release of memory containing it (true in
  /// *freed). False if neither. The records' keys are their addresses.
  bool find(const RecordTable &table, uint64_t address, Record *live,
            FreedRecord *released, bool *freed);
  /// Around fork(): taken before the table's shard locks (a lookup takes
  /// them while holding this one).
  void lock() { Mutex.lock(); }
  void unlock() { Mutex.unlock(); }

private:
  void refresh(const RecordTable &table);

  std::mutex Mutex;
  bool Built = false;
  /// A live record's key in the table and its size; its address is the
  /// key's handle (handleOf, catalog_table.h).
  struct Range {
    uint64_t key, size;
    uint64_t start() const;
    bool contains(uint64_t address) const {
      return address >= start() && address - start() < size;
    }
  };
  std::vector<Range> Live;           // by start
  std::vector<int32_t> Parent;       // of each of Live; -1: none
  std::vector<FreedRecord> Released; // by the key of what they ended
  uint64_t LargestReleased = 0;      // bytes
};

/// The finding of one side of an access, if it has one. `nested`: records
/// may nest (a heap is registered), so the lookup by exact address, which
/// would find a heap's block before a region at its start, is skipped.
bool checkSide(const RecordTable &table, RangeIndex &index, uint64_t address,
               uint64_t size, bool write, int direction, bool nested,
               AccessFinding *finding);

} // namespace msledger

#endif
