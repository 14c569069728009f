// MSSIM_GM_BASE moves the devices' address ranges where a tool needs them
// (ThreadSanitizer's shadow covers the default 0x124080000000); device
// memory is still inaccessible to the host and works through the driver.
//
// RUN: %acl_cc %s -o %t
// RUN: env MSSIM_GM_BASE=0x300000000000 %t | FileCheck %s --check-prefix=MOVED
// RUN: %t | FileCheck %s --check-prefix=DEFAULT
// RUN: env MSSIM_GM_BASE=0x1234 %t 2>&1 | FileCheck %s --check-prefix=BAD
#include "acl/acl.h"
#include <stdio.h>

int main(void) {
  void *p = 0;
  char in[4] = "abc", out[4] = "";
  aclInit(0);
  aclrtSetDevice(0);
  aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(p, 4, in, 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(out, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST);
  printf("device memory at %p holds %s\n", p, out);
  aclrtFree(p);
  aclrtResetDevice(0);
  return aclFinalize();
}
// MOVED: device memory at 0x300000024000 holds abc
// DEFAULT: device memory at 0x124080024000 holds abc
// BAD: mssim: ignoring MSSIM_GM_BASE='0x1234'
// BAD: device memory at 0x124080024000 holds abc
