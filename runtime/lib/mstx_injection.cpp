//===- mstx_injection.cpp - msledger as an mstx injection library ---------===//
//
// A project annotated for msSanitizer calls mstx (mstx/ms_tools_ext.h,
// implemented in its own header): on first use that loads the library
// MSTX_INJECTION_PATH names and calls its InitInjectionMstx, which fills
// mstx's function table. The launcher points MSTX_INJECTION_PATH at
// libmsledger.so, whose InitInjectionMstx (here) maps the calls onto the
// ledger:
//
//   * mstxMemHeapRegister: the pool's block becomes a ledger heap (its own
//     allocation is no longer reported while it is one, its regions are),
//     and the heap a handle of the "mstx-heap" family, keyed by the block's
//     address (a heap never unregistered is a resource leak);
//   * mstxMemRegionsRegister / Unregister: each region of the batch is a
//     record of the "pool-region" family, released by pointer or by the
//     handle written to regionHandleArrayOut (the region's address); a
//     region outside its heap is refused with a warning;
//   * mstxMemHeapUnregister: the heap handle is released; regions still
//     registered in it are named in a warning (and stay live: leaks if
//     never unregistered);
//   * marks and ranges (and their domain forms) are annotations, which
//     snapshots and the timeline show.
//
// The mstx calls are inline in the application, so nothing interposes them:
// a call msrewrite rewrote names its site before the call
// (msledger_set_site), and each function here takes it. mstx's types and
// its function table's layout are our own declarations (mstx_types.h).
//
//===----------------------------------------------------------------------===//
#include "catalog_table.h"
#include "interpose.h"
#include "mstx_types.h"
#include "process.h"
#include "report.h"

#include <map>
#include <mutex>
#include <string>

namespace msledger {

namespace {

/// The regions registered through mstx, by address: their heap; and every
/// heap's block address, kept after it is unregistered (a second
/// unregistration is a double release of the same record).
struct MstxRegions {
  std::mutex Mutex;
  std::map<uint64_t, uintptr_t> heapOf;
  std::map<uintptr_t, uint64_t> baseOf;
};
MstxRegions &regions() {
  static MstxRegions *state = new MstxRegions; // never destroyed
  return *state;
}

unsigned api(const char *name) {
  int index = apiIndex(name);
  return index < 0 ? 0 : static_cast<unsigned>(index);
}

/// " in file:line", as reports place events; "" for no site.
std::string placeOf(const msledger_site *site) {
  return site && site->file ? " in " + location(site) : std::string();
}

mstxMemHeapHandle_t heapRegister(mstxDomainHandle_t,
                                 mstxMemHeapDesc_t const *desc) {
  const msledger_site *site = takePendingSite();
  if (!desc || desc->type != MSTX_MEM_TYPE_VIRTUAL_ADDRESS ||
      !desc->typeSpecificDesc)
    return nullptr;
  const auto *range =
      static_cast<const mstxMemVirtualRangeDesc_t *>(desc->typeSpecificDesc);
  if (!range->ptr || !range->size)
    return nullptr;
  Ledger &ledger = processLedger();
  uint64_t base = reinterpret_cast<uintptr_t>(range->ptr);
  uintptr_t heap = ledger.heaps().registerHeap(base, range->size);
  {
    MstxRegions &state = regions();
    std::lock_guard<std::mutex> lock(state.Mutex);
    state.baseOf[heap] = base;
  }
  // The heap's record is keyed by its block's address, which reports show.
  ledger.acquire(api("mstxMemHeapRegister"), base, 0, Space::None, site);
  return reinterpret_cast<mstxMemHeapHandle_t>(heap);
}

void heapUnregister(mstxDomainHandle_t, mstxMemHeapHandle_t handle) {
  const msledger_site *site = takePendingSite();
  Ledger &ledger = processLedger();
  uintptr_t heap = reinterpret_cast<uintptr_t>(handle);
  uint64_t base = 0, size = 0;
  size_t live = 0; // its regions still registered
  {
    MstxRegions &state = regions();
    std::lock_guard<std::mutex> lock(state.Mutex);
    auto known = state.baseOf.find(heap);
    if (known != state.baseOf.end())
      base = known->second;
    for (const auto &[address, owner] : state.heapOf)
      live += owner == heap;
  }
  if (ledger.heaps().heapRange(heap, &base, &size)) {
    if (live)
      processReporter().warn(
          "mstxMemHeapUnregister of the heap at " + hexText(base) + " (" +
          std::to_string(size) + " bytes)" + placeOf(site) + " while " +
          std::to_string(live) + " of its region(s) are still registered");
    ledger.heaps().unregisterHeap(heap);
  }
  // A handle that is no heap (base 0) is the ledger's illegal release.
  PendingRelease pending;
  ledger.beginRelease(api("mstxMemHeapUnregister"), base ? base : heap, site,
                      &pending);
  ledger.endRelease(pending, true);
}

void regionsRegister(mstxDomainHandle_t,
                     mstxMemRegionsRegisterBatch_t const *batch) {
  const msledger_site *site = takePendingSite();
  if (!batch || batch->regionType != MSTX_MEM_TYPE_VIRTUAL_ADDRESS ||
      !batch->regionDescArray)
    return;
  Ledger &ledger = processLedger();
  uintptr_t heap = reinterpret_cast<uintptr_t>(batch->heap);
  const auto *descs =
      static_cast<const mstxMemVirtualRangeDesc_t *>(batch->regionDescArray);
  for (size_t i = 0; i < batch->regionCount; ++i) {
    uint64_t address = reinterpret_cast<uintptr_t>(descs[i].ptr);
    if (batch->regionHandleArrayOut)
      batch->regionHandleArrayOut[i] = nullptr;
    if (!ledger.heaps().inHeap(heap, address, descs[i].size)) {
      processReporter().warn(
          "mstxMemRegionsRegister" + placeOf(site) + ": the region at " +
          hexText(address) + " (" + std::to_string(descs[i].size) +
          " bytes) is not inside a registered heap; not tracked");
      continue;
    }
    ledger.acquire(api("mstxMemRegionsRegister"), address, descs[i].size,
                   Space::GM, site);
    {
      MstxRegions &state = regions();
      std::lock_guard<std::mutex> lock(state.Mutex);
      state.heapOf[address] = heap;
    }
    if (batch->regionHandleArrayOut)
      batch->regionHandleArrayOut[i] =
          reinterpret_cast<mstxMemRegionHandle_t>(address);
  }
}

void regionsUnregister(mstxDomainHandle_t,
                       mstxMemRegionsUnregisterBatch_t const *batch) {
  const msledger_site *site = takePendingSite();
  if (!batch || !batch->refArray)
    return;
  Ledger &ledger = processLedger();
  for (size_t i = 0; i < batch->refCount; ++i) {
    const mstxMemRegionRef_t &ref = batch->refArray[i];
    uint64_t address = ref.refType == MSTX_MEM_REGION_REF_TYPE_HANDLE
                           ? reinterpret_cast<uintptr_t>(ref.handle)
                           : reinterpret_cast<uintptr_t>(ref.pointer);
    {
      MstxRegions &state = regions();
      std::lock_guard<std::mutex> lock(state.Mutex);
      state.heapOf.erase(address);
    }
    // An address that is no region is the ledger's illegal or double free.
    PendingRelease pending;
    ledger.beginRelease(api("mstxMemRegionsUnregister"), address, site,
                        &pending);
    ledger.endRelease(pending, true);
  }
}

void markA(const char *message, aclrtStream) {
  processLedger().annotations().mark(message ? message : "");
}

mstxRangeId rangeStartA(const char *message, aclrtStream) {
  return processLedger().annotations().rangeStart(message ? message : "");
}

void rangeEnd(mstxRangeId id) { processLedger().annotations().rangeEnd(id); }

/// msledger answers as msSanitizer, whose annotations projects check for.
void getToolId(uint64_t *id) {
  if (id)
    *id = MSTX_TOOL_MSSANITIZER_ID;
}

/// Domains name their annotations ("domain: message"); the handle is the
/// domain's name, kept for the process's life.
mstxDomainHandle_t domainCreateA(const char *name) {
  static std::mutex mutex;
  static auto *names = new std::map<std::string, std::string *>;
  std::lock_guard<std::mutex> lock(mutex);
  std::string *&kept = (*names)[name ? name : ""];
  if (!kept)
    kept = new std::string(name ? name : "");
  return reinterpret_cast<mstxDomainHandle_t>(kept);
}

void domainDestroy(mstxDomainHandle_t) {}

std::string inDomain(mstxDomainHandle_t domain, const char *message) {
  std::string text = message ? message : "";
  return domain ? *reinterpret_cast<std::string *>(domain) + ": " + text : text;
}

void domainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream) {
  processLedger().annotations().mark(inDomain(domain, message));
}

mstxRangeId domainRangeStartA(mstxDomainHandle_t domain, const char *message,
                              aclrtStream) {
  return processLedger().annotations().rangeStart(inDomain(domain, message));
}

void domainRangeEnd(mstxDomainHandle_t, mstxRangeId id) {
  processLedger().annotations().rangeEnd(id);
}

/// Fills `module`'s slots with `functions` (by slot id); false if the
/// application has no such module.
bool fill(mstxGetModuleFuncTableFunc getTable, mstxFuncModule module,
          std::initializer_list<std::pair<unsigned, mstxFuncPointer>> slots) {
  mstxFuncTable table = nullptr;
  unsigned int size = 0;
  if (getTable(module, &table, &size) != MSTX_SUCCESS || !table)
    return false;
  for (const auto &[slot, function] : slots)
    if (slot < size && table[slot])
      *table[slot] = function;
  return true;
}

template <typename F> mstxFuncPointer slot(F function) {
  return reinterpret_cast<mstxFuncPointer>(function);
}

} // namespace

} // namespace msledger

using namespace msledger;

extern "C" __attribute__((visibility("default"))) int
InitInjectionMstx(mstxGetModuleFuncTableFunc getTable) {
  if (!getTable)
    return MSTX_FAIL;
  bool core = fill(getTable, MSTX_API_MODULE_CORE,
                   {{MSTX_API_CORE_MARK_A, slot(markA)},
                    {MSTX_API_CORE_RANGE_START_A, slot(rangeStartA)},
                    {MSTX_API_CORE_RANGE_END, slot(rangeEnd)},
                    {MSTX_API_CORE_GET_TOOL_ID, slot(getToolId)}});
  bool domain =
      fill(getTable, MSTX_API_MODULE_CORE_DOMAIN,
           {{MSTX_API_CORE2_DOMAIN_CREATE_A, slot(domainCreateA)},
            {MSTX_API_CORE2_DOMAIN_DESTROY, slot(domainDestroy)},
            {MSTX_API_CORE2_DOMAIN_MARK_A, slot(domainMarkA)},
            {MSTX_API_CORE2_DOMAIN_RANGE_START_A, slot(domainRangeStartA)},
            {MSTX_API_CORE2_DOMAIN_RANGE_END, slot(domainRangeEnd)}});
  bool memory =
      fill(getTable, MSTX_API_MODULE_CORE_MEM,
           {{MSTX_API_CORE_MEMHEAP_REGISTER, slot(heapRegister)},
            {MSTX_API_CORE_MEMHEAP_UNREGISTER, slot(heapUnregister)},
            {MSTX_API_CORE_MEM_REGIONS_REGISTER, slot(regionsRegister)},
            {MSTX_API_CORE_MEM_REGIONS_UNREGISTER, slot(regionsUnregister)}});
  return core && domain && memory ? MSTX_SUCCESS : MSTX_FAIL;
}
