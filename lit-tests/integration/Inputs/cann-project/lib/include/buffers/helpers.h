/* Inline allocation helpers, included by C and C++ translation units. */
#ifndef BUFFERS_HELPERS_H
#define BUFFERS_HELPERS_H

#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline void *buffers_device(size_t bytes) {
  void *memory = NULL;
  if (aclrtMalloc(&memory, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    return NULL;
  return memory;
}

static inline void *buffers_host(size_t bytes) {
  void *memory = NULL;
  if (aclrtMallocHost(&memory, bytes) != ACL_SUCCESS)
    return NULL;
  return memory;
}

static inline void buffers_free_device(void *memory) { aclrtFree(memory); }
static inline void buffers_free_host(void *memory) { aclrtFreeHost(memory); }

/* pool.c */
void *pool_take(size_t bytes);
void pool_give(void *memory);
/* staging.cpp */
void *staging_buffer(size_t bytes);
void staging_release(void *memory);

#ifdef __cplusplus
}
#endif

#endif
