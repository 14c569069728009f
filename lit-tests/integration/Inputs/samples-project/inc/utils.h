#ifndef UTILS_H
#define UTILS_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Host memory for a result, the samples' Utils::CopyDataDeviceToLocal way. */
void *CopyToHost(const void *devicePtr, size_t size);
#ifdef __cplusplus
}
#endif
#endif
