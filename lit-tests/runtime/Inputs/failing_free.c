/* Preloaded by the benchmark tests (built without the sanitizers, so that
 * it can be preloaded into any process): an aclrtFree that fails (and frees
 * nothing), to show that a benchmark of failing calls is an error rather
 * than a figure. */
#include "acl/acl.h"

aclError aclrtFree(void *devPtr) {
  (void)devPtr;
  return ACL_ERROR_RT_MEMORY_FREE;
}
