//===- snapshots.h - Reading snapshots: diff and growth ---------*- C++ -*-===//
//
// Contract: `msledger diff A B` and `msledger growth DIR` read the JSON
// snapshots the ledger writes (snapshot_interval; format in
// runtime/README.md) and print, for diff, the sites whose live bytes grew
// from A to B, largest growth first; for growth, the sites whose live bytes
// keep rising over a series -- the leak suspects -- with their rate, fastest
// first. A site is its place (file:line and the calls that led there), its
// API and its level. Unreadable or malformed input is one message naming
// the file.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_SNAPSHOTS_H
#define MSLEDGER_LAUNCHER_SNAPSHOTS_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msledger {

struct Snapshot {
  std::string path;
  uint64_t sequence = 0;
  uint64_t timeMs = 0;
  struct Site {
    std::string place;  // "service.cpp:41 <- service.cpp:60"
    std::string callee; // "aclrtMalloc"
    std::string level;  // "cann", "device"
    uint64_t bytes = 0;
    uint64_t count = 0;
  };
  std::map<std::string, Site> sites; // by level, callee and place
  /// Live device memory (GM, DVPP) per level and device; device -1: not
  /// known (a ledger linked in without its interposers).
  std::map<std::string, std::map<int, uint64_t>> deviceBytes;
  /// The application's mstx marks and ranges so far (each snapshot holds
  /// all of them), in ms since the ledger started; end -1: a mark, or a
  /// range not ended yet.
  struct Annotation {
    std::string message;
    bool range = false;
    double startMs = 0;
    double endMs = -1;
  };
  std::vector<Annotation> annotations;
};

std::optional<Snapshot> parseSnapshot(const std::string &text,
                                      const std::string &path,
                                      std::string *error);
std::optional<Snapshot> readSnapshot(const std::string &path,
                                     std::string *error);
/// Every snapshot-*.json of `dir`, in sequence order; refused unless their
/// time rises with their sequence (the snapshots of one run).
std::optional<std::vector<Snapshot>> readSnapshots(const std::string &dir,
                                                   std::string *error);

/// The sites whose live memory grew, largest first, then each device's live
/// memory before and after.
std::string diffReport(const Snapshot &before, const Snapshot &after);
/// The run is cut into four parts of equal time (fewer, one per interval,
/// with fewer than five snapshots): a suspect's live bytes rose in at least
/// three quarters of the parts a snapshot fell in, and ended higher than
/// they began, however slow the leak against the snapshots' interval or
/// thinned the older snapshots; a cache that fills and then holds does
/// not.
std::string growthReport(const std::vector<Snapshot> &series);

} // namespace msledger

#endif
