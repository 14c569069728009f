// Several devices, each with its own GM range; the count comes from
// MSSIM_DEVICE_COUNT (default 2). Data moves between devices through
// device-to-device copies.
//
// RUN: %acl_cc %s -o %t
// RUN: %t | FileCheck %s
// RUN: env MSSIM_DEVICE_COUNT=4 %t | FileCheck %s --check-prefix=FOUR
#include "acl/acl.h"

#include <stdio.h>

int main(void) {
  aclInit(NULL);
  uint32_t count = 0;
  aclrtGetDeviceCount(&count);
  printf("devices: %u\n", count);
  // CHECK: devices: 2
  // FOUR: devices: 4
  aclrtContext contexts[2];
  void *buffers[2];
  for (int32_t device = 0; device < 2; ++device) {
    aclrtSetDevice(device);
    aclrtGetCurrentContext(&contexts[device]);
    aclrtMalloc(&buffers[device], 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    int32_t current = -1;
    aclrtGetDevice(&current);
    printf("device %d buffer %p\n", current, buffers[device]);
  }
  // CHECK: device 0 buffer 0x1240800{{[0-9a-f]{5}$}}
  // CHECK: device 1 buffer 0x1340800{{[0-9a-f]{5}$}}
  const char message[] = "from device 0";
  char back[32] = {0};
  aclrtSetCurrentContext(contexts[0]);
  aclrtMemcpy(buffers[0], 4096, message, sizeof(message),
              ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(buffers[1], 4096, buffers[0], sizeof(message),
              ACL_MEMCPY_DEVICE_TO_DEVICE);
  aclrtSetCurrentContext(contexts[1]);
  aclrtMemcpy(back, sizeof(back), buffers[1], sizeof(message),
              ACL_MEMCPY_DEVICE_TO_HOST);
  printf("device 1 holds: %s\n", back);
  // CHECK: device 1 holds: from device 0
  size_t free0 = 0, free1 = 0, total = 0;
  aclrtSetCurrentContext(contexts[0]);
  aclrtFree(buffers[0]);
  aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total);
  aclrtSetCurrentContext(contexts[1]);
  aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total);
  printf("device 1 uses %zu more bytes than device 0\n", free0 - free1);
  // CHECK: device 1 uses 4608 more bytes than device 0
  printf("device 2: %d\n", aclrtSetDevice(2));
  // CHECK: device 2: 107001
  // FOUR: device 2: 0
  aclrtFree(buffers[1]);
  aclFinalize();
  return 0;
}
