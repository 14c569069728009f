// A program that releases everything gets no output from msledger at all, at
// either level, and keeps its own exit status.
//
// RUN: %acl_cc %s -o %t
// RUN: %msledger %t 2> %t.err > %t.out
// RUN: count 0 < %t.err
// RUN: FileCheck %s < %t.out
// RUN: %expect-exit 3 %msledger %t 3 2> %t.err3
// RUN: %msledger %t 3 2>/dev/null; test $? -eq 3
// RUN: count 0 < %t.err3
// RUN: %msledger --log-level=info %t 2>&1 | FileCheck %s --check-prefix=INFO
#include "acl/acl.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  aclInit(NULL);
  aclrtSetDevice(0);
  aclrtStream stream;
  aclrtCreateStream(&stream);
  void *p = NULL;
  aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemsetAsync(p, 1 << 20, 0, 1 << 20, stream);
  aclrtSynchronizeStream(stream);
  aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  puts("clean");
  return argc > 1 ? atoi(argv[1]) : 0;
}
// CHECK: clean
// INFO: [msledger] pid {{[0-9]+}}: checking the device heap and the CANN heap
// INFO: [msledger] pid {{[0-9]+}}: no leaks
