// What each way out reports: return from main and exit() run the leak check
// (and set the exit status); _exit() skips it -- nothing after _exit runs in
// the process, so its leaks are not reported (nor are those of a process
// killed by a signal: the launcher says so, see launcher.test). The run is
// then incomplete: the launcher names the process and fails the run as
// findings do (runtime/README.md, "Exit status").
//
// RUN: %acl_cc %s -o %t
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t return 2>&1 | FileCheck %s
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t exit 2>&1 | FileCheck %s
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes %t _exit 2>&1 | FileCheck %s --check-prefix=UNREPORTED
// UNREPORTED-NOT: LeakCheck
// UNREPORTED: ====== ERROR: pid {{[0-9]+}} (no rank, {{.*}}) did not report: it was killed, ended without exit() (_exit, abort), or exec()ed a program msledger does not track; its leak report is lost
// UNREPORTED-NOT: LeakCheck
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
