// Device memory lives in a GM-like range the host cannot dereference: touching
// it faults, as on real hardware. aclrtMemcpy is the way in and out.
//
// RUN: %acl_cc %s -o %t
// RUN: %t copy | FileCheck %s --check-prefix=COPY
// RUN: %expect-exit SIGSEGV %t touch 2>&1 | FileCheck %s --check-prefix=TOUCH
#include "acl/acl.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  aclInit(NULL);
  aclrtSetDevice(0);
  void *device = NULL;
  aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  printf("device pointer %p\n", device);
  // COPY: device pointer 0x1240800{{[0-9a-f]{5}$}}
  // TOUCH: device pointer 0x1240800{{[0-9a-f]{5}$}}
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "touch") == 0) {
    volatile char *bytes = (volatile char *)device;
    bytes[0] = 1; // faults
    puts("unreachable: the host wrote device memory");
    return 0;
  }
  char out[16] = "hello, device";
  char back[16] = {0};
  aclrtMemcpy(device, 4096, out, sizeof(out), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(back, sizeof(back), device, sizeof(out),
              ACL_MEMCPY_DEVICE_TO_HOST);
  printf("round trip: %s\n", back);
  // COPY: round trip: hello, device
  aclrtFree(device);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
// TOUCH-NOT: unreachable
