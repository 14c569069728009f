// Both tools give one version, the project's (project() in the top-level
// CMakeLists.txt): what msrewrite --version and msledger --version print and
// what the SARIF log names as the checker's version.
//
// RUN: %msrewrite --version | FileCheck %s --check-prefix=REWRITE -DVERSION=%msledger_version
// REWRITE: {{^}}msrewrite [[VERSION]]{{$}}
// RUN: %msledger --version | FileCheck %s --check-prefix=LAUNCHER -DVERSION=%msledger_version
// LAUNCHER: {{^}}msledger [[VERSION]]{{$}}
//
// RUN: rm -rf %t && mkdir -p %t && %acl_cc %s -o %t/leak
// RUN: %expect-exit 23 %msledger --check-cann-heap=yes --sarif=%t/leak.sarif %t/leak > /dev/null 2>&1
// RUN: python3 -c "import json, sys; d = json.load(open(sys.argv[1]))['runs'][0]['tool']['driver']; print(d['name'], d['version'], d['semanticVersion'])" %t/leak.sarif | FileCheck %s --check-prefix=SARIF -DVERSION=%msledger_version
// SARIF: {{^}}msledger [[VERSION]] [[VERSION]]{{$}}
#include "acl/acl.h"

#include <stddef.h>

int main(void) {
  void *leaked = NULL;
  aclInit(NULL);
  aclrtSetDevice(0);
  aclrtMalloc(&leaked, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  return 0;
}
