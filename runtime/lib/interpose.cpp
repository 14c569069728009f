//===- interpose.cpp - What the generated interposers stand on ------------===//
#include "interpose.h"

#include "process.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <string>

namespace msledger {

__thread ThreadCalls CurrentCalls;
std::atomic<unsigned> LevelsTracked{0};

unsigned startLedger() {
  Ledger &ledger = processLedger();
  unsigned levels = kLedgerStarted;
  for (Level level : {Level::Device, Level::Cann})
    if (ledger.tracking(level))
      levels |= 1U << static_cast<int>(level);
  LevelsTracked.store(levels, std::memory_order_relaxed);
  return levels;
}

namespace {
/// Per built-in API: 0 not known yet, 1 interposed, 2 not.
std::atomic<uint8_t> Interposed[1024];
} // namespace

const msledger_site *operatorSite(const char *function) {
  static std::mutex mutex;
  // Never destroyed: sites are referred to until the process ends.
  static auto *sites = new std::map<std::string, msledger_site>();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = sites->find(function);
  if (found == sites->end()) {
    found = sites->emplace(function, msledger_site{}).first;
    found->second.callee = found->first.c_str();
  }
  return &found->second;
}

void setPendingSite(const msledger_site *site) {
  CurrentCalls.pendingSite = site;
}

const msledger_site *takePendingSite() {
  const msledger_site *site = CurrentCalls.pendingSite;
  CurrentCalls.pendingSite = nullptr;
  return site;
}

bool apiInterposed(unsigned api) {
  // Only the built-in catalog has interposers: registered APIs (indices from
  // kApiCount up) never reach one, and need no lookup. The bound on
  // Interposed is then independent of how many APIs may be registered.
  if (api >= kApiCount || api >= std::size(Interposed))
    return false;
  uint8_t known = Interposed[api].load(std::memory_order_relaxed);
  if (known)
    return known == 1;
  // An mstx call reaches msledger through the mstx injection, which takes
  // the site a rewritten call names (takePendingSite) and records the events.
  if (Apis[api].recordedByCallee) {
    Interposed[api].store(1, std::memory_order_relaxed);
    return true;
  }
  // Interposed if the application's lookup finds the preload library's
  // definition (it is loaded, and ahead of the API's own library). Looked up
  // once per API: libraries loaded later do not change the answer.
  static void *self = dlopen(kPreloadLibrary, RTLD_LAZY | RTLD_NOLOAD);
  void *ours = self ? dlsym(self, apiInfo(api).name) : nullptr;
  bool interposed = ours && dlsym(RTLD_DEFAULT, apiInfo(api).name) == ours;
  Interposed[api].store(interposed ? 1 : 2, std::memory_order_relaxed);
  return interposed;
}

void CallScope::acquired(uint64_t handle, uint64_t size, Space space) {
  int32_t device = Device;
  if (device < 0 && static_cast<Level>(LevelIndex) == Level::Cann)
    device = CurrentCalls.currentDevice;
  processLedger().acquire(Api, handle, size, space, Site, device);
}

void CallScope::accessed(const AccessRanges &ranges) {
  processLedger().access(Api, Site, ranges);
}

void CallScope::releasing(uint64_t handle) {
  Pending = new (PendingStorage) PendingRelease;
  processLedger().beginRelease(Api, handle, Site, Pending);
}

void CallScope::released(bool succeeded) {
  if (Pending)
    processLedger().endRelease(*Pending, succeeded);
}

void CallScope::owned(unsigned api, uint64_t handle) {
  PendingRelease pending;
  processLedger().beginRelease(api, handle, Site, &pending);
  processLedger().endRelease(pending, true);
}

void CallScope::retained(uint64_t handle) {
  processLedger().retain(Api, handle, Site);
}

void CallScope::prepared(const msledger_site *own, uint64_t executor,
                         uint64_t workspaceSize) {
  processLedger().operatorPrepared(Api, executor, workspaceSize,
                                   Site ? Site : own);
}

void CallScope::consuming(const msledger_site *own, uint64_t executor) {
  processLedger().consume(Api, executor, Site ? Site : own);
}

} // namespace msledger
