// ACL memory reaches the driver as the real stack sends it: one halMemAlloc per
// call, device requests padded to (size + 32 + 31) / 32 * 32, the device id in
// the low bits of the flag, the memory type above it, module APP (33) on top.
//
// RUN: %acl_cc %hal_include -shared -fPIC %S/Inputs/hal_trace.c -o %t.trace.so
// RUN: %acl_cxx -DENABLE_DVPP_INTERFACE %s -o %t
// RUN: env LD_PRELOAD=%t.trace.so %t | FileCheck %s
#include "acl/acl.h"
#include "acl/dvpp/hi_dvpp.h"
#include "acl/ops/acl_dvpp.h"

#include <stdio.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != ACL_SUCCESS) {                                                  \
      printf("FAILED: %s\n", #x);                                              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(void) {
  void *p[10];
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  // CHECK: halMemAlloc size=131072 device=0 type=1 module=7 -> 0 0x124080000000
  // CHECK: halMemAlloc size=16384 device=0 type=1 module=7 -> 0
  puts("-- user allocations");
  // CHECK-LABEL: -- user allocations
  CHECK(aclrtMalloc(&p[0], 32768, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: halMemAlloc size=32800 device=0 type=1 module=33 -> 0 0x124080024000
  CHECK(aclrtMalloc(&p[1], 1, ACL_MEM_MALLOC_NORMAL_ONLY));
  // CHECK-NEXT: halMemAlloc size=64 device=0 type=1 module=33
  CHECK(aclrtMalloc(&p[2], 33, ACL_MEM_MALLOC_HUGE_ONLY));
  // CHECK-NEXT: halMemAlloc size=96 device=0 type=1 module=33
  CHECK(aclrtMallocCached(&p[3], 100, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: halMemAlloc size=160 device=0 type=1 module=33
  CHECK(aclrtMallocAlign32(&p[4], 33, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: halMemAlloc size=64 device=0 type=1 module=33
  aclrtMallocAttribute attr = {ACL_RT_MEM_ATTR_MODULE_ID, {.moduleId = 45}};
  aclrtMallocConfig cfg = {&attr, 1};
  CHECK(aclrtMallocWithCfg(&p[5], 1000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  // CHECK-NEXT: halMemAlloc size=1056 device=0 type=1 module=45
  CHECK(aclrtMallocHost(&p[6], 100));
  // CHECK-NEXT: halMemAlloc size=100 device=0 type=2 module=33
  CHECK(acldvppMalloc(&p[7], 1000));
  // CHECK-NEXT: halMemAlloc size=1000 device=0 type=3 module=33
  if (hi_mpi_dvpp_malloc(0, &p[8], 4096) != HI_SUCCESS)
    return 1;
  // CHECK-NEXT: halMemAlloc size=4096 device=0 type=3 module=33
  for (int i = 0; i < 6; ++i)
    CHECK(aclrtFree(p[i]));
  CHECK(aclrtFreeHost(p[6]));
  CHECK(acldvppFree(p[7]));
  if (hi_mpi_dvpp_free(p[8]) != HI_SUCCESS)
    return 1;
  // CHECK-COUNT-9: halMemFree 0x{{[0-9a-f]+}} -> 0
  puts("-- reset");
  // CHECK-LABEL: -- reset
  CHECK(aclrtResetDevice(0));
  // CHECK-COUNT-2: halMemFree 0x1240800{{[0-9a-f]+}} -> 0
  CHECK(aclFinalize());
  return 0;
}
// CHECK: live at exit: 0 allocation(s)
