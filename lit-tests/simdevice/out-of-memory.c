// Running out of device memory returns ACL_ERROR_RT_MEMORY_ALLOCATION (207001)
// from ACL and DRV_ERROR_OUT_OF_MEMORY (6) from the driver; nothing crashes and
// freed memory is usable again. MSSIM_DEVICE_MEMORY sets the capacity.
//
// RUN: %acl_cc %hal_include %s -o %t
// RUN: env MSSIM_DEVICE_MEMORY=64M %t | FileCheck %s
// RUN: env MSSIM_DEVICE_MEMORY=lots %t 2>&1 | FileCheck %s --check-prefix=BAD
#include "acl/acl.h"
#include "driver/ascend_hal.h"

#include <stdio.h>

int main(void) {
  aclInit(NULL);
  aclrtSetDevice(0);
  size_t free = 0, total = 0;
  aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
  printf("total %zu\n", total);
  // CHECK: total 67108864
  // BAD: mssim: ignoring MSSIM_DEVICE_MEMORY='lots'
  // BAD: total 34359738368
  void *huge = NULL;
  printf("aclrtMalloc(128M): %d\n",
         aclrtMalloc(&huge, 128u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK: aclrtMalloc(128M): 207001
  printf("halMemAlloc(128M): %d\n", halMemAlloc(&huge, 128u << 20, MEM_DEV));
  // CHECK: halMemAlloc(128M): 6
  void *blocks[64];
  int count = 0;
  while (count < 64 && aclrtMalloc(&blocks[count], 8u << 20,
                                   ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS)
    ++count;
  printf("8 MiB blocks that fit: %d\n", count);
  // CHECK: 8 MiB blocks that fit: 7
  void *more = NULL;
  printf("one more: %d\n",
         aclrtMalloc(&more, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK: one more: 207001
  printf("recent error: %s\n", aclGetRecentErrMsg());
  // CHECK: recent error: aclrtMalloc: out of device memory: 8388608 bytes on device 0 (error 207001)
  aclrtFree(blocks[0]);
  printf("after a free: %d\n",
         aclrtMalloc(&more, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK: after a free: 0
  return 0;
}
