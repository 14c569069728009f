// msledger_register_api, as the wrappers of a project's catalog additions
// call it: a well-formed description gets an index (the same one again for
// the same name), its events are reported with the family's space and name,
// and a malformed description is refused with -1, as is one more API than
// the tables hold. Registered APIs have no interposer.
//
// RUN: %acl_cc %s %ledger_link -o %t
// RUN: env MSLEDGER_OPTIONS=check_device_heap=no %expect-exit 23 %t > %t.txt 2>&1
// RUN: FileCheck %s --match-full-lines < %t.txt
#include "msledger/msledger.h"

#include <stdio.h>

static msledger_api_description describe(const char *name, const char *role,
                                         const char *level, const char *kind,
                                         const char *space) {
  msledger_api_description d = {
      name, role, "pool", "pool block", level, kind, space, "memory", 0, 1, 1};
  return d;
}

static const msledger_site kAlloc = {"src/pool.c", 12,       3, 1,
                                     "poolAlloc",  "prepare"};

int main(void) {
  msledger_api_description alloc =
      describe("poolAlloc", "alloc", "cann", "memory", "host");
  msledger_api_description release =
      describe("poolFree", "free", "cann", "memory", "host");
  int alloc_api = msledger_register_api(&alloc);
  int free_api = msledger_register_api(&release);
  printf("registered %d %d again %d found %d\n", alloc_api >= 0,
         free_api > alloc_api, msledger_register_api(&alloc) == alloc_api,
         msledger_api_index("poolAlloc") == alloc_api);
  printf("interposed %d\n", msledger_api_interposed(alloc_api));

  msledger_api_description bad[] = {
      describe("badRole", "borrow", "cann", "memory", "host"),
      describe("badLevel", "alloc", "gpu", "memory", "host"),
      describe("badKind", "alloc", "cann", "buffer", "host"),
      describe("misfit", "acquire", "cann", "memory", "host"),
      describe(NULL, "alloc", "cann", "memory", "host"),
      describe("noRole", NULL, "cann", "memory", "host"),
  };
  for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
    printf("bad %u: %d\n", i, msledger_register_api(&bad[i]));
  printf("null: %d\n", msledger_register_api(NULL));

  // Fill the tables: every index answers "not interposed", then -1.
  static char names[1100][16];
  int last = free_api, interposed = 0;
  for (unsigned i = 0; i < 1100; ++i) {
    snprintf(names[i], sizeof(names[i]), "extra%u", i);
    msledger_api_description extra =
        describe(names[i], "alloc", "cann", "memory", "host");
    int api = msledger_register_api(&extra);
    if (api < 0)
      break;
    last = api;
    interposed += msledger_api_interposed(api);
  }
  msledger_api_description more =
      describe("oneMore", "alloc", "cann", "memory", "host");
  printf("filled up to %d, interposed %d, one more: %d\n", last, interposed,
         msledger_register_api(&more));
  fflush(stdout);

  msledger_record_acquire(alloc_api, 0x5000, 48, MSLEDGER_SPACE_HOST, &kAlloc);
  msledger_record_acquire(alloc_api, 0x6000, 16, MSLEDGER_SPACE_HOST, &kAlloc);
  msledger_record_release(free_api, 0x6000, 1, NULL);
  return 0;
}
// CHECK:registered 1 1 again 1 found 1
// CHECK-NEXT:interposed 0
// CHECK-NEXT:bad 0: -1
// CHECK-NEXT:bad 1: -1
// CHECK-NEXT:bad 2: -1
// CHECK-NEXT:bad 3: -1
// CHECK-NEXT:bad 4: -1
// CHECK-NEXT:bad 5: -1
// CHECK-NEXT:null: -1
// CHECK-NEXT:filled up to 1022, interposed 0, one more: -1
// CHECK:======    Direct leak of 48 byte(s)
// CHECK-NEXT:======      at 0x5000 on host allocated in src/pool.c:12 (serialNo:{{[0-9]+}})
// CHECK:====== SUMMARY: 48 byte(s) leaked in 1 allocation(s)
