//===- api.cpp - The public C interface (msledger/msledger.h)
//--------------===//
#include "interpose.h"
#include "ledger.h"

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

extern "C" {

__attribute__((visibility("default"))) int
msledger_api_index(const char *callee) {
  return apiIndex(callee);
}

__attribute__((visibility("default"))) void
msledger_record_acquire(int api, uint64_t handle, uint64_t size,
                        msledger_space space, const msledger_site *site) {
  if (validApi(api, "msledger_record_acquire"))
    Ledger::get().acquire(static_cast<unsigned>(api), handle, size,
                          static_cast<Space>(space), site);
}

__attribute__((visibility("default"))) void
msledger_record_release(int api, uint64_t handle, int succeeded,
                        const msledger_site *site) {
  if (!validApi(api, "msledger_record_release"))
    return;
  PendingRelease pending;
  Ledger::get().beginRelease(static_cast<unsigned>(api), handle, site,
                             &pending);
  Ledger::get().endRelease(pending, succeeded != 0);
}

static_assert(sizeof(PendingRelease) <= sizeof(msledger_release),
              "msledger_release must hold a PendingRelease");
static_assert(alignof(PendingRelease) <= alignof(msledger_release),
              "msledger_release is not aligned enough");

__attribute__((visibility("default"))) void
msledger_release_begin(int api, uint64_t handle, const msledger_site *site,
                       msledger_release *state) {
  PendingRelease *pending = new (state) PendingRelease;
  if (validApi(api, "msledger_release_begin"))
    Ledger::get().beginRelease(static_cast<unsigned>(api), handle, site,
                               pending);
}

__attribute__((visibility("default"))) void
msledger_release_end(msledger_release *state, int succeeded) {
  PendingRelease *pending = reinterpret_cast<PendingRelease *>(state);
  Ledger::get().endRelease(*pending, succeeded != 0);
}

__attribute__((visibility("default"))) int msledger_api_interposed(int api) {
  return api >= 0 && apiInterposed(static_cast<unsigned>(api));
}

__attribute__((visibility("default"))) void
msledger_set_site(const msledger_site *site) {
  setPendingSite(site);
}

__attribute__((visibility("default"))) int
msledger_register_api(const msledger_api_description *d) {
  if (!d || !d->name || !d->role || !d->level || !d->kind)
    return -1;
  auto is = [](const char *a, const char *b) {
    return a && std::strcmp(a, b) == 0;
  };
  ApiDescription description{};
  description.name = d->name;
  if (is(d->role, "alloc"))
    description.role = Role::Alloc;
  else if (is(d->role, "free"))
    description.role = Role::Free;
  else if (is(d->role, "acquire"))
    description.role = Role::Acquire;
  else if (is(d->role, "release"))
    description.role = Role::Release;
  else
    return -1;
  if (!is(d->level, "cann") && !is(d->level, "device"))
    return -1;
  description.level = is(d->level, "device") ? Level::Device : Level::Cann;
  if (!is(d->kind, "memory") && !is(d->kind, "resource"))
    return -1;
  description.kind = is(d->kind, "memory") ? Kind::Memory : Kind::Resource;
  description.space = is(d->space, "GM")        ? Space::GM
                      : is(d->space, "host")    ? Space::Host
                      : is(d->space, "DVPP")    ? Space::DVPP
                      : is(d->space, "virtual") ? Space::Virtual
                                                : Space::None;
  description.family = d->family;
  description.display = d->display ? d->display : d->family;
  description.nameSpace = d->name_space ? d->name_space : d->family;
  description.refcounted = d->refcounted != 0;
  description.handleIsPointer = d->handle_is_address != 0;
  description.hasHandle = d->has_handle != 0;
  return registerApi(description);
}

__attribute__((visibility("default"))) void msledger_report(void) {
  Ledger::get().reportNow();
}

__attribute__((visibility("default"))) uint64_t msledger_error_count(void) {
  Ledger *ledger = Ledger::existing();
  return ledger ? ledger->errorCount() : 0;
}

} // extern "C"

// Runs from the dynamic linker's finalisation, after every static destructor
// of the application: releases made there are counted before the leak check.
__attribute__((destructor)) static void finishAtExit() {
  if (Ledger *ledger = Ledger::existing())
    ledger->finish();
}
