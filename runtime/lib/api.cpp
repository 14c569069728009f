//===- api.cpp - The public C interface (msledger/msledger.h) -------------===//
#include "interpose.h"
#include "process.h"

#include <cstdio>
#include <cstring>
#include <new>

using namespace msledger;

namespace {

bool validApi(int api, const char *call) {
  if (api >= 0 && static_cast<size_t>(api) < apiCount())
    return true;
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    fprintf(stderr,
            "msledger: %s with an API index (%d) the catalog does not have; "
            "ignored\n",
            call, api);
  return false;
}

} // namespace

// The catalog's Space is msledger_space: generated code passes one for the
// other.
static_assert(static_cast<int>(Space::None) == MSLEDGER_SPACE_NONE &&
                  static_cast<int>(Space::GM) == MSLEDGER_SPACE_GM &&
                  static_cast<int>(Space::Host) == MSLEDGER_SPACE_HOST &&
                  static_cast<int>(Space::DVPP) == MSLEDGER_SPACE_DVPP &&
                  static_cast<int>(Space::Virtual) == MSLEDGER_SPACE_VIRTUAL,
              "msledger::Space and msledger_space agree");

extern "C" {

int msledger_api_index(const char *callee) { return apiIndex(callee); }

int msledger_api_index_hint(int hint, const char *callee) {
  if (callee && hint >= 0 && static_cast<size_t>(hint) < apiCount() &&
      strcmp(apiInfo(static_cast<unsigned>(hint)).name, callee) == 0)
    return hint;
  return apiIndex(callee);
}

void msledger_record_acquire(int api, uint64_t handle, uint64_t size,
                             msledger_space space, const msledger_site *site) {
  if (validApi(api, "msledger_record_acquire"))
    processLedger().acquire(static_cast<unsigned>(api), handle, size,
                            static_cast<Space>(space), site);
}

void msledger_record_access(int api, const msledger_site *site, uint64_t write,
                            uint64_t write_size, uint64_t read,
                            uint64_t read_size, int direction) {
  if (validApi(api, "msledger_record_access"))
    processLedger().access(static_cast<unsigned>(api), site,
                           {write, write_size, read, read_size, direction});
}

void msledger_record_release(int api, uint64_t handle, int succeeded,
                             const msledger_site *site) {
  if (!validApi(api, "msledger_record_release"))
    return;
  PendingRelease pending;
  processLedger().beginRelease(static_cast<unsigned>(api), handle, site,
                               &pending);
  processLedger().endRelease(pending, succeeded != 0);
}

static_assert(sizeof(PendingRelease) <= sizeof(msledger_release),
              "msledger_release must hold a PendingRelease");
static_assert(alignof(PendingRelease) <= alignof(msledger_release),
              "msledger_release is not aligned enough");

void msledger_release_begin(int api, uint64_t handle, const msledger_site *site,
                            msledger_release *state) {
  PendingRelease *pending = new (state) PendingRelease;
  if (validApi(api, "msledger_release_begin"))
    processLedger().beginRelease(static_cast<unsigned>(api), handle, site,
                                 pending);
}

void msledger_release_end(msledger_release *state, int succeeded) {
  PendingRelease *pending = reinterpret_cast<PendingRelease *>(state);
  processLedger().endRelease(*pending, succeeded != 0);
}

void msledger_record_retain(int api, uint64_t handle,
                            const msledger_site *site) {
  if (validApi(api, "msledger_record_retain"))
    processLedger().retain(static_cast<unsigned>(api), handle, site);
}

void msledger_operator_enter(void) {
  ++CurrentCalls.depth[static_cast<int>(Level::Cann)];
}

void msledger_operator_leave(void) {
  --CurrentCalls.depth[static_cast<int>(Level::Cann)];
}

void msledger_operator_prepared(const char *function, uint64_t executor,
                                uint64_t workspace_size,
                                const msledger_site *site) {
  if (kOperatorPrepareApi >= 0 && function)
    processLedger().operatorPrepared(static_cast<unsigned>(kOperatorPrepareApi),
                                     executor, workspace_size,
                                     site ? site : operatorSite(function));
}

void msledger_operator_run(const char *function, uint64_t executor,
                           const msledger_site *site) {
  if (kOperatorRunApi >= 0 && function && executor)
    processLedger().consume(static_cast<unsigned>(kOperatorRunApi), executor,
                            site ? site : operatorSite(function));
}

int msledger_api_interposed(int api) {
  return api >= 0 && apiInterposed(static_cast<unsigned>(api));
}

void msledger_set_site(const msledger_site *site) { setPendingSite(site); }

int msledger_register_api(const msledger_api_description *d) {
  if (!d || !d->name || !d->role || !d->level || !d->kind)
    return -1;
  std::optional<Role> role = roleNamed(d->role);
  std::optional<Level> level = levelNamed(d->level);
  std::optional<Kind> kind = kindNamed(d->kind);
  // Retaining and consuming are the built-in operator rule's alone.
  if (!role || !level || !kind || *role == Role::Retain ||
      *role == Role::Consume)
    return -1;
  ApiDescription description{};
  description.name = d->name;
  description.role = *role;
  description.level = *level;
  description.kind = *kind;
  // An unknown or missing space is no space.
  description.space =
      d->space ? spaceNamed(d->space).value_or(Space::None) : Space::None;
  description.family = d->family;
  description.display = d->display ? d->display : d->family;
  description.nameSpace = d->name_space ? d->name_space : d->family;
  description.refcounted = d->refcounted != 0;
  description.handleIsPointer = d->handle_is_address != 0;
  description.hasHandle = d->has_handle != 0;
  return registerApi(description);
}

// The pool calls do no bookkeeping of regions themselves: they are catalog
// functions, recorded by their interposer or tracking wrapper like any other.
msledger_heap *msledger_heap_register(const void *base, size_t size) {
  if (!base || !size)
    return nullptr;
  return reinterpret_cast<msledger_heap *>(processLedger().heaps().registerHeap(
      static_cast<uint64_t>(reinterpret_cast<uintptr_t>(base)), size));
}

void msledger_heap_unregister(msledger_heap *heap) {
  processLedger().heaps().unregisterHeap(reinterpret_cast<uintptr_t>(heap));
}

int msledger_region_register(msledger_heap *heap, void *ptr, size_t size) {
  return processLedger().heaps().inHeap(
             reinterpret_cast<uintptr_t>(heap),
             static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr)), size)
             ? 0
             : MSLEDGER_REGION_OUTSIDE_HEAP;
}

int msledger_region_unregister(msledger_heap *heap, void *ptr) {
  return processLedger().heaps().inHeap(
             reinterpret_cast<uintptr_t>(heap),
             static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr)), 1)
             ? 0
             : MSLEDGER_REGION_OUTSIDE_HEAP;
}

void msledger_report(void) { processReporter().reportNow(); }

msledger_space msledger_driver_space(unsigned long long flag) {
  return static_cast<msledger_space>(spaceFromDriverFlag(flag));
}

uint64_t msledger_key_handle(const char *key) { return keyHandle(key); }

uint64_t msledger_error_count(void) {
  Ledger *ledger = existingProcessLedger();
  return ledger ? ledger->errorCount() : 0;
}

} // extern "C"

// The ledger from the start, so that the report signal is handled before
// the application's first tracked call.
__attribute__((constructor)) static void startAtLoad() { processLedger(); }

// Runs from the dynamic linker's finalisation, after every static destructor
// of the application: releases made there are counted before the leak check.
__attribute__((destructor)) static void finishAtExit() { finishProcess(); }
