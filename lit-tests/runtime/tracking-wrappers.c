// The tracking wrappers of msledger/track.h, called as msrewrite writes them:
// the event carries the site's file:line at the ACL level; under the launcher
// the interposer records it instead (once, not twice) and attributes the
// driver allocations the ACL call makes to the same site -- the 32800 bytes
// behind the leaked aclrtMalloc and the runtime's own set-device memory.
//
// RUN: %acl_cc %s %ledger_link -o %t
// RUN: env MSLEDGER_OPTIONS=check_device_heap=no %expect-exit 23 %t 2> %t.direct
// RUN: FileCheck %s --check-prefix=DIRECT < %t.direct
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t 2> %t.cann
// RUN: FileCheck %s --check-prefix=CANN < %t.cann
// RUN: %expect-exit 23 %msledger --check-device-heap=yes %t 2> %t.device
// RUN: FileCheck %s --check-prefix=DEVICE < %t.device
// RUN: %expect-exit 23 %msledger %t 2> %t.both
// RUN: FileCheck %s --check-prefix=BOTH < %t.both
#include "acl/acl.h"
#include "msledger/track.h"

static const msledger_site kSites[] = {
    {"main.c", 20, 3, 100, "aclInit", "main"},
    {"main.c", 21, 3, 101, "aclrtSetDevice", "main"},
    {"main.c", 55, 13, 102, "aclrtMalloc", "main"},
    {"main.c", 60, 3, 103, "aclrtResetDevice", "main"},
    {"main.c", 61, 3, 104, "aclFinalize", "main"},
    {"main.c", 70, 3, 105, "aclrtFree", "main"}};

int main(void) {
  void *p = 0;
  int local = 0;
  msledger_aclInit(&kSites[0], 0);
  msledger_aclrtSetDevice(&kSites[1], 0);
  msledger_aclrtMalloc(&kSites[2], &p, 32768, ACL_MEM_MALLOC_HUGE_FIRST);
  msledger_aclrtFree(&kSites[5], &local);
  msledger_aclrtResetDevice(&kSites[3], 0);
  msledger_aclFinalize(&kSites[4]);
  return 0;
}
// DIRECT: ====== ERROR: illegal free()
// DIRECT-NEXT: ======    at 0x{{[0-9a-f]+}} on GM
// DIRECT-NEXT: ======    code in main.c:70 (serialNo:3)
// DIRECT: ======    Direct leak of 32768 byte(s)
// DIRECT-NEXT: ======      at 0x{{[0-9a-f]+}} on GM allocated in main.c:55 (serialNo:2)
// DIRECT: ====== SUMMARY: 32768 byte(s) leaked in 1 allocation(s)
// DIRECT-NOT: resource

// CANN: ====== ERROR: illegal free()
// CANN: ======    code in main.c:70
// CANN: ======    Direct leak of 32768 byte(s)
// CANN-NEXT: ======      at 0x{{[0-9a-f]+}} on GM allocated in main.c:55 (serialNo:2)
// CANN: ====== SUMMARY: 32768 byte(s) leaked in 1 allocation(s)

// DEVICE: ====== ERROR: illegal free()
// DEVICE: ======    code in main.c:70
// DEVICE: ======    Direct leak of 32800 byte(s)
// DEVICE-NEXT: ======      at 0x{{[0-9a-f]+}} on GM allocated in main.c:55 (serialNo:{{[0-9]+}})
// DEVICE: ====== SUMMARY: 32800 byte(s) leaked in 1 allocation(s)

// BOTH: ====== LeakCheck of the device heap (driver calls)
// BOTH: ======      at 0x[[A:[0-9a-f]+]] on GM allocated in main.c:55
// BOTH: ====== SUMMARY: 32800 byte(s) leaked in 1 allocation(s)
// BOTH: ====== LeakCheck of the CANN heap (ACL calls)
// BOTH: ======      at 0x[[A]] on GM allocated in main.c:55
// BOTH: ====== SUMMARY: 32768 byte(s) leaked in 1 allocation(s)
