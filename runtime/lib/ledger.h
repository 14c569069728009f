//===- ledger.h - The ledger: live records and their events ----*- C++ -*-===//
//
// Contract: the bookkeeping of tracked calls. A Ledger is built from an
// Options value (never from the environment: process.h makes the process's
// one) and an observer, and is made of components of its own: a
// RecordTable per level, a SerialClock (serial_clock.h), a SiteRegistry (the
// sites and chains of its events), the mstx heaps and annotations
// (mstx_state.h) and the journal (journal.h). It reports nothing itself:
//
//   * acquire() and a release's two halves (beginRelease() before the real
//     call, endRelease() with its outcome) record events at the level of the
//     API's family, when that level is tracked (check_device_heap,
//     check_cann_heap): every recorded event gets a serial from the clock,
//     unique in the ledger and increasing along each thread and along each
//     key; records live in a RecordTable per level, keyed by address
//     (memory families share one namespace, so a release through the wrong
//     memory family is seen) or by namespaced handle (catalog_table.h);
//   * a bad release (illegal, double, mismatched) and a bad copy or set
//     (access(), access.h) is an ErrorEvent handed to the observer as it
//     happens: the observer says whether it is kept (false: suppressed);
//     kept ones are counted (errorCount()) and kept in order (errors());
//   * a release the catalog marks as releasing other families implicitly
//     (aclrtResetDevice: the device's streams and contexts; aclFinalize:
//     what the runtime still holds) takes their records out, remembered as
//     released by that call (implicitReleases()); a handle handed out again
//     is then new;
//   * liveRecords() is what a report of this process lists: the live
//     records, less a registered heap's block (its regions are tracked
//     instead) and what a forked child inherited, plus what was released
//     implicitly if implicit_release_is_leak;
//   * every event, site and chain also goes to the journal when
//     journal_path names one (opened by start(); a journal that cannot be
//     opened is said on stderr, as the process has no log yet), and
//     checkpointJournal() writes what is live into it (journal.h);
//   * fork(): forkPrepare/forkParent/forkChild around it (process.cpp).
//     The child keeps the parent's records but lists only what it acquired
//     itself; its serials continue from the parent's. At its first
//     acquisition it tells the observer (forkedChildStarts) and opens a
//     journal of its own (where the path differs from the parent's) before
//     recording it -- a child that only exec()s is no process of the job;
//   * the observer hears, besides errors, the lines of what the ledger could
//     not do (too many sites, a forked child keeping no journal).
//
// The interposers reach the process's ledger through process.h.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_LEDGER_H
#define MSLEDGER_RUNTIME_LEDGER_H

#include "access.h"
#include "catalog_table.h"
#include "events.h"
#include "journal.h"
#include "msledger/msledger.h"
#include "mstx_state.h"
#include "options.h"
#include "record_table.h"
#include "serial_clock.h"
#include "site_registry.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace msledger {

/// What a ledger tells the one who reports it (reporter.h).
class LedgerObserver {
public:
  virtual ~LedgerObserver() = default;
  /// A bad release or access as it happens: true to keep it (reported),
  /// false if it is suppressed. Called with none of the ledger's locks held.
  virtual bool error(const ErrorEvent &error) = 0;
  /// A line saying what the ledger could not do, once per cause.
  virtual void note(const std::string &line) = 0;
  /// A forked child's first event, before it is recorded.
  virtual void forkedChildStarts() = 0;
};

/// A release between its two halves: taken from the table before the real
/// call, settled after it. Made on every release, so making one writes
/// `active` and the event's few defaults alone: beginRelease() writes every
/// other field endRelease() reads when it makes the release active (zeroing
/// the whole, as default member initializers would, was a sixth of the
/// ledger's time per pair).
struct PendingRelease {
  PendingRelease() {}
  bool active = false;
  unsigned api;
  uint64_t handle;
  uint64_t key;
  ReleaseEvent event;
  RecordTable::TakeResult taken;
  bool releasesOthers; // the API releases others implicitly (catalog)
  bool reference;      // it drops a reference retain() added, not the record
  PackedRecord record; // as found; read only when taken is not NotFound
};

class Ledger {
public:
  /// `observer` may be null: every error is kept, nothing said.
  explicit Ledger(const Options &options, LedgerObserver *observer = nullptr);
  /// Opens the journal, if journal_path names one (its failure said on
  /// stderr); before the first event. Without it, nothing is journaled.
  void start();
  Ledger(const Ledger &) = delete;
  Ledger &operator=(const Ledger &) = delete;

  const Options &options() const { return Opts; }
  bool tracking(Level level) const { return Enabled[static_cast<int>(level)]; }

  /// `device`: the device memory was allocated on, where the caller knows
  /// it (a driver flag); -1 when it does not.
  void acquire(unsigned api, uint64_t handle, uint64_t size, Space space,
               const msledger_site *site, int32_t device = -1);
  /// A copy or set through `api` (role "access") about to touch `ranges`:
  /// checked against the memory of the API's level (access.h) when that
  /// level is tracked and check_access is on; each distinct finding (call
  /// site, problem, side, allocation) is reported once.
  void access(unsigned api, const msledger_site *site,
              const AccessRanges &ranges);
  /// Before the real release: takes the record out (see RecordTable::take).
  void beginRelease(unsigned api, uint64_t handle, const msledger_site *site,
                    PendingRelease *pending);
  /// A retain (catalog role "retain") of a live handle. The operator rule
  /// (catalog.h): it marks an executor repeatable; consume() is an
  /// operator's phase 2, which releases an executor unless it was retained
  /// (whatever the call's outcome: the real framework destroys it either
  /// way), and a release of the family forgets the mark. Any other family:
  /// one more reference (aclrtMemRetainAllocationHandle), which the next
  /// release drops instead of the record; neither is journaled (the record
  /// is live in the journal while it is here). A handle with no live record
  /// is, for an executor, left alone; in any other family, handed out again
  /// (physical memory released while mapped, whose mapping a retain takes
  /// a handle of again): acquired anew at `site`, of the size it had when
  /// it was released if the table remembers it.
  void retain(unsigned api, uint64_t handle,
              const msledger_site *site = nullptr);
  /// An operator's phase 1 (`api`, the rule's) succeeded at `site`: it made
  /// `executor` (0: none), acquired, and asked for `workspaceSize` bytes of
  /// workspace. The thread's next device (GM) allocation of that many bytes
  /// at the CANN level, and of the ACL layer's padding of it at the device
  /// level ((size + 32 + 31) / 32 * 32 behind aclrtMalloc, (size + 31) / 32 *
  /// 32 behind aclrtMallocAlign32), before the next phase 1 or phase 2 on
  /// the thread, is the operator's workspace: liveRecords() names it
  /// (Record::workspaceOf) until it is released.
  void operatorPrepared(unsigned api, uint64_t executor, uint64_t workspaceSize,
                        const msledger_site *site);
  void consume(unsigned api, uint64_t handle, const msledger_site *site);
  /// After it: puts the record back if the call failed, reports errors.
  /// Inline: its common case, a successful release of what its family
  /// acquired that releases nothing implicitly, is a few tests (and the
  /// journal's event).
  void endRelease(PendingRelease &pending, bool succeeded) {
    if (!pending.active)
      return;
    pending.active = false;
    if (__builtin_expect(pending.reference, 0)) {
      settleReference(pending, succeeded);
      return;
    }
    if (succeeded && pending.taken == RecordTable::TakeResult::Taken &&
        !pending.releasesOthers && releasesOwnFamily(pending)) {
      if (Journal_.active())
        journalRelease(pending);
      return;
    }
    settleRelease(pending, succeeded);
  }

  /// The journal (journal_path): the monitor prefaults it, the exit report
  /// marks it exited; benchmarks pause it.
  Journal &journal() { return Journal_; }
  bool journaling() const { return Journal_.active(); }
  /// Writes a checkpoint of the journal (journal.h): the sites and chains,
  /// each table's live records shard by shard with the shards' floors, and
  /// the implicit releases if they count as leaks. The monitor's, when the
  /// journal says one is due; an implicit release waits for it, an event
  /// at most for one shard's copy.
  void checkpointJournal();
  uint64_t errorCount() const { return Errors.load(std::memory_order_relaxed); }
  std::vector<ErrorEvent> errors() const;
  /// What calls released implicitly at `level`, in order (this process's).
  std::vector<ImplicitReleaseEvent> implicitReleases(Level level) const;
  /// The live records of `level` this process is to report (above).
  std::vector<Record> liveRecords(Level level) const;

  const RecordTable &table(Level level) const {
    return Tables[static_cast<int>(level)];
  }
  const SerialClock &clock() const { return Clock; }
  /// The site of an event: id 0 none, then sites, then chains.
  const SiteRegistry &sites() const { return Sites; }
  SiteTable siteTable() const { return Sites.table(); }
  HeapRegistry &heaps() { return Heaps; }
  Annotations &annotations() { return Notes; }
  const Annotations &annotations() const { return Notes; }
  /// Records with serials below this came from the parent before fork().
  uint64_t inheritedBelow() const { return InheritedBelow; }
  size_t memoryBytes() const;

  void forkPrepare();
  void forkParent();
  void forkChild();

private:
  void reportError(ErrorEvent error);
  /// Where the tables' events take their serials: the clock.
  RecordTable::SerialSource clockSerials();
  void say(const std::string &line) {
    if (Observer)
      Observer->note(line);
  }
  /// The first event of the process (or of a forked child): starts the
  /// clock's thread and, in a forked child, its reports and journal.
  void firstEvent();
  // The journal's events, apart from the event paths (which then keep their
  // records in registers).
  void journalAcquire(int level, const PackedRecord &packed, uint64_t serial);
  void journalRelease(const PendingRelease &pending);
  /// Whether the record a release found (taken is not NotFound) was
  /// acquired in the releasing API's family, or in one released as it.
  static bool releasesOwnFamily(const PendingRelease &pending) {
    unsigned acquired = apiInfo(RecordTable::apiOf(pending.record)).family;
    unsigned releasing = apiInfo(pending.api).family;
    return acquired == releasing ||
           familyInfo(acquired).releasedAs == static_cast<int>(releasing);
  }
  /// endRelease() but for its common case: a failed release undone, the
  /// journal, implicit releases and errors.
  void settleRelease(const PendingRelease &pending, bool succeeded);
  /// After a successful release: what the call releases without naming it.
  void releaseImplicitly(const PendingRelease &pending);
  /// A release that dropped a reference (retain()): restored if the call
  /// failed.
  void settleReference(const PendingRelease &pending, bool succeeded);
  /// Drops one of `key`'s references at `level`, if it has any.
  bool dropReference(int level, uint64_t key);
  // What an event of an API needs of the catalog and the options, worked
  // out at its first event and kept in one word (Routes): the level of its
  // family (kRouteLevel), whether that level is tracked, whether its
  // records are refcounted, whether they keep the current device where a
  // size would be, whether the API releases others implicitly, whether
  // its ids are numbered per device (idsPerDevice), and the family's
  // namespace (bits 8-15). 0: not worked out yet. The catalog and
  // the options do not change once an API is known.
  static constexpr uint32_t kRouteLevel = 1, kRouteTracked = 1U << 1,
                            kRouteRefcounted = 1U << 2,
                            kRouteCurrentDevice = 1U << 3,
                            kRouteReleasesOthers = 1U << 4,
                            kRouteRetainable = 1U << 5,
                            kRouteDeviceIds = 1U << 6, kRouteKnown = 1U << 31;
  static constexpr unsigned kRoutes = kMaxApi + 1;
  std::atomic<uint32_t> Routes[kRoutes] = {};
  uint32_t learnRoute(unsigned api);
  /// The route of `api` if its level is tracked and `handle` has a key
  /// (*key), else 0: one load for the event's whole path.
  uint32_t trackedRoute(unsigned api, uint64_t handle, uint64_t *key);
  /// A live handle `handle` (an address) in another built-in namespace, for
  /// a release through the wrong family.
  static bool findInOtherNamespace(const RecordTable &table,
                                   const FamilyInfo &family, uint64_t handle,
                                   Record *found);
  /// The journal (journal_path), if asked for; with the sites and chains
  /// interned before it opened if `replaySites` (a forked child's).
  void openJournal(bool replaySites);

  const Options Opts;
  LedgerObserver *const Observer;
  bool Enabled[2] = {false, false};
  RecordTable Tables[2];
  SerialClock Clock;
  Journal Journal_; // journal_path: every event, crash-safe
  SiteRegistry Sites;
  HeapRegistry Heaps;
  Annotations Notes;

  std::atomic<uint64_t> Errors{0};
  mutable std::mutex ErrorMutex;
  std::vector<ErrorEvent> ErrorLog;
  // Access findings reported, (site, problem and side, allocation serial),
  // so that a bad copy in a loop is reported once.
  std::set<std::tuple<uint32_t, unsigned, uint64_t>> AccessFindings;
  RangeIndex AccessIndex[2];
  std::vector<ImplicitReleaseEvent> ImplicitLog[2]; // under ErrorMutex
  // Held by an implicit release from its records' removal to their entry
  // in ImplicitLog, and by a checkpoint while it reads both: so a record
  // is in one or the other. Taken before ErrorMutex and the shard locks.
  std::mutex ImplicitMutex;

  // The keys of retained handles (executors made repeatable), looked at by
  // the calls of the operator rule's family; and the live workspaces found
  // (operatorPrepared), per level: key -> the site id of their phase 1,
  // looked at by releases only while LiveWorkspaces (their count) is not 0.
  // Both few; under RetainedMutex, which is held alone.
  mutable std::mutex RetainedMutex;
  std::unordered_set<uint64_t> Retained;
  std::unordered_map<uint64_t, uint32_t> Workspaces[2];
  std::atomic<uint64_t> LiveWorkspaces{0};
  // The references retain() added to live handles outside the operator
  // rule's family, per level: key -> their count; looked at by releases
  // and acquisitions only while LiveReferences (their total) is not 0.
  // Under RetainedMutex.
  std::unordered_map<uint64_t, uint32_t> References[2];
  std::atomic<uint64_t> LiveReferences{0};
  /// A workspace-sized allocation at `level`: tagged if the thread expects
  /// one of that size.
  void noteWorkspace(int level, uint64_t key, uint64_t size);

  uint64_t InheritedBelow = 0;
  // A forked child: its reports and journal start at its first event.
  std::atomic<bool> ChildPending{false};
  std::string ParentJournalPath; // in a forked child: the parent's journal
};

} // namespace msledger

#endif
