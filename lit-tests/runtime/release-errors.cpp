// Errors are reported when they happen, with the address, the offending call
// (serialNo) and the original allocation where one exists: illegal free,
// double free, a free through the wrong family, a handle destroyed twice, a
// handle that was never created. They make the exit status 23 even without
// leaks. With both levels checked, each level reports what it sees.
//
// RUN: %acl_cxx -DENABLE_DVPP_INTERFACE %s -o %t
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t 2> %t.cann
// RUN: FileCheck %s --check-prefix=CANN --match-full-lines --strict-whitespace < %t.cann
// RUN: %expect-exit 23 %msledger --check-device-heap=yes %t 2> %t.device
// RUN: FileCheck %s --check-prefix=DEVICE --match-full-lines < %t.device
// RUN: %expect-exit 23 %msledger %t 2> %t.both
// RUN: FileCheck %s --check-prefix=BOTH < %t.both
// RUN: %msledger --check-cann-heap=yes --exitcode=0 %t 2> /dev/null
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#include <stdio.h>

int main(void) {
  aclInit(NULL);     // serialNo:0
  aclrtSetDevice(0); // 1
  void *device = NULL, *dvpp = NULL;
  aclrtMalloc(&device, 100, ACL_MEM_MALLOC_HUGE_FIRST); // 2
  aclrtFree(device);                                    // 3
  aclrtFree(device);                                    // 4: double free
  int onStack = 0;
  aclrtFreeHost(&onStack);                              // 5: illegal free
  aclrtMalloc(&device, 200, ACL_MEM_MALLOC_HUGE_FIRST); // 6
  aclrtFreeHost(device); // 7: mismatched (succeeds)
  aclrtMalloc(&device, 300, ACL_MEM_MALLOC_HUGE_FIRST); // 8
  acldvppFree(device);                                  // 9: mismatched
  acldvppMalloc(&dvpp, 400);                            // 10
  acldvppFree(dvpp);                                    // 11: fine
  aclrtStream stream;
  aclrtCreateStream(&stream);              // 12
  aclrtDestroyStream(stream);              // 13
  aclrtDestroyStream(stream);              // 14: double release
  aclrtDestroyEvent((aclrtEvent)&onStack); // 15: never acquired
  aclrtResetDevice(0);                     // 16
  aclFinalize();                           // 17
  return 0;
}

//      CANN:====== ERROR: double free
// CANN-NEXT:======    at 0x[[A1:[0-9a-f]+]] on GM
// CANN-NEXT:======    code in <unknown>:0 (serialNo:4)
// CANN-NEXT:======    freed before in <unknown>:0 (serialNo:3)
// CANN-NEXT:======    allocated in <unknown>:0 (serialNo:2)
// CANN-NEXT:======    the call returned an error
// CANN-EMPTY:
// CANN-NEXT:====== ERROR: illegal free()
// CANN-NEXT:======    at 0x{{[0-9a-f]+}} on host
// CANN-NEXT:======    code in <unknown>:0 (serialNo:5)
// CANN-NEXT:======    the call returned an error
// CANN-EMPTY:
// CANN-NEXT:====== ERROR: mismatched free: aclrtFreeHost on device memory allocated by aclrtMalloc
// CANN-NEXT:======    at 0x{{[0-9a-f]+}} on GM
// CANN-NEXT:======    code in <unknown>:0 (serialNo:7)
// CANN-NEXT:======    allocated in <unknown>:0 (serialNo:6)
// CANN-EMPTY:
// CANN-NEXT:====== ERROR: mismatched free: acldvppFree on device memory allocated by aclrtMalloc
// CANN-NEXT:======    at 0x{{[0-9a-f]+}} on GM
// CANN-NEXT:======    code in <unknown>:0 (serialNo:9)
// CANN-NEXT:======    allocated in <unknown>:0 (serialNo:8)
// CANN-EMPTY:
// CANN-NEXT:====== ERROR: double release: aclrtDestroyStream of a stream already released
// CANN-NEXT:======    at 0x{{[0-9a-f]+}}
// CANN-NEXT:======    code in <unknown>:0 (serialNo:14)
// CANN-NEXT:======    released before in <unknown>:0 (serialNo:13)
// CANN-NEXT:======    acquired in <unknown>:0 (serialNo:12)
// CANN-NEXT:======    the call returned an error
// CANN-EMPTY:
// CANN-NEXT:====== ERROR: illegal release: aclrtDestroyEvent of an event that was never acquired
// CANN-NEXT:======    at 0x{{[0-9a-f]+}}
// CANN-NEXT:======    code in <unknown>:0 (serialNo:15)
// CANN-NEXT:======    the call returned an error
// CANN-EMPTY:
//  CANN-NOT:{{.}}

// The driver sees the double free and the illegal free of the same pointers;
// the mismatched frees are plain halMemFree calls to it.
//      DEVICE:====== ERROR: double free
// DEVICE-NEXT:======    at 0x{{[0-9a-f]+}} on GM
// The driver cannot tell where an unknown pointer points.
//      DEVICE:====== ERROR: illegal free()
// DEVICE-NEXT:======    at 0x{{[0-9a-f]+}}
//  DEVICE-NOT:mismatched
//  DEVICE-NOT:LeakCheck

// BOTH: ====== ERROR: double free [device heap]
// BOTH: ====== ERROR: double free [CANN heap]
// BOTH: ====== ERROR: illegal free() [device heap]
// BOTH: ====== ERROR: illegal free() [CANN heap]
// BOTH: ====== ERROR: mismatched free: aclrtFreeHost on device memory allocated by aclrtMalloc [CANN heap]
