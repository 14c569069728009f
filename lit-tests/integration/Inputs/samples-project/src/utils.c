#include "utils.h"

#include "acl/acl.h"

void *CopyToHost(const void *devicePtr, size_t size) {
  void *hostPtr = NULL;
  if (aclrtMallocHost(&hostPtr, size) != ACL_SUCCESS)
    return NULL;
  if (aclrtMemcpy(hostPtr, size, devicePtr, size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    aclrtFreeHost(hostPtr);
    return NULL;
  }
  return hostPtr;
}
