//===- preload.cpp - libmsledger_preload.so: finding the real functions ---===//
//
// The interposer library: the generated interposers (one per catalog
// function) and resolveNext(). It holds no state of its own -- it links
// libmsledger.so, whose ledger instrumented code reports to as well, so that
// both see one ledger.
//
//===----------------------------------------------------------------------===//
#include "interpose.h"

#include <cstdio>
#include <dlfcn.h>

namespace msledger {

void *resolveNext(const char *name) {
  void *real = dlsym(RTLD_NEXT, name);
  if (!real) {
    // A release's libraries lack some catalog APIs (7.x has no
    // aclrtMallocWithCfg): reached only by a call that could not have
    // linked without us -- a dlsym probe, or a binary built against a newer
    // release.
    const char *why = dlerror();
    fprintf(stderr,
            "msledger: %s is not in this process's libraries (%s); the call "
            "fails as unsupported\n",
            name, why ? why : "not found");
  }
  return real;
}

} // namespace msledger
