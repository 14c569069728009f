#include "buffers/helpers.h"

#include <cstdio>

extern "C" void report(size_t bytes);

int main() {
  aclInit(nullptr);
  aclrtSetDevice(0);
  void *kept = pool_take(4096);    // leaked: helpers.h, from pool.c
  void *returned = pool_take(512); // given back
  pool_give(returned);
  void *staged = staging_buffer(8192); // leaked: staging.cpp
  staging_release(staging_buffer(256));
  report(1000); // leaked: helpers.h, from report.c
  void *scratch = nullptr;
  aclrtMalloc(&scratch, 2048, ACL_MEM_MALLOC_HUGE_FIRST); // leaked: main.cpp
  std::printf("kept %p staged %p scratch %p\n", kept, staged, scratch);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
