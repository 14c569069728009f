// What each way out reports: return from main and exit() run the leak check
// (and set the exit status); _exit() skips it -- nothing after _exit runs in
// the process, so its leaks are not reported (nor are those of a process
// killed by a signal: the launcher says so, see launcher.test).
//
// RUN: %acl_cc %s -o %t
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t return 2>&1 | FileCheck %s
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t exit 2>&1 | FileCheck %s
// RUN: %msledger --check-cann-heap=yes %t _exit > %t.out 2>&1
// RUN: count 0 < %t.out
#include "acl/acl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  (void)argc;
  void *p = NULL;
  aclInit(NULL);
  aclrtSetDevice(0);
  aclrtMalloc(&p, 512, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtResetDevice(0);
  aclFinalize();
  if (strcmp(argv[1], "exit") == 0)
    exit(0);
  if (strcmp(argv[1], "_exit") == 0)
    _exit(0);
  return 0;
}
// CHECK: ====== SUMMARY: 512 byte(s) leaked in 1 allocation(s)
