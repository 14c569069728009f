//===- interpose.h - What the generated interposers stand on ---*- C++ -*-===//
//
// Contract: each generated interposer (interposers.cpp, from the catalog, in
// libmsledger_preload.so) resolves the real function with resolveNext() once,
// opens a CallScope, calls the real function and, if the scope is tracking,
// reports the event to the ledger of libmsledger.so, with the handle, size
// and space expressions every generator shares (rewriter/catalog/wrappers.h)
// -- an operator's phase 1 whenever some level is tracked, as the workspace
// it names may be the device level's.
// A scope tracks only the outermost catalog call of its level on the thread:
// an ACL call that calls other ACL calls internally is one event, while the
// driver calls it makes are events of the device level. msledger does not
// interpose malloc, so a dlsym that allocates cannot re-enter an interposer.
//
// Opening and closing a scope is inline in the interposer, on the thread's
// ThreadCalls and the exported LevelsTracked of libmsledger.so: every
// interposed call pays them, tracked or not, and calls into libmsledger.so
// for them were most of what an interposer cost (SimPair with both levels
// off). Only the events are calls.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_INTERPOSE_H
#define MSLEDGER_RUNTIME_INTERPOSE_H

#include "catalog_table.h"
#include "ledger.h"

#include <atomic>
#include <cstdint>

#define MSLEDGER_INTERPOSER __attribute__((visibility("default")))
#define MSLEDGER_EXPORT __attribute__((visibility("default")))

namespace msledger {

/// The next definition of `name` after libmsledger_preload, or null with a
/// message if the process has none (its toolkit release lacks that API: the
/// interposer then returns unsupported() without recording anything). In
/// libmsledger_preload.so.
void *resolveNext(const char *name);

/// The memory space a halMemAlloc flag asks for: bits 10-13 of the flag are
/// SVM 0, DEV 1, HOST 2, DVPP 3 (driver/ascend_hal.h). What
/// msledger_driver_space() returns, which generated code calls.
inline Space spaceFromDriverFlag(unsigned long long flag) {
  unsigned type = static_cast<unsigned>((flag >> 10) & 0xF);
  return type == 2 ? Space::Host : type == 3 ? Space::DVPP : Space::GM;
}

/// The device a halMemAlloc flag allocates on: its low 10 bits
/// (MEM_DEVID_MASK).
inline int32_t deviceFromDriverFlag(unsigned long long flag) {
  return static_cast<int32_t>(flag & 0x3FF);
}

/// The thread's catalog calls in progress, for CallScope. Plain data, zero
/// in a new thread.
struct ThreadCalls {
  int depth[2]; // calls in progress, by Level
  /// The site a tracking wrapper named for the next call.
  const msledger_site *pendingSite;
  /// The site of the ACL call in progress, for the driver calls it makes.
  const msledger_site *currentSite;
  /// The device of the last driver allocation inside the ACL call in
  /// progress; -1 none (set on the ACL call's entry).
  int32_t currentDevice;
};

/// Defined in libmsledger.so; reached from libmsledger_preload.so, which
/// links it, in the initial-exec model (libmsledger.so is loaded with the
/// process, preloaded or linked, never dlopen'ed late), so that an access
/// is one load, not a call to __tls_get_addr.
extern __thread ThreadCalls CurrentCalls
    __attribute__((tls_model("initial-exec"), visibility("default")));

/// Bit 1 << level for each level the ledger tracks, and kLedgerStarted once
/// it started (0 before): fixed by the options when it starts.
MSLEDGER_EXPORT extern std::atomic<unsigned> LevelsTracked;
constexpr unsigned kLedgerStarted = 1U << 31;
/// Starts the ledger if no call did yet; LevelsTracked's value.
MSLEDGER_EXPORT unsigned startLedger();

/// One catalog call in an interposer. The events are exported from
/// libmsledger.so.
class MSLEDGER_EXPORT CallScope {
public:
  /// `level`: that of the API's family (the generator knows it).
  CallScope(unsigned api, Level level)
      : Api(api), LevelIndex(static_cast<int>(level)) {
    ThreadCalls &calls = CurrentCalls;
    Outermost = calls.depth[LevelIndex]++ == 0;
    if (!Outermost)
      return;
    unsigned levels = LevelsTracked.load(std::memory_order_relaxed);
    if (!levels)
      levels = startLedger();
    Tracking = (levels >> LevelIndex) & 1;
    AnyLevel = (levels & 3) != 0;
    // Attribution works even when this level is not checked: under
    // --check-device-heap alone, the driver calls of a rewritten ACL call
    // still carry the ACL call's site.
    Site = calls.pendingSite ? calls.pendingSite : calls.currentSite;
    calls.pendingSite = nullptr;
    if (level == Level::Cann) {
      EnclosingSite = calls.currentSite;
      calls.currentSite = Site;
      EnclosingDevice = calls.currentDevice;
      calls.currentDevice = -1;
    }
  }
  /// The level looked up in the catalog.
  explicit CallScope(unsigned api) : CallScope(api, familyOf(api).level) {}
  ~CallScope() {
    ThreadCalls &calls = CurrentCalls;
    --calls.depth[LevelIndex];
    if (Outermost && static_cast<Level>(LevelIndex) == Level::Cann) {
      calls.currentSite = EnclosingSite;
      calls.currentDevice = EnclosingDevice;
    }
  }
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

  bool tracking() const { return Tracking; }
  /// Whether this is the thread's outermost catalog call of its level (not
  /// one made inside another, or inside a tracking wrapper's call) and some
  /// level is tracked: an operator's phase 1 then names the workspace an
  /// allocation of either level may be.
  bool outermostAndChecking() const { return AnyLevel; }
  /// A driver allocation succeeded on `device` (from its flag), whether or
  /// not this level is tracked: its record, and the record of the ACL call
  /// it was made for (aclrtMalloc's memory is on the device of the
  /// halMemAlloc behind it), are on that device.
  void allocatedOn(int32_t device) {
    Device = device;
    if (Outermost && static_cast<Level>(LevelIndex) == Level::Device)
      CurrentCalls.currentDevice = device;
  }
  void acquired(uint64_t handle, uint64_t size, Space space);
  /// A copy or set about to touch `ranges` (checked against the ledger).
  void accessed(const AccessRanges &ranges);
  /// Before the real release call, then after it.
  void releasing(uint64_t handle);
  void released(bool succeeded);
  /// The acquisition took over `handle` ("owns"): released, as the owned
  /// family's release `api` would.
  void owned(unsigned api, uint64_t handle);
  /// A function of role "retain" succeeded on `handle`.
  void retained(uint64_t handle);
  /// The operator rule's events (catalog.h), from the interposer of an
  /// operator function: a phase 1 that made `executor`, a phase 2 about to
  /// run one. Without a site named by a tracking wrapper the event's site is
  /// `own`, the function's (its callee, file unknown).
  void prepared(const msledger_site *own, uint64_t executor,
                uint64_t workspaceSize);
  void consuming(const msledger_site *own, uint64_t executor);

  /// The site the event is attributed to: the one a tracking wrapper named
  /// for this call, or, for a driver call made inside an ACL call, the ACL
  /// call's.
  const msledger_site *site() const { return Site; }

private:
  unsigned Api;
  int LevelIndex;
  bool Tracking = false;
  bool AnyLevel = false; // outermost, and some level tracked
  bool Outermost;
  const msledger_site *Site = nullptr;
  const msledger_site *EnclosingSite = nullptr;
  int32_t Device = -1;          // allocatedOn() of this call
  int32_t EnclosingDevice = -1; // of the ACL call this one is inside
  // Made only by releasing(): most scopes are acquisitions or not tracking,
  // and zeroing a PendingRelease on every call shows in the benchmarks.
  alignas(PendingRelease) unsigned char PendingStorage[sizeof(PendingRelease)];
  PendingRelease *Pending = nullptr;
};

/// The site of an operator rule's event whose call no tracking wrapper
/// named: the function's own (callee `function`, file unknown), made once
/// per name and kept.
const msledger_site *operatorSite(const char *function);

/// Sets the site of the next catalog call on this thread (msledger_set_site).
void setPendingSite(const msledger_site *site);
/// The site a rewritten call named for the call in progress, taken (for a
/// callee that records its own events: the mstx injection).
const msledger_site *takePendingSite();
/// Whether the application's calls to `api` reach the interposer of
/// libmsledger_preload.so (loaded by the launcher or LD_PRELOAD).
bool apiInterposed(unsigned api);

/// The soname of the interposer library.
constexpr const char *kPreloadLibrary = "libmsledger_preload.so";

} // namespace msledger

#endif
