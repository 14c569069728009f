/*
 * msSanitizer's swapped ACL header, as a CANN toolkit ships it at
 * tools/mssanitizer/include/acl/acl.h (simulated: our own text of the same
 * declarations). A project includes it by its path in place of acl/acl.h and
 * links libascend_acl_hook.so: the memory calls below then pass their file
 * and line to the sanitizer* functions, which make the ACL call.
 */
#ifndef MSSIM_MSSANITIZER_ACL_H_
#define MSSIM_MSSANITIZER_ACL_H_

#include <acl/acl.h>

#ifdef __cplusplus
extern "C" {
#endif

aclError sanitizerRtMalloc(void **devPtr, size_t size,
                           aclrtMemMallocPolicy policy, char const *filename,
                           int lineno);
aclError sanitizerRtMallocCached(void **devPtr, size_t size,
                                 aclrtMemMallocPolicy policy,
                                 char const *filename, int lineno);
aclError sanitizerRtFree(void *devPtr, char const *filename, int lineno);
aclError sanitizerRtMemset(void *devPtr, size_t maxCount, int32_t value,
                           size_t count, char const *filename, int lineno);
aclError sanitizerRtMemsetAsync(void *devPtr, size_t maxCount, int32_t value,
                                size_t count, aclrtStream stream,
                                char const *filename, int lineno);
aclError sanitizerRtMemcpy(void *dst, size_t destMax, const void *src,
                           size_t count, aclrtMemcpyKind kind,
                           char const *filename, int lineno);
aclError sanitizerRtMemcpyAsync(void *dst, size_t destMax, const void *src,
                                size_t count, aclrtMemcpyKind kind,
                                aclrtStream stream, char const *filename,
                                int lineno);
aclError sanitizerRtMemcpy2d(void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height,
                             aclrtMemcpyKind kind, char const *filename,
                             int lineno);
aclError sanitizerRtMemcpy2dAsync(void *dst, size_t dpitch, const void *src,
                                  size_t spitch, size_t width, size_t height,
                                  aclrtMemcpyKind kind, aclrtStream stream,
                                  char const *filename, int lineno);

#ifdef __cplusplus
}
#endif

#define aclrtMalloc(devPtr, size, policy)                                      \
  sanitizerRtMalloc(devPtr, size, policy, __FILE__, __LINE__)
#define aclrtMallocCached(devPtr, size, policy)                                \
  sanitizerRtMallocCached(devPtr, size, policy, __FILE__, __LINE__)
#define aclrtFree(devPtr) sanitizerRtFree(devPtr, __FILE__, __LINE__)
#define aclrtMemset(devPtr, maxCount, value, count)                            \
  sanitizerRtMemset(devPtr, maxCount, value, count, __FILE__, __LINE__)
#define aclrtMemsetAsync(devPtr, maxCount, value, count, stream)               \
  sanitizerRtMemsetAsync(devPtr, maxCount, value, count, stream, __FILE__,     \
                         __LINE__)
#define aclrtMemcpy(dst, destMax, src, count, kind)                            \
  sanitizerRtMemcpy(dst, destMax, src, count, kind, __FILE__, __LINE__)
#define aclrtMemcpyAsync(dst, destMax, src, count, kind, stream)               \
  sanitizerRtMemcpyAsync(dst, destMax, src, count, kind, stream, __FILE__,     \
                         __LINE__)
#define aclrtMemcpy2d(dst, dpitch, src, spitch, width, height, kind)           \
  sanitizerRtMemcpy2d(dst, dpitch, src, spitch, width, height, kind,           \
                      __FILE__, __LINE__)
#define aclrtMemcpy2dAsync(dst, dpitch, src, spitch, width, height, kind,      \
                           stream)                                             \
  sanitizerRtMemcpy2dAsync(dst, dpitch, src, spitch, width, height, kind,      \
                           stream, __FILE__, __LINE__)

#endif
