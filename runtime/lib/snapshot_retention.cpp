//===- snapshot_retention.cpp - Which snapshots a long run keeps ----------===//
#include "snapshot_retention.h"

#include <algorithm>

namespace msledger {

std::vector<uint64_t> SnapshotRetention::written(uint64_t sequence) {
  Kept.push_back(sequence);
  std::vector<uint64_t> removed;
  while (Kept.size() > Keep) {
    // The interior snapshot of least worth: the span it alone covers, per
    // snapshot of age (compared as cross products: no rounding).
    size_t least = 1;
    for (size_t i = 2; i + 1 < Kept.size(); ++i) {
      unsigned __int128 span = Kept[i + 1] - Kept[i - 1];
      unsigned __int128 leastSpan = Kept[least + 1] - Kept[least - 1];
      unsigned __int128 age = sequence - Kept[i] + 1;
      unsigned __int128 leastAge = sequence - Kept[least] + 1;
      if (span * leastAge < leastSpan * age)
        least = i;
    }
    removed.push_back(Kept[least]);
    Kept.erase(Kept.begin() + static_cast<std::ptrdiff_t>(least));
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

} // namespace msledger
