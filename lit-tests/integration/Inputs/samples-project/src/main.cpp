#include "dvpp_process.h"
#include "utils.h"

#include <cstdio>

int main() {
  const int32_t deviceId = 0;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(deviceId) != ACL_SUCCESS)
    return 1;
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  aclrtCreateContext(&context, deviceId);
  aclrtCreateStream(&stream);

  DvppProcess dvpp(stream);
  if (dvpp.Init() != ACL_SUCCESS || dvpp.Process(64, 32) != ACL_SUCCESS)
    return 1;
  void *modelInput = nullptr;
  aclrtMalloc(&modelInput, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  void *result = CopyToHost(modelInput, 256);
  std::printf("result at %s\n", result ? "host" : "nowhere");
  aclrtFree(modelInput);
  dvpp.DestroyResource();

  aclrtDestroyStream(stream);
  aclrtDestroyContext(context);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
