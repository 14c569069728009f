//===- ledger.cpp - The ledger: live records and their events -------------===//
#include "ledger.h"

#include "escape.h"
#include "job.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <unistd.h>

// The helpers of every event's path, inlined into acquire() and the release
// halves whatever the compiler's size heuristics say: a few instructions
// each, and the calls cost more than their work (LedgerPair benchmark).
#define MSLEDGER_HOT inline __attribute__((always_inline))

namespace msledger {

static_assert(SiteRegistry::kMaxChain == kMaxChainDepth,
              "chain_depth's range is what a chain keeps");

namespace {

/// The calling thread's current device (aclrtGetDevice), for a handle that
/// belongs to one; UINT32_MAX when there is none. Not a catalog call.
uint64_t currentDevice() {
  using GetDevice = int (*)(int32_t *);
  static GetDevice getDevice =
      reinterpret_cast<GetDevice>(dlsym(RTLD_DEFAULT, "aclrtGetDevice"));
  int32_t device = -1;
  if (!getDevice || getDevice(&device) != 0 || device < 0)
    return UINT32_MAX;
  return static_cast<uint64_t>(device);
}

/// Whether `handle` is NULL as a handle of `family`: a pointer handle's 0
/// (a device or model id of 0 is a handle; aclInit's family has none).
bool isNullPointer(const FamilyInfo &family, uint64_t handle) {
  return handle == 0 && family.hasHandle && family.handleIsPointer;
}

} // namespace

MSLEDGER_HOT RecordTable::SerialSource Ledger::clockSerials() {
  return {[](void *clock, uint64_t atLeast) {
            return static_cast<SerialClock *>(clock)->serialAtLeast(atLeast);
          },
          &Clock};
}

Ledger::Ledger(const Options &options, LedgerObserver *observer)
    : Opts(options), Observer(observer),
      Sites(static_cast<unsigned>(std::clamp<long long>(
                options.chain_depth, 0, SiteRegistry::kMaxChain)),
            Journal_, [this](const std::string &line) { say(line); }),
      Notes(Clock, [this](const std::string &line) { say(line); }) {
  Enabled[static_cast<int>(Level::Device)] = Opts.check_device_heap;
  Enabled[static_cast<int>(Level::Cann)] = Opts.check_cann_heap;
  if (Opts.first_serial)
    Clock.startAt(static_cast<uint64_t>(Opts.first_serial));
  // Serials never wrap: the tables keep 40 bits of each, and the whole
  // serial of a record too old for those aside (RecordTable::age).
  Clock.setAging(
      [](void *self, uint64_t now) {
        for (RecordTable &table : static_cast<Ledger *>(self)->Tables)
          table.age(now);
      },
      this);
}

void Ledger::start() {
  openJournal(/*replaySites=*/false); // nothing is interned yet
}

void Ledger::openJournal(bool replaySites) {
  if (Opts.journal_path.empty())
    return;
  std::string path = expandPath(Opts.journal_path, getpid(), processRank());
  std::string error;
  if (!Journal_.open(
          path, static_cast<uint64_t>(Opts.journal_size_mb) << 20,
          Clock.startUnixMs(),
          (Opts.check_device_heap ? kJournalDeviceLevel : 0u) |
              (Opts.check_cann_heap ? kJournalCannLevel : 0u) |
              (Opts.implicit_release_is_leak ? kJournalImplicitIsLeak : 0u),
          &error)) {
    fprintf(stderr, "msledger: %s; no journal\n", printable(error).c_str());
    return;
  }
  // A forked child's journal: the sites and chains interned before it
  // opened, which its events name.
  if (replaySites)
    Sites.replayInto(Journal_);
}

void Ledger::firstEvent() {
  if (ChildPending.exchange(false)) {
    // A forked child's first acquisition: its reports start, and its
    // journal --
    // its own where the path names one (%p, or a rank of its own); the
    // parent's is the parent's.
    if (Observer)
      Observer->forkedChildStarts();
    if (!Opts.journal_path.empty()) {
      std::string path = expandPath(Opts.journal_path, getpid(), processRank());
      if (path != ParentJournalPath)
        openJournal(/*replaySites=*/true);
      else
        say("msledger: pid " + std::to_string(getpid()) + ", forked from pid " +
            std::to_string(getppid()) +
            ", keeps no journal: " + printable(path) +
            " is its parent's (%p in journal_path gives each process its "
            "own)\n");
    }
  }
  Clock.start();
}

namespace {
/// The workspace the thread's last phase 1 asked for, not allocated yet at
/// each level (Ledger::operatorPrepared).
struct ExpectedWorkspace {
  const void *ledger; // null: nothing expected
  // By level, 0: none expected. At the device level, the driver allocation
  // behind aclrtMalloc (the ACL layer's padding) or aclrtMallocAlign32.
  uint64_t size[2];
  uint64_t alignedSize;
  uint32_t site; // the phase 1's
};
__thread ExpectedWorkspace Expected __attribute__((tls_model("initial-exec")));
} // namespace

uint32_t Ledger::learnRoute(unsigned api) {
  const FamilyInfo &family = familyOf(api);
  uint32_t route = kRouteKnown | (static_cast<uint32_t>(family.level) & 1) |
                   (uint32_t{family.nameSpace} << 8);
  if (Enabled[static_cast<int>(family.level)])
    route |= kRouteTracked;
  if (family.refcounted)
    route |= kRouteRefcounted;
  if (family.operatorHandles)
    route |= kRouteRetainable;
  if (idsPerDevice(family))
    route |= kRouteDeviceIds;
  if (family.perDevice && !apiInfo(api).deviceArgument)
    route |= kRouteCurrentDevice;
  for (size_t i = 0; i < kImplicitReleaseCount; ++i)
    if (kImplicitReleases[i].api == api)
      route |= kRouteReleasesOthers;
  Routes[api].store(route, std::memory_order_relaxed);
  return route;
}

MSLEDGER_HOT uint32_t Ledger::trackedRoute(unsigned api, uint64_t handle,
                                           uint64_t *key) {
  uint32_t route =
      api < kRoutes ? Routes[api].load(std::memory_order_relaxed) : kRouteKnown;
  if (!route)
    route = learnRoute(api);
  if (__builtin_expect(route & kRouteDeviceIds, 0))
    handle = deviceScopedId(currentDevice(), handle);
  *key = keyInNameSpace((route >> 8) & 0xFF, handle);
  return (route & kRouteTracked) && *key != 0 ? route : 0;
}

void Ledger::acquire(unsigned api, uint64_t handle, uint64_t size, Space space,
                     const msledger_site *site, int32_t device) {
  // A call that succeeds without making anything leaves a NULL handle
  // (HcclCreateSubCommConfig for a rank outside the new communicator).
  if (__builtin_expect(handle == 0, 0) && isNullPointer(familyOf(api), handle))
    return;
  uint64_t key;
  uint32_t route = trackedRoute(api, handle, &key);
  if (!route)
    return;
  if (route & kRouteCurrentDevice)
    size = currentDevice();
  Record record;
  if (device >= 0 && device < kNoDevice)
    record.device = static_cast<uint8_t>(device);
  record.key = key;
  record.size = size;
  record.space = static_cast<uint8_t>(space);
  record.api = static_cast<uint16_t>(api);
  record.thread = SerialClock::threadIndex();
  record.site = Sites.intern(site);
  if (!Clock.started())
    firstEvent();
  // Packed now: three words live across the calls below, not the fields.
  PackedRecord packed = RecordTable::pack(record);
  // A live key handed out again was released by something the catalog does
  // not describe: the new record replaces it.
  uint64_t serial;
  int level = route & kRouteLevel;
  Tables[level].acquire(packed, route & kRouteRefcounted, nullptr,
                        clockSerials(), &serial);
  if (Journal_.active())
    journalAcquire(level, packed, serial);
  if (__builtin_expect(Expected.ledger != nullptr, 0) && space == Space::GM)
    noteWorkspace(level, key, size);
  // A key handed out again: the references of what it named are gone.
  if (__builtin_expect(LiveReferences.load(std::memory_order_relaxed), 0)) {
    std::lock_guard<std::mutex> lock(RetainedMutex);
    auto found = References[level].find(key);
    if (found != References[level].end()) {
      LiveReferences.fetch_sub(found->second, std::memory_order_relaxed);
      References[level].erase(found);
    }
  }
}

void Ledger::journalAcquire(int level, const PackedRecord &packed,
                            uint64_t serial) {
  Record record = RecordTable::unpack(packed);
  record.serial = serial;
  Journal_.acquire(level, record);
}

void Ledger::beginRelease(unsigned api, uint64_t handle,
                          const msledger_site *site, PendingRelease *pending) {
  uint64_t key;
  uint32_t route = trackedRoute(api, handle, &key);
  pending->active = route != 0;
  if (!route)
    return;
  pending->api = api;
  pending->handle = handle;
  pending->key = key;
  pending->reference = false;
  pending->event.api = static_cast<uint16_t>(api);
  pending->event.thread = SerialClock::threadIndex();
  pending->event.site = Sites.intern(site);
  // What a release ends without naming it is what was acquired before it:
  // its serial follows every serial handed out so far.
  pending->releasesOthers = route & kRouteReleasesOthers;
  if (pending->releasesOthers)
    Clock.renewBlock();
  // NULL names nothing a family of pointer handles acquired (a device id or
  // a model id of 0 is a handle). It is never looked up: the records of a
  // family without handles (aclInit's) are keyed by 0 too, and would read as
  // a mismatched release of them.
  if (isNullPointer(familyOf(api), handle)) {
    pending->taken = RecordTable::TakeResult::NotFound;
    pending->event.serial = Clock.serialAtLeast(0);
    return;
  }
  // One of the references retain() added is what this release ends.
  if (__builtin_expect(LiveReferences.load(std::memory_order_relaxed), 0) &&
      dropReference(route & kRouteLevel, key)) {
    pending->reference = true;
    pending->taken = RecordTable::TakeResult::Dereferenced;
    pending->event.serial = Clock.serialAtLeast(0);
    return;
  }
  // The release's serial is taken now, under the key's shard lock, before
  // the real call can let another thread be handed the same address: the
  // events of a key have serials in the order they happen.
  pending->taken = Tables[route & kRouteLevel].take(
      key, route & kRouteRefcounted, pending->event, &pending->record,
      clockSerials(), &pending->event.serial);
  // Only while a workspace is live (few, and freed soon) does a release
  // look at them.
  if (route & kRouteRetainable) {
    std::lock_guard<std::mutex> lock(RetainedMutex);
    Retained.erase(key);
  } else if (LiveWorkspaces.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(RetainedMutex);
    if (Workspaces[route & kRouteLevel].erase(key))
      LiveWorkspaces.fetch_sub(1, std::memory_order_relaxed);
  }
}

void Ledger::operatorPrepared(unsigned api, uint64_t executor,
                              uint64_t workspaceSize,
                              const msledger_site *site) {
  if (executor) {
    // A new executor: not retained, whatever had this address before.
    uint64_t key;
    if (trackedRoute(api, executor, &key)) {
      std::lock_guard<std::mutex> lock(RetainedMutex);
      Retained.erase(key);
    }
    acquire(api, executor, 0, Space::None, site);
  }
  // Each phase 1 replaces what the last one asked for (none: nothing is
  // expected any more).
  Expected.ledger = nullptr;
  if (!workspaceSize)
    return;
  Expected.size[static_cast<int>(Level::Cann)] = workspaceSize;
  Expected.size[static_cast<int>(Level::Device)] =
      (workspaceSize + 32 + 31) / 32 * 32;
  Expected.alignedSize = (workspaceSize + 31) / 32 * 32;
  Expected.site = Sites.intern(site);
  Expected.ledger = this;
}

void Ledger::noteWorkspace(int level, uint64_t key, uint64_t size) {
  if (Expected.ledger != this ||
      (Expected.size[level] != size &&
       (level != static_cast<int>(Level::Device) || !Expected.size[level] ||
        Expected.alignedSize != size)))
    return;
  Expected.size[level] = 0;
  if (!Expected.size[0] && !Expected.size[1])
    Expected.ledger = nullptr; // found at both levels
  std::lock_guard<std::mutex> lock(RetainedMutex);
  if (Workspaces[level].emplace(key, Expected.site).second)
    LiveWorkspaces.fetch_add(1, std::memory_order_relaxed);
}

void Ledger::retain(unsigned api, uint64_t handle, const msledger_site *site) {
  uint64_t key;
  uint32_t route = trackedRoute(api, handle, &key);
  if (!route)
    return;
  int level = route & kRouteLevel;
  Record record;
  if (route & kRouteRetainable) {
    // Only a live executor is marked: one msledger did not see made is
    // nothing to keep.
    if (!Tables[level].find(key, &record))
      return;
    std::lock_guard<std::mutex> lock(RetainedMutex);
    Retained.insert(key);
    return;
  }
  {
    // Counted before the record is looked for: a release on another thread
    // then drops this reference or finds the record still there.
    std::lock_guard<std::mutex> lock(RetainedMutex);
    ++References[level][key];
    LiveReferences.fetch_add(1, std::memory_order_relaxed);
  }
  if (Tables[level].find(key, &record))
    return;
  // Not live: the handle was released (while its memory stayed mapped) and
  // is handed out again, a handle of its own now.
  dropReference(level, key);
  FreedRecord freed;
  bool known = Tables[level].findFreed(key, &freed);
  const FamilyInfo &family = familyOf(api);
  acquire(api, handle, known ? freed.acquired.size : 0,
          known ? static_cast<Space>(freed.acquired.space) : family.space, site,
          known ? freed.acquired.device : -1);
}

bool Ledger::dropReference(int level, uint64_t key) {
  std::lock_guard<std::mutex> lock(RetainedMutex);
  auto found = References[level].find(key);
  if (found == References[level].end())
    return false;
  if (--found->second == 0)
    References[level].erase(found);
  LiveReferences.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

void Ledger::settleReference(const PendingRelease &pending, bool succeeded) {
  if (succeeded)
    return;
  std::lock_guard<std::mutex> lock(RetainedMutex);
  ++References[static_cast<int>(familyOf(pending.api).level)][pending.key];
  LiveReferences.fetch_add(1, std::memory_order_relaxed);
}

void Ledger::consume(unsigned api, uint64_t handle, const msledger_site *site) {
  // The workspace the phase 1 asked for is allocated by now, or never.
  Expected.ledger = nullptr;
  uint64_t key;
  if (!trackedRoute(api, handle, &key))
    return;
  {
    std::lock_guard<std::mutex> lock(RetainedMutex);
    if (Retained.count(key))
      return;
  }
  PendingRelease pending;
  beginRelease(api, handle, site, &pending);
  endRelease(pending, true);
}

void Ledger::journalRelease(const PendingRelease &pending) {
  Journal_.release(static_cast<int>(familyOf(pending.api).level), pending.key,
                   pending.event.serial, pending.api, pending.event.site,
                   false);
}

void Ledger::settleRelease(const PendingRelease &pending, bool succeeded) {
  const FamilyInfo &family = familyOf(pending.api);
  RecordTable &table = Tables[static_cast<int>(family.level)];
  bool found = pending.taken != RecordTable::TakeResult::NotFound;
  if (found && !succeeded) {
    // Journaled as the table had it: released at the take, acquired again
    // now -- a checkpoint that copied the shard in between holds neither.
    Record again = RecordTable::unpack(pending.record);
    uint64_t serial = 0;
    table.restore(again, pending.taken, pending.event, clockSerials(), &serial);
    again.serial = serial;
    if (Journal_.active()) {
      journalRelease(pending);
      Journal_.acquire(static_cast<int>(family.level), again);
    }
  }
  if (found && succeeded && Journal_.active())
    journalRelease(pending);
  // A device reset releases its streams only with its last reference.
  if (succeeded && pending.taken != RecordTable::TakeResult::Dereferenced &&
      pending.releasesOthers)
    releaseImplicitly(pending);
  if (found && releasesOwnFamily(pending))
    return; // a matching release
  ErrorEvent error;
  error.api = pending.api;
  error.handle = pending.handle;
  error.space = family.space;
  error.serial = pending.event.serial;
  error.site = pending.event.site;
  error.thread = pending.event.thread;
  error.callFailed = !succeeded;
  if (found) {
    error.kind = ErrorKind::MismatchedRelease;
    error.hasAcquired = true;
    error.acquired = RecordTable::unpack(pending.record);
    error.acquired.serial =
        Tables[static_cast<int>(familyOf(pending.api).level)].serialOf(
            pending.record, pending.event.serial + 1);
    reportError(error);
    return;
  }
  if (isNullPointer(family, pending.handle)) {
    // A NULL the real function takes as a no-op (catalog "null":
    // "accepted") is no finding, as free(NULL) is none.
    if (succeeded && apiInfo(pending.api).nullAccepted)
      return;
    error.kind = ErrorKind::IllegalRelease; // NULL (above)
    reportError(error);
    return;
  }
  // Released before in its own family: a double release -- unless the
  // address is live now in another namespace, handed out since (a stream
  // given to aclrtDestroyEvent, physical memory to aclrtFree): then the
  // release is through the wrong family, and says which.
  FreedRecord previous;
  bool released = table.findFreed(pending.key, &previous);
  Record other;
  // A family without handles (aclInit's, aclprofInit's) names no address
  // another family could hold.
  if (family.hasHandle && family.handleIsPointer &&
      findInOtherNamespace(table, family, pending.handle, &other) &&
      (!released || other.serial > previous.serial)) {
    error.kind = ErrorKind::MismatchedRelease;
    error.hasAcquired = true;
    error.acquired = other;
  } else if (released) {
    error.kind = ErrorKind::DoubleRelease;
    error.hasPrevious = true;
    error.previous = previous;
    error.hasAcquired = true;
    error.acquired = previous.acquired;
  } else {
    error.kind = ErrorKind::IllegalRelease;
  }
  reportError(error);
}

void Ledger::access(unsigned api, const msledger_site *site,
                    const AccessRanges &ranges) {
  int level = static_cast<int>(familyOf(api).level);
  if (!Enabled[level] || !Opts.check_access)
    return;
  const RecordTable &table = Tables[level];
  for (bool write : {true, false}) {
    AccessFinding finding;
    if (!checkSide(table, AccessIndex[level],
                   write ? ranges.write : ranges.read,
                   write ? ranges.writeSize : ranges.readSize, write,
                   ranges.direction, Heaps.anyHeap(), &finding))
      continue;
    ErrorEvent error;
    error.kind = finding.problem == AccessProblem::UseAfterFree
                     ? ErrorKind::UseAfterFree
                 : finding.problem == AccessProblem::OutOfBounds
                     ? ErrorKind::OutOfBounds
                     : ErrorKind::WrongDirection;
    error.api = api;
    error.handle = finding.address;
    error.space = static_cast<Space>(finding.acquired.space);
    error.site = Sites.intern(site);
    error.thread = SerialClock::threadIndex();
    error.hasAcquired = true;
    error.acquired = finding.acquired;
    error.hasPrevious = finding.freed;
    error.previous = finding.release;
    error.write = write;
    error.badBytes = finding.badBytes;
    error.accessStart = finding.start;
    error.accessSize = finding.size;
    error.direction = ranges.direction;
    {
      std::lock_guard<std::mutex> lock(ErrorMutex);
      unsigned what = static_cast<unsigned>(error.kind) * 2 + (write ? 1 : 0);
      if (!AccessFindings.emplace(error.site, what, finding.acquired.serial)
               .second)
        continue;
    }
    error.serial = Clock.serialAtLeast(0);
    reportError(error);
  }
}

bool Ledger::findInOtherNamespace(const RecordTable &table,
                                  const FamilyInfo &family, uint64_t handle,
                                  Record *found) {
  bool any = false;
  for (size_t space = 0; space < kNameSpaceCount; ++space) {
    if (space == family.nameSpace)
      continue;
    uint64_t key = keyInNameSpace(space, handle);
    // The most recent: a mapping over a reservation, a channel made from its
    // description, share their address.
    Record candidate;
    if (table.find(key, &candidate) && familyOf(candidate.api).hasHandle &&
        familyOf(candidate.api).handleIsPointer &&
        (!any || candidate.serial > found->serial)) {
      *found = candidate;
      any = true;
    }
  }
  return any;
}

void Ledger::releaseImplicitly(const PendingRelease &pending) {
  // A checkpoint sees the records taken out either live or in the log. The
  // journal's events are written after (a writer may wait for the
  // checkpoint); written after it began, they are all kept.
  std::unique_lock<std::mutex> implicitLock(ImplicitMutex);
  std::vector<Record> released[2];
  for (size_t i = 0; i < kImplicitReleaseCount; ++i) {
    const ImplicitReleaseInfo &implicit = kImplicitReleases[i];
    if (implicit.api != pending.api)
      continue;
    const FamilyInfo &family = familyInfo(implicit.family);
    int level = static_cast<int>(family.level);
    if (!Enabled[level])
      continue;
    uint64_t device = pending.handle;
    std::vector<Record> taken = Tables[level].takeIf(
        [&](const Record &record) {
          return apiInfo(record.api).family == implicit.family &&
                 (!implicit.perDevice || record.size == device);
        },
        pending.event);
    released[level].insert(released[level].end(), taken.begin(), taken.end());
  }
  for (int level = 0; level < 2; ++level) {
    if (released[level].empty())
      continue;
    // In the order they were acquired, whatever shard each was in.
    std::sort(
        released[level].begin(), released[level].end(),
        [](const Record &a, const Record &b) { return a.serial < b.serial; });
    std::lock_guard<std::mutex> lock(ErrorMutex);
    for (const Record &record : released[level])
      ImplicitLog[level].push_back(ImplicitReleaseEvent{record, pending.event});
  }
  implicitLock.unlock();
  if (Journal_.active())
    for (int level = 0; level < 2; ++level)
      for (const Record &record : released[level])
        Journal_.release(level, record.key, pending.event.serial, pending.api,
                         pending.event.site, true);
}

void Ledger::checkpointJournal() {
  uint64_t number = Journal_.beginCheckpoint();
  if (!number)
    return;
  // Read after it began: what it holds is all that a block let go before it
  // held.
  Sites.replayInto(Journal_);
  std::lock_guard<std::mutex> implicitLock(ImplicitMutex);
  std::vector<uint64_t> floors(RecordTable::kShards);
  for (int level = 0; level < 2; ++level) {
    if (!Enabled[level])
      continue;
    Tables[level].forEachShard([&](const RecordTable::ShardView &view) {
      floors[view.index] = view.floor;
      for (const Record &record : view.records)
        if (record.serial >= InheritedBelow) // a forked child's own
          Journal_.checkpointLive(level, record);
    });
    if (Opts.journal_stop_at_checkpoint == static_cast<long long>(number)) {
      Journal_.abandonCheckpoint(); // as a kill would leave it, half written
      return;
    }
    Journal_.checkpointFloors(level, floors.data(),
                              static_cast<unsigned>(floors.size()));
    if (Opts.implicit_release_is_leak)
      for (const ImplicitReleaseEvent &entry :
           implicitReleases(static_cast<Level>(level)))
        Journal_.checkpointImplicit(level, entry.acquired, entry.release.serial,
                                    entry.release.api, entry.release.site);
  }
  Journal_.endCheckpoint();
}

void Ledger::reportError(ErrorEvent error) {
  error.timeNs = Clock.nowNs();
  if (Observer && !Observer->error(error))
    return; // suppressed
  {
    std::lock_guard<std::mutex> lock(ErrorMutex);
    ErrorLog.push_back(error);
  }
  Errors.fetch_add(1, std::memory_order_relaxed);
}

std::vector<ErrorEvent> Ledger::errors() const {
  std::lock_guard<std::mutex> lock(ErrorMutex);
  return ErrorLog;
}

std::vector<ImplicitReleaseEvent> Ledger::implicitReleases(Level level) const {
  std::vector<ImplicitReleaseEvent> released;
  if (!Enabled[static_cast<int>(level)])
    return released;
  std::lock_guard<std::mutex> lock(ErrorMutex);
  for (const ImplicitReleaseEvent &entry : ImplicitLog[static_cast<int>(level)])
    if (entry.acquired.serial >= InheritedBelow)
      released.push_back(entry);
  return released;
}

std::vector<Record> Ledger::liveRecords(Level level) const {
  if (!Enabled[static_cast<int>(level)])
    return {};
  std::vector<Record> live = Tables[static_cast<int>(level)].snapshot();
  // After fork, what the parent held is the parent's to report.
  live.erase(std::remove_if(
                 live.begin(), live.end(),
                 [this](const Record &r) { return r.serial < InheritedBelow; }),
             live.end());
  if (Opts.implicit_release_is_leak)
    for (const ImplicitReleaseEvent &entry : implicitReleases(level))
      live.push_back(entry.acquired);
  if (LiveWorkspaces.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(RetainedMutex);
    const auto &workspaces = Workspaces[static_cast<int>(level)];
    for (Record &r : live) {
      auto found = workspaces.find(r.key);
      if (found != workspaces.end())
        r.workspaceOf = found->second;
    }
  }
  // A pool's backing block: its regions are reported instead.
  std::vector<uint64_t> bases = Heaps.liveBases();
  if (!bases.empty())
    live.erase(std::remove_if(live.begin(), live.end(),
                              [&](const Record &r) {
                                return familyOf(r.api).nameSpace == 0 &&
                                       std::find(bases.begin(), bases.end(),
                                                 r.key) != bases.end();
                              }),
               live.end());
  return live;
}

size_t Ledger::memoryBytes() const {
  return sizeof(*this) + Sites.memoryBytes() + Tables[0].memoryBytes() +
         Tables[1].memoryBytes();
}

// The order events take them in: a copy check holds its range index while
// it reads the table's shards, and an event takes its serial -- the clock's
// lock, at an epoch's first block -- under its shard's lock.
void Ledger::forkPrepare() {
  RetainedMutex.lock(); // held alone, never with another lock
  Heaps.forkPrepare();
  Notes.forkPrepare();
  ImplicitMutex.lock();
  ErrorMutex.lock();
  AccessIndex[0].lock();
  AccessIndex[1].lock();
  Tables[0].lockAll();
  Tables[1].lockAll();
  Clock.forkPrepare();
}

void Ledger::forkParent() {
  Clock.forkParent();
  Tables[1].unlockAll();
  Tables[0].unlockAll();
  AccessIndex[1].unlock();
  AccessIndex[0].unlock();
  ErrorMutex.unlock();
  ImplicitMutex.unlock();
  Notes.forkParent();
  Heaps.forkParent();
  RetainedMutex.unlock();
}

void Ledger::forkChild() {
  // The child reports only what it acquires itself; the parent still owns
  // (and reports) everything that was live at the fork.
  InheritedBelow = Clock.next();
  Clock.forkChild();
  forkParent(); // every lock forkPrepare took
  // The journal of the nearest ancestor that keeps one: a child that kept
  // none passes on the one it did not open.
  if (!Journal_.path().empty())
    ParentJournalPath = Journal_.path();
  Journal_.detach(); // the journal is the parent's
  // Its reports start at its first event: a child that only exec()s
  // (system(), popen()) is not one of the job's processes.
  ChildPending.store(true);
}

} // namespace msledger
