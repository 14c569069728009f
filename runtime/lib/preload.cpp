//===- preload.cpp - libmsledger_preload.so: finding the real functions
//-----===//
//
// The interposer library: the generated interposers (one per catalog
// function) and resolveNext(). It holds no state of its own -- it links
// libmsledger.so, whose ledger instrumented code reports to as well, so that
// both see one ledger.
//
//===----------------------------------------------------------------------===//
#include "interpose.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace msledger {

void *resolveNext(const char *name) {
  void *real = dlsym(RTLD_NEXT, name);
  if (!real) {
    const char *why = dlerror();
    fprintf(stderr, "msledger: cannot find the real %s after %s: %s\n", name,
            kPreloadLibrary, why ? why : "not found");
    abort();
  }
  return real;
}

} // namespace msledger
