//===- ledger.cpp - The ledger: live records, events, errors --------------===//
#include "ledger.h"

#include "escape.h"
#include "job.h"
#include "json_io.h"
#include "monitor.h"
#include "output.h"
#include "report.h"
#include "sarif.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <thread>
#include <time.h>
#include <unistd.h>

// The helpers of every event's path, inlined into acquire() and the release
// halves whatever the compiler's size heuristics say: a few instructions
// each, and the calls cost more than their work (LedgerPair benchmark).
#define MSLEDGER_HOT inline __attribute__((always_inline))

namespace msledger {

namespace {

// initial-exec: libmsledger is preloaded or linked, never dlopen'ed late, and
// the general-dynamic model would make every event call __tls_get_addr.
__attribute__((tls_model("initial-exec"))) thread_local uint16_t ThreadIndex =
    0;

// The serials the thread hands out next, [next, end): a block of the ledger's
// counter taken in the clock's epoch `epoch` (Ledger::serialAtLeast).
struct SerialBlock {
  uint64_t next;
  uint64_t end;
  uint32_t epoch;
  uint32_t size; // of the next block: smaller after a shard's conflict
};
__attribute__((tls_model("initial-exec"))) thread_local SerialBlock Serials;

// The thread's call chain (msledger_frame_push): the sites of the rewritten
// helper calls it is in, outermost first. Deeper calls are counted, not kept.
constexpr unsigned kMaxFrames = 32;
struct FrameStack {
  unsigned depth;
  const msledger_site *frames[kMaxFrames];
};
__attribute__((tls_model("initial-exec"))) thread_local FrameStack Frames;

// The thread's last interned chain: loops allocate through the same chain
// again and again, and comparing a few pointers is cheaper than a lookup.
struct LastChain {
  const Ledger *ledger;
  const msledger_site *site;
  unsigned count;
  uint32_t id;
  const msledger_site *callers[Ledger::kMaxChain];
};
__attribute__((tls_model("initial-exec"))) thread_local LastChain Last;

void atforkPrepare() { Ledger::get().forkPrepare(); }
void atforkParent() { Ledger::get().forkParent(); }
void atforkChild() { Ledger::get().forkChild(); }

uint64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL +
         static_cast<uint64_t>(ts.tv_nsec);
}

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

} // namespace

std::atomic<Ledger *> Ledger::Instance{nullptr};

Ledger &Ledger::create() {
  // Never destroyed: the application may release memory from its static
  // destructors, and the final report runs after them.
  static Ledger *ledger = [] {
    Ledger *created = new Ledger;
    Instance.store(created, std::memory_order_release);
    pthread_atfork(atforkPrepare, atforkParent, atforkChild);
    startMonitor(*created);
    return created;
  }();
  return *ledger;
}

Ledger *Ledger::existing() { return Instance.load(std::memory_order_acquire); }

Ledger::Ledger() {
  std::vector<std::string> problems;
  if (const char *text = getenv("MSLEDGER_OPTIONS"))
    Opts.parse(text, &problems);
  for (const std::string &problem : problems)
    fprintf(stderr, "msledger: MSLEDGER_OPTIONS: %s\n", problem.c_str());
  std::string suppressionError;
  if (!Opts.suppressions.empty() &&
      !Suppressions_.load(Opts.suppressions, &suppressionError)) {
    // As LeakSanitizer: a suppression file that cannot be read whole is
    // fatal, never half applied.
    fprintf(stderr, "msledger: %s\n", suppressionError.c_str());
    _exit(1);
  }
  Enabled[static_cast<int>(Level::Device)] = Opts.check_device_heap;
  Enabled[static_cast<int>(Level::Cann)] = Opts.check_cann_heap;
  Sites = static_cast<std::atomic<const msledger_site *> *>(
      calloc(kSiteSlots, sizeof(*Sites)));
  StartNs = monotonicNs();
  StartUnixMs = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
  Pid = getpid();
  ProjectRoot = absoluteDirectory(Opts.project_root);
  announceStart();
  openJournal(/*replaySites=*/false); // nothing is interned yet
  ChainDepth = static_cast<unsigned>(
      std::clamp<long long>(Opts.chain_depth, 0, kMaxChain));
  if (Opts.log_level == "info") {
    std::string levels = Opts.check_device_heap && Opts.check_cann_heap
                             ? "the device heap and the CANN heap"
                         : Opts.check_device_heap ? "the device heap"
                         : Opts.check_cann_heap
                             ? "the CANN heap"
                             : "nothing (both levels are off)";
    write("[msledger] pid " + std::to_string(Pid) + ": checking " + levels +
          "\n");
  }
}

namespace {

/// A key is the handle with its namespace in the top 8 bits; the memory
/// namespace (0) keys by the address itself.
constexpr uint64_t kHandleBits = 0x00FFFFFFFFFFFFFFULL;

uint64_t keyInNameSpace(uint64_t nameSpace, uint64_t handle) {
  return nameSpace == 0 ? handle : (nameSpace << 56) | (handle & kHandleBits);
}

/// Whether `handle` is NULL as a handle of `family`: a pointer handle's 0
/// (a device or model id of 0 is a handle; aclInit's family has none).
bool isNullPointer(const FamilyInfo &family, uint64_t handle) {
  return handle == 0 && family.hasHandle && family.handleIsPointer;
}

} // namespace

uint64_t Ledger::keyIn(const FamilyInfo &family, uint64_t handle) {
  return keyInNameSpace(family.nameSpace, handle);
}

uint64_t Ledger::keyOf(unsigned api, uint64_t handle) {
  return keyIn(familyOf(api), handle);
}

uint64_t Ledger::handleOf(uint64_t key) { return key & kHandleBits; }

MSLEDGER_HOT uint16_t Ledger::threadIndex() {
  if (ThreadIndex == 0)
    ThreadIndex = static_cast<uint16_t>(
        std::min<uint32_t>(NextThread.fetch_add(1), kMaxThread));
  return ThreadIndex;
}

uint32_t Ledger::internSite(const msledger_site *site) {
  if (!site || !Sites)
    return 0;
  uint64_t h = reinterpret_cast<uintptr_t>(site) * 0x9E3779B97F4A7C15ULL;
  uint32_t start = static_cast<uint32_t>(h >> 48) & (kSiteSlots - 1);
  // Give up well before the table is full: probes stay short.
  for (uint32_t probe = 0; probe < 512; ++probe) {
    uint32_t index = (start + probe) & (kSiteSlots - 1);
    const msledger_site *seen = Sites[index].load(std::memory_order_acquire);
    if (seen == site)
      return index + 1;
    if (!seen) {
      const msledger_site *expected = nullptr;
      if (Sites[index].compare_exchange_strong(expected, site,
                                               std::memory_order_acq_rel)) {
        if (Journal_.active())
          Journal_.site(index + 1, site);
        return index + 1;
      }
      if (expected == site)
        return index + 1;
    }
  }
  if (!SitesFullWarned.exchange(true))
    write("msledger: too many call sites; further events are reported without "
          "their location\n");
  return 0;
}

MSLEDGER_HOT uint32_t Ledger::internEvent(const msledger_site *site) {
  if (Frames.depth == 0 || ChainDepth == 0)
    return site ? internSite(site) : 0;
  return internInChain(site);
}

uint32_t Ledger::internInChain(const msledger_site *site) {
  // The innermost callers kept, innermost first: frames[kept - 1 - i].
  unsigned kept = std::min(Frames.depth, kMaxFrames);
  unsigned count = std::min(kept, ChainDepth);
  bool same = Last.ledger == this && Last.site == site && Last.count == count;
  for (unsigned i = 0; same && i < count; ++i)
    same = Last.callers[i] == Frames.frames[kept - 1 - i];
  if (same)
    return Last.id;
  // A chain not seen last: rare, so the copy may be zeroed first (GCC cannot
  // see that count > 0, and warns of the rest).
  const msledger_site *callers[kMaxChain] = {};
  for (unsigned i = 0; i < count; ++i)
    callers[i] = Frames.frames[kept - 1 - i];
  uint32_t id = internChain(site, callers, count);
  Last.ledger = this;
  Last.site = site;
  Last.count = count;
  Last.id = id;
  std::copy(callers, callers + count, Last.callers);
  return id;
}

uint32_t Ledger::internChain(const msledger_site *site,
                             const msledger_site *const *callers,
                             unsigned count) {
  Chain *chains = Chains.load(std::memory_order_acquire);
  if (!chains) {
    Chain *fresh = static_cast<Chain *>(calloc(kChainSlots, sizeof(Chain)));
    if (!fresh)
      return internSite(site);
    if (Chains.compare_exchange_strong(chains, fresh,
                                       std::memory_order_acq_rel))
      chains = fresh;
    else
      free(fresh); // another thread's table won
  }
  uint64_t h = reinterpret_cast<uintptr_t>(site) * 0x9E3779B97F4A7C15ULL;
  for (unsigned i = 0; i < count; ++i)
    h = (h ^ reinterpret_cast<uintptr_t>(callers[i])) * 0x9E3779B97F4A7C15ULL;
  uint32_t start = static_cast<uint32_t>(h >> 40) & (kChainSlots - 1);
  for (uint32_t probe = 0; probe < 512; ++probe) {
    uint32_t index = (start + probe) & (kChainSlots - 1);
    Chain &chain = chains[index];
    uint32_t state = chain.state.load(std::memory_order_acquire);
    if (state == 0) {
      uint32_t expected = 0;
      if (chain.state.compare_exchange_strong(expected, 1,
                                              std::memory_order_acq_rel)) {
        chain.site = site;
        chain.count = count;
        std::copy(callers, callers + count, chain.callers);
        chain.state.store(2, std::memory_order_release);
        if (Journal_.active()) {
          uint32_t callerIds[kMaxChain];
          for (unsigned i = 0; i < count; ++i)
            callerIds[i] = internSite(callers[i]);
          Journal_.chain(kSiteSlots + index + 1, internSite(site), callerIds,
                         count);
        }
        return kSiteSlots + index + 1;
      }
      state = expected;
    }
    while (state == 1) // being written by another thread: a few stores
      state = chain.state.load(std::memory_order_acquire);
    if (chain.site == site && chain.count == count &&
        std::equal(callers, callers + count, chain.callers))
      return kSiteSlots + index + 1;
  }
  if (!ChainsFullWarned.exchange(true))
    write("msledger: too many call chains; further events are reported "
          "without their callers\n");
  return internSite(site);
}

const msledger_site *Ledger::site(uint32_t id) const {
  if (id == 0 || !Sites)
    return nullptr;
  if (id <= kSiteSlots)
    return Sites[id - 1].load(std::memory_order_acquire);
  Chain *chains = Chains.load(std::memory_order_acquire);
  if (!chains || id - kSiteSlots - 1 >= kChainSlots)
    return nullptr;
  return chains[id - kSiteSlots - 1].site;
}

std::vector<const msledger_site *> Ledger::callers(uint32_t id) const {
  Chain *chains = Chains.load(std::memory_order_acquire);
  if (id <= kSiteSlots || !chains || id - kSiteSlots - 1 >= kChainSlots)
    return {};
  const Chain &chain = chains[id - kSiteSlots - 1];
  return std::vector<const msledger_site *>(chain.callers,
                                            chain.callers + chain.count);
}

MSLEDGER_HOT uint64_t Ledger::serialAtLeast(uint64_t atLeast) {
  SerialBlock &block = Serials;
  Ledger *ledger = Instance.load(std::memory_order_relaxed);
  uint32_t epoch = ledger->SerialEpoch.load(std::memory_order_relaxed);
  if (block.next < block.end && block.next >= atLeast && block.epoch == epoch)
    return block.next++;
  return ledger->renewSerials(atLeast, epoch);
}

uint64_t Ledger::renewSerials(uint64_t atLeast, uint32_t epoch) {
  SerialBlock &block = Serials;
  // When no other thread took serials since this block was taken, its rest
  // is taken again, and more: a lone thread's serials stay dense (and a
  // deterministic program's reports the same run after run). Either way
  // every serial handed out so far, `atLeast - 1` among them, is below the
  // new block.
  // Otherwise the rest of the block is lost. The blocks of a thread whose
  // events meet other threads' shrink (to 1, a serial an event, as one
  // counter would), and so do those of a thread that used less than half of
  // its block in an epoch (few events, few serials lost); they grow back (to
  // kSerialBlock) as they are used up. So contention costs neither the
  // counter's cache line on every event nor most of the serials.
  bool conflict = block.next < atLeast;
  uint64_t used = block.next - (block.end - block.size);
  uint32_t size =
      block.size == 0 ? static_cast<uint32_t>(kSerialBlock)
      : conflict      ? std::max(block.size / 4, 1U)
      : block.next == block.end
          ? std::min(block.size * 2, static_cast<uint32_t>(kSerialBlock))
      : used < block.size / 2 ? std::max(block.size / 2, 1U)
                              : block.size;
  uint64_t start = block.next;
  uint64_t expected = block.end;
  if (block.end == 0 || conflict ||
      !NextSerial.compare_exchange_strong(expected, start + size,
                                          std::memory_order_relaxed))
    start = NextSerial.fetch_add(size, std::memory_order_relaxed);
  block = SerialBlock{start, start + size, epoch, size};
  // The first block of an epoch marks when its serials began (timeOfSerial).
  if (CheckpointEpoch.load(std::memory_order_relaxed) != epoch + 1) {
    std::lock_guard<std::mutex> lock(ClockMutex);
    if (CheckpointEpoch.load(std::memory_order_relaxed) != epoch + 1) {
      CheckpointEpoch.store(epoch + 1, std::memory_order_relaxed);
      if (Checkpoints.empty() || Checkpoints.back().first < start)
        Checkpoints.emplace_back(start, nowNs());
    }
  }
  return block.next++;
}

void Ledger::renewSerialBlock() {
  renewSerials(0, SerialEpoch.load(std::memory_order_relaxed));
  --Serials.next; // handed out by the next event
}

uint64_t Ledger::nowNs() const { return monotonicNs() - StartNs; }

void Ledger::openJournal(bool replaySites) {
  if (Opts.journal_path.empty())
    return;
  std::string path = expandPath(Opts.journal_path, getpid(), processRank());
  std::string error;
  if (!Journal_.open(
          path, static_cast<uint64_t>(Opts.journal_size_mb) << 20, StartUnixMs,
          (Opts.check_device_heap ? kJournalDeviceLevel : 0u) |
              (Opts.check_cann_heap ? kJournalCannLevel : 0u) |
              (Opts.implicit_release_is_leak ? kJournalImplicitIsLeak : 0u),
          &error)) {
    fprintf(stderr, "msledger: %s; no journal\n", printable(error).c_str());
    return;
  }
  if (!replaySites)
    return;
  // A forked child's journal: the sites and chains interned before it
  // opened, which its events name. One interned meanwhile may be written
  // twice, the same both times.
  for (uint32_t index = 0; index < kSiteSlots; ++index)
    if (const msledger_site *site =
            Sites[index].load(std::memory_order_acquire))
      Journal_.site(index + 1, site);
  if (Chain *chains = Chains.load(std::memory_order_acquire))
    for (uint32_t index = 0; index < kChainSlots; ++index) {
      const Chain &chain = chains[index];
      if (chain.state.load(std::memory_order_acquire) != 2)
        continue;
      uint32_t callerIds[kMaxChain];
      for (unsigned i = 0; i < chain.count; ++i)
        callerIds[i] = internSite(chain.callers[i]);
      Journal_.chain(kSiteSlots + index + 1, internSite(chain.site), callerIds,
                     chain.count);
    }
}

void Ledger::startForkedChild() {
  announceStart();
  if (Opts.journal_path.empty())
    return;
  // Its own journal where the path names one (%p, or a rank of its own);
  // the parent's is the parent's.
  std::string path = expandPath(Opts.journal_path, getpid(), processRank());
  if (path != ParentJournalPath) {
    openJournal(/*replaySites=*/true);
    return;
  }
  write("msledger: pid " + std::to_string(getpid()) + ", forked from pid " +
        std::to_string(getppid()) + ", keeps no journal: " + printable(path) +
        " is its parent's (%p in journal_path gives each process its own)\n");
}

void Ledger::startClock() {
  if (StatusPending.exchange(false))
    startForkedChild(); // a forked child's first allocation
  bool expected = false;
  if (!ClockRunning.compare_exchange_strong(expected, true))
    return;
  std::thread([this] { clockLoop(); }).detach();
}

void Ledger::clockLoop() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr); // signals are the application's
  int pid = getpid();
  while (pid == getpid()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    // Each thread takes a new block of serials at its next event.
    SerialEpoch.fetch_add(1, std::memory_order_relaxed);
  }
}

uint64_t Ledger::timeOfSerial(uint64_t serial) const {
  std::lock_guard<std::mutex> lock(ClockMutex);
  // The epoch the serial's block was taken in: its first block started at
  // or before the serial, the next epoch's first after it.
  auto after =
      std::upper_bound(Checkpoints.begin(), Checkpoints.end(), serial,
                       [](uint64_t s, const std::pair<uint64_t, uint64_t> &c) {
                         return s < c.first;
                       });
  return after == Checkpoints.begin() ? 0 : std::prev(after)->second;
}

uint32_t Ledger::learnRoute(unsigned api) {
  const FamilyInfo &family = familyOf(api);
  uint32_t route = kRouteKnown | (static_cast<uint32_t>(family.level) & 1) |
                   (uint32_t{family.nameSpace} << 8);
  if (Enabled[static_cast<int>(family.level)])
    route |= kRouteTracked;
  if (family.refcounted)
    route |= kRouteRefcounted;
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
  *key = keyInNameSpace((route >> 8) & 0xFF, handle);
  return (route & kRouteTracked) && *key != 0 ? route : 0;
}

void Ledger::acquire(unsigned api, uint64_t handle, uint64_t size, Space space,
                     const msledger_site *site, int32_t device) {
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
  record.thread = threadIndex();
  record.site = internEvent(site);
  if (!ClockRunning.load(std::memory_order_relaxed))
    startClock();
  // Packed now: three words live across the calls below, not the fields.
  PackedRecord packed = RecordTable::pack(record);
  // A live key handed out again was released by something the catalog does
  // not describe: the new record replaces it.
  uint64_t serial;
  int level = route & kRouteLevel;
  Tables[level].acquire(packed, route & kRouteRefcounted, nullptr,
                        &Ledger::serialAtLeast, &serial);
  if (Journal_.active())
    journalAcquire(level, packed, serial);
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
  pending->event.api = static_cast<uint16_t>(api);
  pending->event.thread = threadIndex();
  pending->event.site = internEvent(site);
  // What a release ends without naming it is what was acquired before it:
  // its serial follows every serial handed out so far.
  pending->releasesOthers = route & kRouteReleasesOthers;
  if (pending->releasesOthers)
    renewSerialBlock();
  // NULL names nothing a family of pointer handles acquired (a device id or
  // a model id of 0 is a handle). It is never looked up: the records of a
  // family without handles (aclInit's) are keyed by 0 too, and would read as
  // a mismatched release of them.
  if (isNullPointer(familyOf(api), handle)) {
    pending->taken = RecordTable::TakeResult::NotFound;
    pending->event.serial = serialAtLeast(0);
    return;
  }
  // The release's serial is taken now, under the key's shard lock, before
  // the real call can let another thread be handed the same address: the
  // events of a key have serials in the order they happen.
  pending->taken = Tables[route & kRouteLevel].take(
      key, route & kRouteRefcounted, pending->event, &pending->record,
      &Ledger::serialAtLeast, &pending->event.serial);
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
  if (found && !succeeded)
    table.restore(RecordTable::unpack(pending.record), pending.taken,
                  pending.event);
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
    reportError(error);
    return;
  }
  if (isNullPointer(family, pending.handle)) {
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
  if (family.handleIsPointer &&
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
    if (!checkSide(
            table, AccessIndex[level], write ? ranges.write : ranges.read,
            write ? ranges.writeSize : ranges.readSize, write, ranges.direction,
            AnyHeap.load(std::memory_order_relaxed), &finding))
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
    error.site = internEvent(site);
    error.thread = threadIndex();
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
    error.serial = serialAtLeast(0);
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
    if (table.find(key, &candidate) &&
        familyOf(candidate.api).handleIsPointer &&
        (!any || candidate.serial > found->serial)) {
      *found = candidate;
      any = true;
    }
  }
  return any;
}

void Ledger::releaseImplicitly(const PendingRelease &pending) {
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
    if (Journal_.active())
      for (const Record &record : released[level])
        Journal_.release(level, record.key, pending.event.serial, pending.api,
                         pending.event.site, true);
    std::lock_guard<std::mutex> lock(ErrorMutex);
    for (const Record &record : released[level])
      ImplicitLog[level].push_back(ImplicitReleaseEvent{record, pending.event});
  }
}

uintptr_t Ledger::registerHeap(uint64_t base, uint64_t size) {
  AnyHeap.store(true, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(HeapMutex);
  Heaps.push_back(Heap{base, size, true});
  return Heaps.size();
}

void Ledger::unregisterHeap(uintptr_t heap) {
  std::lock_guard<std::mutex> lock(HeapMutex);
  if (heap >= 1 && heap <= Heaps.size())
    Heaps[heap - 1].live = false;
}

bool Ledger::heapRange(uintptr_t heap, uint64_t *base, uint64_t *size) const {
  std::lock_guard<std::mutex> lock(HeapMutex);
  if (heap < 1 || heap > Heaps.size() || !Heaps[heap - 1].live)
    return false;
  *base = Heaps[heap - 1].base;
  *size = Heaps[heap - 1].size;
  return true;
}

void Ledger::warn(const std::string &text) {
  write("====== WARNING: " + text + "\n");
}

bool Ledger::annotate(Annotation annotation) {
  bool full;
  {
    std::lock_guard<std::mutex> lock(AnnotationMutex);
    full = Annotations.size() >= kMaxAnnotations;
    if (!full)
      Annotations.push_back(std::move(annotation));
  }
  // Said once, outside the lock (fork takes the output's lock first).
  if (full && !AnnotationsFullWarned.exchange(true))
    warn("more than " + std::to_string(kMaxAnnotations) +
         " mstx marks and ranges: later ones are not kept");
  return !full;
}

void Ledger::mark(const std::string &message) {
  Annotation mark;
  mark.message = message;
  mark.startMs = nowNs() / 1000000;
  annotate(std::move(mark));
}

uint64_t Ledger::rangeStart(const std::string &message) {
  static std::atomic<uint64_t> nextId{0};
  Annotation range;
  range.message = message;
  range.range = true;
  range.startMs = nowNs() / 1000000;
  range.id = ++nextId;
  uint64_t id = range.id;
  annotate(std::move(range));
  return id;
}

void Ledger::rangeEnd(uint64_t id) {
  std::lock_guard<std::mutex> lock(AnnotationMutex);
  for (auto it = Annotations.rbegin(); it != Annotations.rend(); ++it)
    if (it->range && it->id == id && it->endMs < 0) {
      it->endMs = static_cast<int64_t>(nowNs() / 1000000);
      return;
    }
}

bool Ledger::inHeap(uintptr_t heap, uint64_t address, uint64_t size) const {
  uint64_t base, heapSize;
  return heapRange(heap, &base, &heapSize) && address >= base &&
         size <= heapSize && address - base <= heapSize - size;
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

void Ledger::reportError(ErrorEvent error) {
  error.timeNs = nowNs();
  {
    std::lock_guard<std::mutex> lock(ErrorMutex);
    uint64_t bytes =
        isAccessError(error.kind) ? error.badBytes
        : error.hasAcquired && familyOf(error.acquired.api).kind == Kind::Memory
            ? error.acquired.size
            : 0;
    if (Suppressions_.suppress(isAccessError(error.kind)
                                   ? SuppressionKind::Access
                                   : SuppressionKind::Free,
                               siteTable(), error.site, error.api, bytes))
      return;
    ErrorLog.push_back(error);
  }
  Errors.fetch_add(1, std::memory_order_relaxed);
  write(formatError(siteTable(), error, Enabled[0] && Enabled[1]));
}

std::vector<ErrorEvent> Ledger::errors() const {
  std::lock_guard<std::mutex> lock(ErrorMutex);
  return ErrorLog;
}

void Ledger::write(const std::string &text) {
  std::lock_guard<std::mutex> lock(OutputMutex);
  writeLog(Opts.log_path.empty()
               ? ""
               : expandPath(Opts.log_path, getpid(), processRank()),
           processLabel() + text);
}

SiteTable Ledger::siteTable() const {
  return {[this](uint32_t id) { return site(id); },
          [this](uint32_t id) { return callers(id); }};
}

ReportInput Ledger::reportInput() const {
  ReportInput input;
  input.sites = siteTable();
  input.tracked[0] = Enabled[0];
  input.tracked[1] = Enabled[1];
  input.pid = getpid();
  input.parentPid = getppid();
  input.rank = processRank();
  input.program = programPath();
  input.startUnixMs = StartUnixMs;
  input.sinceStartMs = nowNs() / 1000000;
  input.timeOfSerialNs = [this](uint64_t serial) {
    return timeOfSerial(serial);
  };
  for (Level level : {Level::Device, Level::Cann})
    input.implicit[static_cast<int>(level)] = implicitReleases(level);
  std::lock_guard<std::mutex> lock(AnnotationMutex);
  input.annotations = Annotations;
  return input;
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
  // A pool's backing block: its regions are reported instead.
  std::vector<uint64_t> bases;
  {
    std::lock_guard<std::mutex> lock(HeapMutex);
    for (const Heap &heap : Heaps)
      if (heap.live)
        bases.push_back(heap.base);
  }
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

std::string Ledger::leakReport(std::vector<Record> (&live)[2],
                               LeakTotals *totals) const {
  LeakSections what;
  what.checked[0] = Enabled[0];
  what.checked[1] = Enabled[1];
  what.groupBySite = Opts.group_by_site;
  what.includeResources = Opts.report_resources;
  what.noteImplicit = Opts.report_resources && !Opts.implicit_release_is_leak;
  std::vector<ImplicitReleaseEvent> implicit[2] = {
      implicitReleases(Level::Device), implicitReleases(Level::Cann)};
  return formatLeakSections(siteTable(), what, live, implicit, totals);
}

void Ledger::reportNow() {
  bool titled = Enabled[0] && Enabled[1];
  ReportInput input = reportInput();
  std::string text;
  for (Level level : {Level::Device, Level::Cann}) {
    if (!Enabled[static_cast<int>(level)])
      continue;
    if (!text.empty())
      text += '\n';
    text += formatLive(input, level, liveRecords(level), titled);
  }
  if (!text.empty())
    write(text);
}

void Ledger::writeSnapshot() {
  std::vector<Record> live[2] = {liveRecords(Level::Device),
                                 liveRecords(Level::Cann)};
  uint64_t sequence = SnapshotSequence.fetch_add(1) + 1;
  std::string text = formatSnapshot(reportInput(), live, sequence);
  std::string dir = expandPath(Opts.snapshot_dir, getpid(), processRank());
  makeDirectories(dir);
  char name[64];
  snprintf(name, sizeof name, "/snapshot-%06llu.json",
           static_cast<unsigned long long>(sequence));
  std::string path = dir + name;
  // Said once, with the path: a directory that cannot be made fails every
  // interval alike.
  if (!writeOutputFile(path, text, /*durable=*/false) &&
      !SnapshotFailed.exchange(true))
    write("msledger: cannot write the snapshot " + printable(path) + ": " +
          strerror(errno) + " (later snapshots that fail are not named)\n");
}

void Ledger::finish() {
  if (Finished.exchange(true))
    return;
  Journal_.exited();
  std::vector<Record> live[2] = {liveRecords(Level::Device),
                                 liveRecords(Level::Cann)};
  bool leaked = false;
  LeakTotals totals;
  if (Opts.leak_check) {
    for (std::vector<Record> &records : live)
      Suppressions_.filterLeaks(siteTable(), records);
    std::string out = leakReport(live, &totals);
    leaked = totals.allocations || totals.resources;
    if (!out.empty())
      write(out);
    else if (Opts.log_level == "info")
      write("[msledger] pid " + std::to_string(getpid()) + ": no leaks\n");
  }
  std::string suppressed =
      Suppressions_.formatUsed() + Suppressions_.formatUnused();
  if (!suppressed.empty())
    write(suppressed);
  // A report that cannot be written leaves the run incomplete: it fails as
  // findings do (runtime/README.md, "Exit status").
  bool written = true;
  if (!Opts.json_path.empty()) {
    std::string path = expandPath(Opts.json_path, getpid(), processRank());
    warnIfAnothers(path, "JSON report");
    if (!writeOutputFile(path, formatJson(reportInput(), live, errors(), true),
                         /*durable=*/true)) {
      written = false;
      write("msledger: cannot write the JSON report " + printable(path) + ": " +
            strerror(errno) + "\n");
    }
    // A rank set after the start (a worker's setenv after fork) renames it:
    // the start's report goes, unless another process has replaced it since.
    if (!StartJsonPath.empty() && StartJsonPath != path)
      removeIfUnchanged(StartJsonPath, StartJson);
  }
  if (!Opts.sarif_path.empty()) {
    std::string path = expandPath(Opts.sarif_path, getpid(), processRank());
    if (!writeOutputFile(
            path, formatSarif(reportInput(), live, errors(), ProjectRoot),
            /*durable=*/true)) {
      written = false;
      write("msledger: cannot write the SARIF log " + printable(path) + ": " +
            strerror(errno) + "\n");
    }
  }
  writeJobStatus(true, totals.allocations + totals.resources + errorCount(),
                 totals.bytes, written);
  if ((leaked || errorCount() > 0 || !written) && Opts.exitcode != 0)
    exitWithStatus(Opts.exitcode);
}

bool Ledger::warnIfAnothers(const std::string &path, const char *what) {
  std::optional<std::string> text = readRegularFile(path, 256 << 20);
  std::string ignored;
  std::unique_ptr<boost::json::object> report =
      text ? parseJsonObject(*text, path, &ignored) : nullptr;
  if (!report)
    return false;
  JsonFields fields(*report, path);
  int pid = static_cast<int>(fields.integer("pid", 0, INT32_MAX, 0));
  if (!fields.ok() || pid == 0 || pid == getpid() ||
      fields.string("tool") != "msledger")
    return false;
  // An earlier run's report is this run's to replace: only one of a process
  // still running, or of the parent this one was forked from (which may have
  // ended since), is another's.
  bool running = kill(pid, 0) == 0 || errno == EPERM;
  if (!running && pid != ForkParentPid)
    return false;
  write("msledger: the " + std::string(what) + " " + printable(path) +
        " is also pid " + std::to_string(pid) +
        "'s: give each process its own (%p in the path)\n");
  return true;
}

size_t Ledger::memoryBytes() const {
  return sizeof(*this) + kSiteSlots * sizeof(*Sites) + Tables[0].memoryBytes() +
         Tables[1].memoryBytes();
}

void Ledger::forkPrepare() {
  OutputMutex.lock();
  HeapMutex.lock();
  AnnotationMutex.lock();
  ErrorMutex.lock();
  ClockMutex.lock();
  Tables[0].lockAll();
  Tables[1].lockAll();
}

void Ledger::forkParent() {
  Tables[1].unlockAll();
  Tables[0].unlockAll();
  ClockMutex.unlock();
  ErrorMutex.unlock();
  AnnotationMutex.unlock();
  HeapMutex.unlock();
  OutputMutex.unlock();
}

void Ledger::forkChild() {
  // The child reports only what it acquires itself; the parent still owns
  // (and reports) everything that was live at the fork.
  InheritedBelow = NextSerial.load(std::memory_order_relaxed);
  Serials = SerialBlock{0, 0, 0, 0}; // the parent's: the child takes its own
  Pid = getpid();
  ClockRunning.store(false);
  forkParent();
  // The journal of the nearest ancestor that keeps one: a child that kept
  // none passes on the one it did not open.
  if (!Journal_.path().empty())
    ParentJournalPath = Journal_.path();
  ForkParentPid = getppid();
  Journal_.detach(); // the journal is the parent's
  // Announced at its first allocation: a child that only exec()s (system(),
  // popen()) is not one of the job's processes.
  StartJsonPath.clear();
  StatusPending.store(true);
  restartMonitorInChild(*this);
}

void Ledger::announceStart() {
  writeJobStatus(false, 0, 0, true);
  if (Opts.json_path.empty())
    return;
  std::vector<Record> none[2];
  std::string path = expandPath(Opts.json_path, getpid(), processRank());
  // Another process's report there is its own: a start report (which says
  // nothing yet) never replaces it.
  if (warnIfAnothers(path, "JSON report"))
    return;
  StartJsonPath = path;
  if (!writeOutputFile(path, formatJson(reportInput(), none, {}, false),
                       /*durable=*/false, &StartJson))
    write("msledger: cannot write the JSON report " + printable(path) + ": " +
          strerror(errno) + "\n");
}

void Ledger::writeJobStatus(bool exited, uint64_t findings,
                            uint64_t leakedBytes, bool complete) {
  if (Opts.job_dir.empty())
    return;
  JobProcess process;
  process.pid = getpid();
  process.parentPid = getppid();
  process.rank = processRank();
  process.program = programPath();
  process.exited = exited;
  process.findings = findings;
  process.leakedBytes = leakedBytes;
  process.complete = complete;
  writeOutputFile(jobStatusPath(Opts.job_dir, process.pid),
                  formatJobStatus(process), /*durable=*/false);
}

std::string Ledger::processLabel() const {
  int rank = processRank();
  const char *main = getenv("MSLEDGER_JOB_MAIN_PID");
  bool descendant = main && atoi(main) != getpid();
  if (rank < 0 && !descendant)
    return "";
  return "====== msledger: pid " + std::to_string(getpid()) + ", " +
         rankText(rank) + ", " + printable(programPath()) + "\n";
}

} // namespace msledger

// Outside the namespace: defined there, a C function would not take the
// visibility its declaration in msledger.h gives it.
extern "C" void msledger_frame_push(const msledger_site *site) {
  auto &frames = msledger::Frames;
  unsigned depth = frames.depth;
  if (depth < msledger::kMaxFrames)
    frames.frames[depth] = site;
  frames.depth = depth + 1;
}

extern "C" void msledger_frame_pop(void) {
  auto &frames = msledger::Frames;
  if (frames.depth)
    --frames.depth;
}
