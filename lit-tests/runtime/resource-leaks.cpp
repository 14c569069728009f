// Leaked resources get their own block: the kind, the handle (an address, an
// id, or nothing for aclInit), the API that acquired it and its serialNo.
// Memory leaks of other spaces are named for their space. A refcounted
// device set twice and reset once still holds one reference.
//
// RUN: %acl_cxx -DENABLE_DVPP_INTERFACE %s -o %t
// RUN: echo model > %t.om
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t %t.om 2> %t.txt
// RUN: FileCheck %s --match-full-lines --strict-whitespace < %t.txt
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes --report-resources=no %t %t.om 2>&1 | FileCheck %s --check-prefix=NORES
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

int main(int argc, char **argv) {
  (void)argc;
  aclInit(NULL);       // 0
  aclrtSetDevice(0);   // 1
  aclrtSetDevice(0);   // 2: second reference
  aclrtResetDevice(0); // 3: one reference left
  aclrtStream stream;
  aclrtCreateStream(&stream); // 4
  void *host = NULL, *dvpp = NULL;
  aclrtMallocHost(&host, 4096); // 5
  acldvppMalloc(&dvpp, 1000);   // 6
  char data[16];
  aclCreateDataBuffer(data, sizeof(data)); // 7
  uint32_t model = 0;
  aclmdlLoadFromFile(argv[1], &model); // 8
  int64_t dims[] = {2};
  aclTensorDesc *desc =
      aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND); // 9
  aclDestroyTensorDesc(desc);                                 // 10
  return 0;
}

//      CHECK:====== ERROR: LeakCheck: detected memory leaks
// CHECK-EMPTY:
// CHECK-NEXT:======    Direct leak of 4096 byte(s)
// CHECK-NEXT:======      at 0x{{[0-9a-f]+}} on host allocated in <unknown>:0 (serialNo:5)
// CHECK-EMPTY:
// CHECK-NEXT:======    Direct leak of 1000 byte(s)
// CHECK-NEXT:======      at 0x{{[0-9a-f]+}} on DVPP allocated in <unknown>:0 (serialNo:6)
// CHECK-EMPTY:
// CHECK-NEXT:====== SUMMARY: 5096 byte(s) leaked in 2 allocation(s)
// CHECK-EMPTY:
// CHECK-NEXT:====== ERROR: LeakCheck: detected resource leaks
// CHECK-EMPTY:
// CHECK-NEXT:======    Leaked AscendCL initialisation
// CHECK-NEXT:======      acquired by aclInit in <unknown>:0 (serialNo:0)
// CHECK-EMPTY:
// CHECK-NEXT:======    Leaked device set
// CHECK-NEXT:======      id 0 acquired by aclrtSetDevice in <unknown>:0 (serialNo:1)
// CHECK-EMPTY:
// CHECK-NEXT:======    Leaked stream
// CHECK-NEXT:======      at 0x{{[0-9a-f]+}} acquired by aclrtCreateStream in <unknown>:0 (serialNo:4)
// CHECK-EMPTY:
// CHECK-NEXT:======    Leaked data buffer of 16 byte(s)
// CHECK-NEXT:======      at 0x{{[0-9a-f]+}} acquired by aclCreateDataBuffer in <unknown>:0 (serialNo:7)
// CHECK-EMPTY:
// CHECK-NEXT:======    Leaked loaded model
// CHECK-NEXT:======      id 1 acquired by aclmdlLoadFromFile in <unknown>:0 (serialNo:8)
// CHECK-EMPTY:
// CHECK-NEXT:====== SUMMARY: 5 resource(s) leaked (AscendCL initialisation: 1, device set: 1, stream: 1, data buffer: 1, loaded model: 1)
//  CHECK-NOT:{{.}}

// NORES: ====== SUMMARY: 5096 byte(s) leaked in 2 allocation(s)
// NORES-NOT: resource
