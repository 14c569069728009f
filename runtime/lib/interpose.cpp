//===- interpose.cpp - What the generated interposers stand on
//-------------===//
#include "interpose.h"

#include "ledger.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace msledger {

namespace {
__attribute__((tls_model("initial-exec"))) thread_local int Depth[2] = {0, 0};
}

void *resolveNext(const char *name) {
  void *real = dlsym(RTLD_NEXT, name);
  if (!real) {
    const char *why = dlerror();
    fprintf(stderr, "msledger: cannot find the real %s after libmsledger: %s\n",
            name, why ? why : "not found");
    abort();
  }
  return real;
}

Space spaceFromDriverFlag(unsigned long long flag) {
  // Bits 10-13 of the flag: SVM 0, DEV 1, HOST 2, DVPP 3 (driver/ascend_hal.h).
  switch ((flag >> 10) & 0xF) {
  case 2:
    return Space::Host;
  case 3:
    return Space::DVPP;
  default:
    return Space::GM;
  }
}

CallScope::CallScope(unsigned api)
    : Api(api), LevelIndex(static_cast<int>(familyOf(api).level)) {
  Tracking =
      Depth[LevelIndex]++ == 0 && Ledger::get().tracking(familyOf(api).level);
}

CallScope::~CallScope() { --Depth[LevelIndex]; }

void CallScope::acquired(uint64_t handle, uint64_t size, Space space) {
  Ledger::get().acquire(Api, handle, size, space, nullptr);
}

void CallScope::releasing(uint64_t handle) {
  Ledger::get().beginRelease(Api, handle, nullptr, &Pending);
}

void CallScope::released(bool succeeded) {
  Ledger::get().endRelease(Pending, succeeded);
}

} // namespace msledger
