// aclrtSetDevice makes device-level allocations of its own (module RUNTIME, 7):
// a 128 KiB pool and the default stream's 16 KiB queue. aclrtResetDevice
// releases them once the last reference goes; aclFinalize releases what the
// application never reset. Every stream holds 16 KiB until it is destroyed.
//
// RUN: %acl_cc %hal_include -shared -fPIC %S/Inputs/hal_trace.c -o %t.trace.so
// RUN: %acl_cc %s -o %t
// RUN: env LD_PRELOAD=%t.trace.so %t | FileCheck %s
#include "acl/acl.h"

#include <stdio.h>

static size_t used(void) {
  size_t free = 0, total = 0;
  aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
  return total - free;
}

int main(void) {
  aclInit(NULL);
  aclrtSetDevice(0);
  // CHECK: halMemAlloc size=131072 device=0 type=1 module=7 -> 0 [[POOL:0x[0-9a-f]+]]
  // CHECK: halMemAlloc size=16384 device=0 type=1 module=7 -> 0 [[QUEUE:0x[0-9a-f]+]]
  printf("in use after set-device: %zu\n", used());
  // CHECK: in use after set-device: 147456
  aclrtSetDevice(0);
  puts("second set-device allocates nothing");
  // CHECK-NEXT: second set-device allocates nothing
  aclrtStream stream;
  aclrtCreateStream(&stream);
  // CHECK-NEXT: halMemAlloc size=16384 device=0 type=1 module=7 -> 0 [[STREAM:0x[0-9a-f]+]]
  aclrtDestroyStream(stream);
  // CHECK-NEXT: halMemFree [[STREAM]] -> 0
  aclrtResetDevice(0);
  puts("first reset keeps the device");
  // CHECK-NEXT: first reset keeps the device
  aclrtResetDevice(0);
  // CHECK-DAG: halMemFree [[POOL]] -> 0
  // CHECK-DAG: halMemFree [[QUEUE]] -> 0
  puts("-- finalize releases devices still set");
  // CHECK-LABEL: -- finalize releases devices still set
  aclrtSetDevice(1);
  // CHECK: halMemAlloc size=131072 device=1 type=1 module=7 -> 0 [[POOL1:0x[0-9a-f]+]]
  // CHECK: halMemAlloc size=16384 device=1 type=1 module=7 -> 0 [[QUEUE1:0x[0-9a-f]+]]
  aclrtStream leaked;
  aclrtCreateStream(&leaked);
  // CHECK: halMemAlloc size=16384 device=1 type=1 module=7 -> 0 [[LEAKED:0x[0-9a-f]+]]
  aclFinalize();
  // CHECK-DAG: halMemFree [[POOL1]] -> 0
  // CHECK-DAG: halMemFree [[QUEUE1]] -> 0
  // CHECK-DAG: halMemFree [[LEAKED]] -> 0
  printf("destroying the stream after finalize: %d\n",
         aclrtDestroyStream(leaked));
  // CHECK: destroying the stream after finalize: 107003
  return 0;
}
// CHECK: live at exit: 0 allocation(s)
