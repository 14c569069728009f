//===- transport.h - HCCL ranks meeting in shared memory --------*- C++ -*-===//
//
// Contract: the ranks of one communicator -- processes on this machine, or
// threads of one process (HcclCommInitAll) -- meet in one POSIX shared
// memory segment (/dev/shm/mssim-hccl-<uid>-<key>) guarded by a
// process-shared, robust mutex and condition variable. The segment holds
// who has joined (each rank's pid), a barrier, one staging slot per rank for
// the collectives and one mailbox per ordered pair of ranks for send and
// receive.
//
// Joining waits, at most the connect timeout, for every rank to join; the
// last to join unlinks the name (the ranks keep their mappings), so nothing
// stays in /dev/shm once a communicator is complete. A rank that gives up
// unlinks it too, so a late rank starts afresh and times out in turn. A
// segment left by a crashed run (a joined rank whose process is gone) is
// replaced by the next rank to open it. Every wait after joining is bounded
// by the execution timeout and fails at once when a peer process has died
// or a peer has failed the group.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HCCL_TRANSPORT_H
#define MSSIM_HCCL_TRANSPORT_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace mssim {
namespace hccl {

/// The most ranks one communicator may have (each is a process or thread on
/// this machine).
constexpr uint32_t kMaxRanks = 32;
/// Bytes each rank stages per step of a collective, and per message of a
/// send (sparse in /dev/shm: only what is touched takes memory).
constexpr size_t kSlotBytes = 1u << 20;
constexpr size_t kMailboxBytes = 256u << 10;

/// How a wait ended.
enum class Outcome { Done, TimedOut, PeerLost, Broken };

struct Segment;

/// One rank's view of a group's segment.
class Group {
public:
  ~Group();
  Group(const Group &) = delete;
  Group &operator=(const Group &) = delete;

  /// Opens (or creates) the segment named by `key` for `ranks` ranks and
  /// registers `rank` with this process's pid. Fails (null, *outcome) if the
  /// segment is for another number of ranks or the rank is taken
  /// (Outcome::Broken).
  static std::unique_ptr<Group> open(const std::string &key, uint32_t ranks,
                                     uint32_t rank, Outcome *outcome);

  /// Waits until every rank has joined or `timeout` has passed; the last
  /// to join unlinks the segment's name, a rank that gives up unlinks it
  /// too.
  Outcome waitForAll(std::chrono::milliseconds timeout);

  /// Every rank's arrival (a barrier); `timeout` 0 waits for ever.
  Outcome barrier(std::chrono::milliseconds timeout);

  /// This rank's staging slot and another's (kSlotBytes each).
  uint8_t *slot(uint32_t rank);

  /// Sends `bytes` to `peer`'s mailbox from this rank, in kMailboxBytes
  /// pieces; receives `bytes` from `peer` into `data`. A receive whose size
  /// is not the send's fails both (Outcome::Broken).
  Outcome send(uint32_t peer, const uint8_t *data, uint64_t bytes,
               std::chrono::milliseconds timeout);
  Outcome receive(uint32_t peer, uint8_t *data, uint64_t bytes,
                  std::chrono::milliseconds timeout);

  /// Marks the group failed: every rank's waits fail from now on.
  void breakGroup();
  /// Leaves: this rank's mapping goes; the name is unlinked if still there.
  void leave();

  uint32_t ranks() const { return Ranks; }
  uint32_t rank() const { return Rank; }

  /// The /dev/shm name of `key`.
  static std::string nameOf(const std::string &key);

private:
  Group() = default;

  std::string Name;
  Segment *Shared = nullptr;
  size_t Bytes = 0;
  uint32_t Ranks = 0;
  uint32_t Rank = 0;
};

/// Removes segments of this user's dead root infos: those whose maker
/// process (in the name) is gone and that no live rank holds.
void sweepStaleSegments();

} // namespace hccl
} // namespace mssim

#endif
