// After fork the child keeps the parent's records but reports only what it
// acquired itself, and may release what it inherited; the parent reports its
// own leaks, unaffected by the child. Each process writes its own report.
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %acl_cc %s -o %t
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes --log-file=%t.dir/report.%%p %t > %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: cat %t.dir/report.$(sed -n 's/^parent \([0-9]*\)$/\1/p' %t.out) | FileCheck %s --check-prefix=PARENT
// RUN: cat %t.dir/report.$(sed -n 's/^child \([0-9]*\) .*/\1/p' %t.out) | FileCheck %s --check-prefix=CHILD
#include "acl/acl.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  aclInit(NULL);
  aclrtSetDevice(0);
  void *parentLeak = NULL, *shared = NULL, *childLeak = NULL;
  aclrtMalloc(&parentLeak, 1000, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&shared, 3000, ACL_MEM_MALLOC_HUGE_FIRST);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    aclrtMalloc(&childLeak, 2000, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtFree(shared); // inherited: no error
    return 0;
  }
  int status = 0;
  waitpid(child, &status, 0);
  printf("parent %d\nchild %d exited %d\n", (int)getpid(), (int)child,
         WEXITSTATUS(status));
  aclrtFree(shared);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
// OUT: child {{[0-9]+}} exited 23

// PARENT-NOT: ERROR: {{illegal|double}}
// PARENT: ======    Direct leak of 1000 byte(s)
// PARENT: ====== SUMMARY: 1000 byte(s) leaked in 1 allocation(s)
// PARENT-NOT: resource

// CHILD-NOT: ERROR: {{illegal|double}}
// CHILD: ======    Direct leak of 2000 byte(s)
// CHILD: ====== SUMMARY: 2000 byte(s) leaked in 1 allocation(s)
// CHILD-NOT: resource
