//===- snapshot_retention.h - Which snapshots a long run keeps --*- C++ -*-===//
//
// Contract: SnapshotRetention keeps the sequence numbers of the snapshots a
// process wrote (snapshot_keep of them at most) and says which to remove
// after each new one: never the first or the latest; otherwise the one
// whose removal loses least, where a snapshot is worth the span it alone
// covers (its neighbours' distance) measured against its age (how many
// snapshots were written since). Spans therefore grow with age: a run of
// any length keeps its start, its latest moments densely and its past
// geometrically thinner -- what `msledger growth` and `timeline` need of a
// week-long service. Deterministic (the older one of equal worth goes);
// O(kept) per snapshot; not thread-safe (the monitor thread alone writes
// snapshots).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_SNAPSHOT_RETENTION_H
#define MSLEDGER_RUNTIME_SNAPSHOT_RETENTION_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace msledger {

class SnapshotRetention {
public:
  /// Keeps at most `keep` (at least 2) snapshots.
  explicit SnapshotRetention(size_t keep) : Keep(keep < 2 ? 2 : keep) {}

  /// Snapshot `sequence` (above every one before) was written: the
  /// sequences to remove now, oldest first.
  std::vector<uint64_t> written(uint64_t sequence);
  /// The sequences kept, in order.
  const std::vector<uint64_t> &kept() const { return Kept; }
  /// Forgets them all (a forked child's snapshots go elsewhere).
  void clear() { Kept.clear(); }

private:
  size_t Keep;
  std::vector<uint64_t> Kept;
};

} // namespace msledger

#endif
