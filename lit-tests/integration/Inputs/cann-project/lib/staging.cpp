#include "buffers/helpers.h"

#include <vector>

namespace {
std::vector<void *> staged;
}

extern "C" void *staging_buffer(size_t bytes) {
  void *memory = nullptr;
  if (aclrtMalloc(&memory, bytes, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
    return nullptr;
  staged.push_back(memory);
  return memory;
}

extern "C" void staging_release(void *memory) { aclrtFree(memory); }
