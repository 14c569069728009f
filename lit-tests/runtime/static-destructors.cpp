// Allocations made before main (before the ledger has seen anything) are
// tracked; releases in destructors of static objects, which run after main
// returns, are counted before the leak check; an error there is reported.
//
// RUN: %acl_cxx %s -o %t
// RUN: %expect-exit 23 %msledger %t 2> %t.txt | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.txt
#include "acl/acl.h"

#include <cstdio>

namespace {

int notDeviceMemory;

struct Device {
  void *buffer = nullptr;
  Device() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtMalloc(&buffer, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  ~Device() { // after main: frees, resets, finalizes
    aclrtFree(buffer);
    aclrtResetDevice(0);
    aclFinalize();
  }
} device;

struct Cache {
  void *block = nullptr;
  Cache() {
    aclrtMalloc(&block, 8192, ACL_MEM_MALLOC_HUGE_FIRST);
  } // never freed
} cache;

struct Sloppy {
  ~Sloppy() { aclrtFree(&notDeviceMemory); }
} sloppy;

} // namespace

int main() {
  std::puts("main ran");
  return 0;
}
// OUT: main ran
// CHECK: ====== ERROR: illegal free() [CANN heap]
// CHECK: ====== LeakCheck of the device heap (driver calls)
// CHECK: ======    Direct leak of 8224 byte(s)
// CHECK: ====== SUMMARY: 8224 byte(s) leaked in 1 allocation(s)
// CHECK: ====== LeakCheck of the CANN heap (ACL calls)
// CHECK: ======    Direct leak of 8192 byte(s)
// CHECK: ====== SUMMARY: 8192 byte(s) leaked in 1 allocation(s)
// CHECK-NOT: Direct leak
// CHECK-NOT: resource
