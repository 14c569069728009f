// acldvppMallocWithCfg (8.5's DVPP allocation with a configuration) is DVPP
// memory of acldvppFree's family, tracked at both levels; acldvppFree
// releases it, aclrtFree is a mismatched free.
//
// RUN: %acl_cxx -DENABLE_DVPP_INTERFACE %s -o %t
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t 2>&1 | FileCheck %s --check-prefix=CANN
// RUN: %expect-exit 23 %msledger --check-device-heap=yes %t 2>&1 | FileCheck %s --check-prefix=DEVICE
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

int main() {
  void *kept = nullptr, *freed = nullptr, *wrong = nullptr;
  aclInit(nullptr);
  aclrtSetDevice(0);
  acldvppMallocWithCfg(&kept, 100, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
  acldvppMallocWithCfg(&freed, 200, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
  acldvppFree(freed);
  acldvppMallocWithCfg(&wrong, 300, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
  aclrtFree(wrong);
  aclrtResetDevice(0);
  return aclFinalize();
}

// CANN: ====== ERROR: mismatched free: aclrtFree on DVPP memory allocated by acldvppMallocWithCfg
// CANN: ======    Direct leak of 100 byte(s)
// CANN-NEXT: ======      at 0x{{[0-9a-f]+}} on DVPP allocated in <unknown>:0 (serialNo:{{[0-9]+}})
// CANN: ====== SUMMARY: 100 byte(s) leaked in 1 allocation(s)
// DEVICE: ======    Direct leak of 100 byte(s)
// DEVICE: ====== SUMMARY: 100 byte(s) leaked in 1 allocation(s)
