#include "buffers/helpers.h"

void *pool_take(size_t bytes) { return buffers_device(bytes); }

void pool_give(void *memory) { buffers_free_device(memory); }
