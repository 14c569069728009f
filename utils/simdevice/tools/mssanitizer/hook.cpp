//===- hook.cpp - The simulated toolkit's libascend_acl_hook.so -----------===//
//
// What msSanitizer's libascend_acl_hook.so is to a project built with its
// swapped acl.h, without the tool running: each sanitizer* call makes the
// ACL call it stands for; the file and line go nowhere. (Under msledger's
// launcher, msledger's own definitions of these functions take their place
// and record the file and line.)
//
//===----------------------------------------------------------------------===//
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#define MSSIM_HOOK extern "C" __attribute__((visibility("default")))

MSSIM_HOOK aclError sanitizerRtMalloc(void **devPtr, size_t size,
                                      aclrtMemMallocPolicy policy, char const *,
                                      int) {
  return aclrtMalloc(devPtr, size, policy);
}

MSSIM_HOOK aclError sanitizerRtMallocCached(void **devPtr, size_t size,
                                            aclrtMemMallocPolicy policy,
                                            char const *, int) {
  return aclrtMallocCached(devPtr, size, policy);
}

MSSIM_HOOK aclError sanitizerDvppMalloc(void **devPtr, size_t size,
                                        char const *, int) {
  return acldvppMalloc(devPtr, size);
}

MSSIM_HOOK aclError sanitizerRtFree(void *devPtr, char const *, int) {
  return aclrtFree(devPtr);
}

MSSIM_HOOK aclError sanitizerRtMemset(void *devPtr, size_t maxCount,
                                      int32_t value, size_t count, char const *,
                                      int) {
  return aclrtMemset(devPtr, maxCount, value, count);
}

MSSIM_HOOK aclError sanitizerRtMemsetAsync(void *devPtr, size_t maxCount,
                                           int32_t value, size_t count,
                                           aclrtStream stream, char const *,
                                           int) {
  return aclrtMemsetAsync(devPtr, maxCount, value, count, stream);
}

MSSIM_HOOK aclError sanitizerRtMemcpy(void *dst, size_t destMax,
                                      const void *src, size_t count,
                                      aclrtMemcpyKind kind, char const *, int) {
  return aclrtMemcpy(dst, destMax, src, count, kind);
}

MSSIM_HOOK aclError sanitizerRtMemcpyAsync(void *dst, size_t destMax,
                                           const void *src, size_t count,
                                           aclrtMemcpyKind kind,
                                           aclrtStream stream, char const *,
                                           int) {
  return aclrtMemcpyAsync(dst, destMax, src, count, kind, stream);
}

MSSIM_HOOK aclError sanitizerRtMemcpy2d(void *dst, size_t dpitch,
                                        const void *src, size_t spitch,
                                        size_t width, size_t height,
                                        aclrtMemcpyKind kind, char const *,
                                        int) {
  return aclrtMemcpy2d(dst, dpitch, src, spitch, width, height, kind);
}

MSSIM_HOOK aclError sanitizerRtMemcpy2dAsync(void *dst, size_t dpitch,
                                             const void *src, size_t spitch,
                                             size_t width, size_t height,
                                             aclrtMemcpyKind kind,
                                             aclrtStream stream, char const *,
                                             int) {
  return aclrtMemcpy2dAsync(dst, dpitch, src, spitch, width, height, kind,
                            stream);
}
