// The public C interface, as instrumented code calls it: events with sites are
// reported at their file:line; msledger_report() prints what is live now,
// by site, without stopping the process; group_by_site folds leaks by site, largest
// first; an unknown API index is rejected once with a message.
//
// RUN: %acl_cc %s %ledger_link -o %t
// RUN: env MSLEDGER_OPTIONS=check_device_heap=no %expect-exit 23 %t 2> %t.txt
// RUN: FileCheck %s --match-full-lines < %t.txt
// RUN: env MSLEDGER_OPTIONS=check_device_heap=no:group_by_site=yes:exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=GROUPED
#include "msledger/msledger.h"

#include <stdio.h>

static const msledger_site kLoop = {"src/pool.c",  41,    7, 3,
                                    "aclrtMalloc", "fill"};
static const msledger_site kBig = {"src/model.c", 120,   5, 9,
                                   "aclrtMalloc", "load"};
static const msledger_site kFree = {"src/pool.c", 58,     3, 4,
                                    "aclrtFree",  "drain"};

int main(void) {
  int malloc_api = msledger_api_index("aclrtMalloc");
  int free_api = msledger_api_index("aclrtFree");
  printf("%d %d %d\n", malloc_api >= 0, free_api >= 0,
         msledger_api_index("notAnApi"));
  for (uint64_t i = 0; i < 3; ++i)
    msledger_record_acquire(malloc_api, 0x124080100000 + i * 0x1000, 100,
                            MSLEDGER_SPACE_GM, &kLoop);
  msledger_record_acquire(malloc_api, 0x124080200000, 500, MSLEDGER_SPACE_GM,
                          &kBig);
  msledger_record_release(free_api, 0x124080101000, 1, &kFree);
  msledger_record_release(free_api, 0x124080101000, 0, &kFree);
  msledger_record_acquire(999, 1, 1, MSLEDGER_SPACE_GM, NULL);
  msledger_record_acquire(999, 2, 1, MSLEDGER_SPACE_GM, NULL);
  fprintf(stderr, "-- live now\n");
  msledger_report();
  fprintf(stderr, "-- errors so far: %llu\n",
          (unsigned long long)msledger_error_count());
  return 0;
}
// CHECK:====== ERROR: double free
// CHECK-NEXT:======    at 0x124080101000 on GM
// CHECK-NEXT:======    code in src/pool.c:58 (serialNo:5)
// CHECK-NEXT:======    freed before in src/pool.c:58 (serialNo:4)
// CHECK-NEXT:======    allocated in src/pool.c:41 (serialNo:1)
// CHECK-NEXT:======    the call returned an error
// CHECK:msledger: msledger_record_acquire with an API index (999) the catalog does not have; ignored
// CHECK-NOT:API index
// What is live now, by site, largest first:
// CHECK:-- live now
// CHECK-NEXT:====== LeakCheck: live now (pid {{[0-9]+}}, {{[0-9]+}} ms after start)
// CHECK-EMPTY:
// CHECK-NEXT:======    500 byte(s) in 1 allocation(s) on GM by aclrtMalloc in src/model.c:120 (first serialNo:3)
// CHECK-NEXT:======    200 byte(s) in 2 allocation(s) on GM by aclrtMalloc in src/pool.c:41 (first serialNo:0)
// CHECK-EMPTY:
// CHECK-NEXT:====== SUMMARY: 700 byte(s) in 3 allocation(s) and 0 resource(s) live
// CHECK-NEXT:-- errors so far: 1
// The final report, at exit:
// CHECK-NEXT:====== ERROR: LeakCheck: detected memory leaks
// CHECK:====== SUMMARY: 700 byte(s) leaked in 3 allocation(s)

// GROUPED:======    Direct leak of 500 byte(s) in 1 allocation(s)
// GROUPED-NEXT:======      on GM allocated by aclrtMalloc in src/model.c:120 (first serialNo:3)
// GROUPED:======    Direct leak of 200 byte(s) in 2 allocation(s)
// GROUPED-NEXT:======      on GM allocated by aclrtMalloc in src/pool.c:41 (first serialNo:0)
// GROUPED:====== SUMMARY: 700 byte(s) leaked in 3 allocation(s)
