//===- ledger.h - The ledger: live records, events, errors -----*- C++ -*-===//
//
// Contract: one Ledger per process (Ledger::get(), created on first use --
// which may be before main or before any constructor of ours ran -- and never
// destroyed, so events from static destructors after main are still counted).
//
//   * acquire() and a release's two halves (beginRelease() before the real
//     call, endRelease() with its outcome) record events at the level of the
//     API's family:
//     every recorded event gets a serial, unique in the process and
//     increasing along each thread and along each key (from per-thread
//     blocks of one counter: serialAtLeast);
//     records live in a RecordTable per level, keyed by address (memory
//     families share one namespace, so a release through the wrong memory
//     family is seen) or by namespaced handle;
//   * errors (illegal, double, mismatched release) are reported when they
//     happen and kept for the final report, unless a free: suppression
//     matches them (suppressions.h); leaks a leak: suppression matches are
//     left out at exit, and neither counts for the exit status;
//   * a memory block registered as a heap (msledger_heap_register: a pool's
//     backing allocation, whose regions are tracked instead) is left out of
//     the leak report while registered;
//   * a release the catalog marks as releasing other families implicitly
//     (aclrtResetDevice: the device's streams and contexts; aclFinalize:
//     what the runtime still holds) takes their records out, remembered as
//     released by that call: listed apart at exit, or reported as leaks
//     (implicit_release_is_leak); a handle handed out again is then new;
//   * finish() runs once at exit, after the application's static destructors:
//     the leak report, the JSON file, the SARIF log, and the exit status;
//   * reports are made by report.h's formatters from what the ledger hands
//     them (siteTable(), reportInput()) and written through output.h;
//   * fork(): the child keeps the parent's records but reports only what it
//     acquired itself; serials continue from the parent's;
//   * in a job of many processes (job.h), each reports on its own, its
//     reports labelled with its pid and rank, and keeps its status in the
//     launcher's job directory.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_LEDGER_H
#define MSLEDGER_RUNTIME_LEDGER_H

#include "access.h"
#include "catalog_table.h"
#include "journal.h"
#include "msledger/msledger.h"
#include "options.h"
#include "output.h"
#include "record_table.h"
#include "suppressions.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace msledger {

struct LeakTotals;
struct ReportInput;
struct SiteTable;

enum class ErrorKind {
  IllegalRelease,
  DoubleRelease,
  MismatchedRelease,
  // A copy or set (Ledger::access):
  UseAfterFree,
  OutOfBounds,
  WrongDirection
};
constexpr ErrorKind kErrorKinds[] = {
    ErrorKind::IllegalRelease,    ErrorKind::DoubleRelease,
    ErrorKind::MismatchedRelease, ErrorKind::UseAfterFree,
    ErrorKind::OutOfBounds,       ErrorKind::WrongDirection};
inline bool isAccessError(ErrorKind kind) {
  return kind == ErrorKind::UseAfterFree || kind == ErrorKind::OutOfBounds ||
         kind == ErrorKind::WrongDirection;
}

struct ErrorEvent {
  ErrorKind kind = ErrorKind::IllegalRelease;
  unsigned api = 0; // the releasing call
  uint64_t handle = 0;
  Space space = Space::None;
  uint64_t serial = 0;
  uint32_t site = 0;
  uint16_t thread = 0;
  uint64_t timeNs = 0;
  bool callFailed = false;
  bool hasAcquired = false; // the record the release matched, or ended before
  Record acquired;
  bool hasPrevious = false; // the earlier release, for double releases
  FreedRecord previous;     // (and the release of freed memory accessed)
  // An access error's: `handle` is the first byte at fault, `space` that of
  // the memory touched.
  bool write = false;
  uint64_t badBytes = 0;
  uint64_t accessStart = 0, accessSize = 0; // the side's whole range
  int direction = -1;                       // the call's aclrtMemcpyKind
};

/// A handle released without being named: a stream destroyed by the reset
/// of its device, a model unloaded by aclFinalize.
struct ImplicitReleaseEvent {
  Record acquired;
  ReleaseEvent release; // the call that released it
};

/// An mstx mark (a moment) or range (an interval) the application named.
struct Annotation {
  std::string message;
  bool range = false;
  uint64_t startMs = 0; // since the ledger started
  int64_t endMs = -1;   // a range's end; -1: a mark, or not ended yet
  uint64_t id = 0;      // a range's id
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
  PackedRecord record; // as found; read only when taken is not NotFound
};

class Ledger {
public:
  /// Inline, one load once the ledger exists: the interposers ask for it at
  /// every event.
  static Ledger &get() {
    if (Ledger *ledger = Instance.load(std::memory_order_acquire))
      return *ledger;
    return create();
  }
  /// The ledger if anything used it, else null (for the exit hook).
  static Ledger *existing();

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
  /// After it: puts the record back if the call failed, reports errors.
  /// Inline: its common case, a successful release of what its family
  /// acquired that releases nothing implicitly, is a few tests (and the
  /// journal's event).
  void endRelease(PendingRelease &pending, bool succeeded) {
    if (!pending.active)
      return;
    pending.active = false;
    if (succeeded && pending.taken == RecordTable::TakeResult::Taken &&
        !pending.releasesOthers && releasesOwnFamily(pending)) {
      if (Journal_.active())
        journalRelease(pending);
      return;
    }
    settleRelease(pending, succeeded);
  }

  /// What is live now, grouped by site (msledger_report(), the report
  /// signal).
  void reportNow();
  /// A snapshot file in snapshot_dir (the monitor, every snapshot_interval).
  void writeSnapshot();
  /// The journal (journal_path): the monitor prefaults it; benchmarks
  /// pause it.
  Journal &journal() { return Journal_; }
  bool journaling() const { return Journal_.active(); }
  /// At exit: leak report, JSON, exit status. Runs once.
  void finish();
  uint64_t errorCount() const { return Errors.load(std::memory_order_relaxed); }

  // Introspection for reports, tests and benchmarks.
  const RecordTable &table(Level level) const {
    return Tables[static_cast<int>(level)];
  }
  /// The site of an event: id 0 none, then sites, then chains (a site with
  /// the callers that led to it).
  const msledger_site *site(uint32_t id) const;
  /// The callers of a chain's site, innermost first; empty for a plain site.
  std::vector<const msledger_site *> callers(uint32_t id) const;
  /// How reports read this ledger's site ids (site() and callers()).
  SiteTable siteTable() const;
  /// What a report of this process now reads besides its records.
  ReportInput reportInput() const;
  /// Nanoseconds since the ledger started, at which `serial` had happened.
  uint64_t timeOfSerial(uint64_t serial) const;
  uint64_t startUnixMs() const { return StartUnixMs; }
  /// Records with serials below this came from the parent before fork().
  uint64_t inheritedBelow() const { return InheritedBelow; }
  std::vector<ErrorEvent> errors() const;
  /// What calls released implicitly at `level`, in order (this process's).
  std::vector<ImplicitReleaseEvent> implicitReleases(Level level) const;
  size_t memoryBytes() const;
  static uint64_t keyOf(unsigned api, uint64_t handle);
  static uint64_t handleOf(uint64_t key);

  // Memory pools (msledger_heap_register): a heap is an index + 1.
  uintptr_t registerHeap(uint64_t base, uint64_t size);
  void unregisterHeap(uintptr_t heap);
  /// The base and size of a registered heap; false if it is not one.
  bool heapRange(uintptr_t heap, uint64_t *base, uint64_t *size) const;

  /// "====== WARNING: `text`" on the report's log.
  void warn(const std::string &text);
  // Annotations (mstx marks and ranges), shown in snapshots and timelines.
  void mark(const std::string &message);
  /// A range's id (never 0), for rangeEnd.
  uint64_t rangeStart(const std::string &message);
  void rangeEnd(uint64_t id);
  /// Whether [address, address + size) lies in the registered `heap`.
  bool inHeap(uintptr_t heap, uint64_t address, uint64_t size) const;

  void forkPrepare();
  void forkParent();
  void forkChild();

private:
  Ledger();
  /// get() before the ledger exists: makes it, once, whatever threads ask.
  static Ledger &create();
  static std::atomic<Ledger *> Instance; // set once made
  uint32_t internSite(const msledger_site *site);
  /// The id of `site` with the thread's call chain, if it has one.
  uint32_t internEvent(const msledger_site *site);
  /// internEvent() of a thread in a call chain.
  uint32_t internInChain(const msledger_site *site);
  uint32_t internChain(const msledger_site *site,
                       const msledger_site *const *callers, unsigned count);
  uint16_t threadIndex();
  uint64_t nowNs() const;
  void startClock();
  void clockLoop();
  void reportError(ErrorEvent error);
  // The journal's events, apart from the event paths (which then keep their
  // records in registers).
  void journalAcquire(int level, const PackedRecord &packed, uint64_t serial);
  void journalRelease(const PendingRelease &pending);
  /// Whether the record a release found (taken is not NotFound) was
  /// acquired in the releasing API's family.
  static bool releasesOwnFamily(const PendingRelease &pending) {
    return apiInfo(RecordTable::apiOf(pending.record)).family ==
           apiInfo(pending.api).family;
  }
  /// endRelease() but for its common case: a failed release undone, the
  /// journal, implicit releases and errors.
  void settleRelease(const PendingRelease &pending, bool succeeded);
  /// After a successful release: what the call releases without naming it.
  void releaseImplicitly(const PendingRelease &pending);
  void write(const std::string &text);
  // What an event of an API needs of the catalog and the options, worked
  // out at its first event and kept in one word (Routes): the level of its
  // family (kRouteLevel), whether that level is tracked, whether its
  // records are refcounted, whether they keep the current device where a
  // size would be, whether the API releases others implicitly, and the
  // family's namespace (bits 8-15). 0: not worked out yet. The catalog and
  // the options do not change once an API is known.
  static constexpr uint32_t kRouteLevel = 1, kRouteTracked = 1U << 1,
                            kRouteRefcounted = 1U << 2,
                            kRouteCurrentDevice = 1U << 3,
                            kRouteReleasesOthers = 1U << 4,
                            kRouteKnown = 1U << 31;
  static constexpr unsigned kRoutes = kMaxApi + 1;
  std::atomic<uint32_t> Routes[kRoutes] = {};
  uint32_t learnRoute(unsigned api);
  /// The route of `api` if its level is tracked and `handle` has a key
  /// (*key), else 0: one load for the event's whole path.
  uint32_t trackedRoute(unsigned api, uint64_t handle, uint64_t *key);
  static uint64_t keyIn(const FamilyInfo &family, uint64_t handle);
  /// A live handle `handle` (an address) in another built-in namespace, for
  /// a release through the wrong family.
  static bool findInOtherNamespace(const RecordTable &table,
                                   const FamilyInfo &family, uint64_t handle,
                                   Record *found);
  /// The live records of `level` this process is to report.
  std::vector<Record> liveRecords(Level level) const;
  std::string leakReport(std::vector<Record> (&live)[2],
                         LeakTotals *totals) const;

  Options Opts;
  bool Enabled[2] = {false, false};
  RecordTable Tables[2];

  // Serials: each thread takes blocks of up to kSerialBlock from NextSerial,
  // a new one when its block is used up, when the clock's epoch (10 ms)
  // moved on, and when the key's shard has seen a later serial than the
  // block's next (RecordTable::SerialSource; the thread's blocks then
  // shrink); so an event's serial is unique, increases along its thread and
  // along its key, and its time is known within an epoch (Checkpoints). The
  // counter is touched once a block, not once an event: with blocks of 64,
  // its cache line travelling between two busy threads' cores cost a tenth
  // of their throughput (LedgerPair/threads:2, 1.78x one thread's against
  // 1.99x with 1024). On a cache line of its own: every thread writes it,
  // and the fields every event reads (Tables, Enabled, SerialEpoch) would
  // travel between cores with it.
  static constexpr uint64_t kSerialBlock = 1024;
  alignas(64) std::atomic<uint64_t> NextSerial{0};
  alignas(64) std::atomic<uint32_t> SerialEpoch{0};
  std::atomic<uint32_t> CheckpointEpoch{0}; // epoch + 1 of the last one

public:
  /// A serial at least `atLeast` for the calling thread's event
  /// (RecordTable::SerialSource).
  static uint64_t serialAtLeast(uint64_t atLeast);

private:
  uint64_t renewSerials(uint64_t atLeast, uint32_t epoch);
  /// Makes the thread's next serial follow every serial handed out so far
  /// (an implicit release's).
  void renewSerialBlock();
  std::atomic<uint32_t> NextThread{1};
  std::atomic<uint64_t> Errors{0};

  // Sites are interned into a fixed open-addressed table; id = slot + 1.
  static constexpr uint32_t kSiteSlots = 1U << 16;
  std::atomic<const msledger_site *> *Sites;
  std::atomic<bool> SitesFullWarned{false}, ChainsFullWarned{false};

  // Chains, interned like sites (allocated on the first one): id =
  // kSiteSlots + slot + 1.
  static constexpr uint32_t kChainSlots = 1U << 15;
  static_assert(kSiteSlots + kChainSlots <= kMaxSite,
                "site and chain ids fit a record");

public:
  static constexpr unsigned kMaxChain = kMaxChainDepth; // callers a chain keeps

private:
  struct Chain {
    std::atomic<uint32_t> state; // 0 empty, 1 being written, 2 published
    uint32_t count;
    const msledger_site *site;
    const msledger_site *callers[kMaxChain]; // innermost first
  };
  std::atomic<Chain *> Chains{nullptr};
  unsigned ChainDepth = 0; // chain_depth, clamped

  mutable std::mutex ErrorMutex;
  std::vector<ErrorEvent> ErrorLog;
  // Access findings reported, (site, problem and side, allocation serial),
  // so that a bad copy in a loop is reported once.
  std::set<std::tuple<uint32_t, unsigned, uint64_t>> AccessFindings;
  RangeIndex AccessIndex[2];
  // The suppressions option's file: matched under ErrorMutex while the
  // process runs (bad releases), at exit for leaks.
  Suppressions Suppressions_;
  std::vector<ImplicitReleaseEvent> ImplicitLog[2]; // under ErrorMutex

  struct Heap {
    uint64_t base = 0, size = 0;
    bool live = false;
  };
  mutable std::mutex HeapMutex;
  std::vector<Heap> Heaps;
  std::atomic<bool> AnyHeap{false}; // records may nest (access.h)

  // At most kMaxAnnotations; later ones are not kept (said once).
  static constexpr size_t kMaxAnnotations = 10000;
  mutable std::mutex AnnotationMutex;
  std::vector<Annotation> Annotations;
  std::atomic<bool> AnnotationsFullWarned{false};
  /// Keeps `annotation` unless there are kMaxAnnotations already.
  bool annotate(Annotation annotation);

  // (first serial of an epoch's first block, time), so that events carry
  // timestamps without reading a clock on the hot path: the clock thread
  // moves SerialEpoch on every 10 ms.
  mutable std::mutex ClockMutex;
  std::vector<std::pair<uint64_t, uint64_t>> Checkpoints;
  std::atomic<bool> ClockRunning{false};
  uint64_t StartNs = 0;
  uint64_t StartUnixMs = 0;

  std::atomic<uint64_t> SnapshotSequence{0};
  Journal Journal_; // journal_path: every event, crash-safe
  std::mutex OutputMutex;
  int Pid = 0;
  std::string ProjectRoot; // absolute: project_root, or the start's directory
  // Jobs (job.h): a forked child announces itself at its first allocation;
  // the JSON report written "not final" at the start, replaced at exit.
  std::atomic<bool> StatusPending{false};
  std::string StartJsonPath;
  /// This process's status file in the job directory, and (when it starts)
  /// the JSON report saying it has not reported yet.
  void announceStart();
  /// The journal (journal_path), if asked for; with the sites and chains
  /// interned before it opened if `replaySites` (a forked child's).
  void openJournal(bool replaySites);
  /// A forked child's first allocation: its status, its JSON report's
  /// start, its own journal (or a line saying why it has none).
  void startForkedChild();
  std::string ParentJournalPath; // in a forked child: the parent's journal
  int ForkParentPid = 0;         // in a forked child: the parent's pid
  WrittenFile StartJson;         // the JSON report written at the start
  void writeJobStatus(bool exited, uint64_t findings, uint64_t leakedBytes,
                      bool complete);
  /// Says so in the log, and true, if `path` holds a JSON document of
  /// msledger's written by another process still running, or by the one
  /// this process was forked from: two processes given one path. (An
  /// earlier run's is not another's.)
  bool warnIfAnothers(const std::string &path, const char *what);
  std::atomic<bool> SnapshotFailed{false}; // said once
  /// "====== msledger: pid N, rank R, PROGRAM" before each report of a
  /// process that is one of a job's; empty otherwise.
  std::string processLabel() const;
  uint64_t InheritedBelow = 0;
  std::atomic<bool> Finished{false};
};

} // namespace msledger

#endif
