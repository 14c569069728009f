// vector_add: a small AscendCL host program in the style of the official
// samples. It adds two vectors on the device and checks the result.
// It has one deliberate bug for the leak hunt: the 32768-byte scratch buffer
// allocated at line 55 is never freed. Everything else is released.
//
// Usage: vector_add [--pause]
//   --pause  stop (SIGSTOP) at the peak and before exit so that
//            `npu-smi info` can be run against the live process; the demo
//            script resumes it with SIGCONT.
#include "acl/acl.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <vector>

#define CHECK_ACL(expr)                                                        \
  do {                                                                         \
    aclError checkRet = (expr);                                                \
    if (checkRet != ACL_SUCCESS) {                                             \
      fprintf(stderr, "%s:%d: %s failed with error %d\n", __FILE__, __LINE__,  \
              #expr, checkRet);                                                \
      return 1;                                                                \
    }                                                                          \
  } while (0)

namespace {

constexpr int32_t kDeviceId = 0;
constexpr size_t kElements = 8192;
constexpr size_t kBytes = kElements * sizeof(float); // 32768 bytes

void pauseIfAsked(bool pause, const char *where) {
  if (!pause)
    return;
  printf("[vector_add] paused %s (pid %d)\n", where,
         static_cast<int>(getpid()));
  fflush(stdout);
  raise(SIGSTOP);
}

int run(bool pause) {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(kDeviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  void *inputA = nullptr, *inputB = nullptr, *output = nullptr;
  CHECK_ACL(aclrtMalloc(&inputA, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&inputB, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&output, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  void *scratch = nullptr; // scratch for the kernel; the bug: never freed
  CHECK_ACL(aclrtMalloc(&scratch, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));

  std::vector<float> hostA(kElements), hostB(kElements), hostOut(kElements);
  for (size_t i = 0; i < kElements; ++i) {
    hostA[i] = static_cast<float>(i);
    hostB[i] = 0.5f * static_cast<float>(i);
  }
  CHECK_ACL(aclrtMemcpy(inputA, kBytes, hostA.data(), kBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpyAsync(inputB, kBytes, hostB.data(), kBytes,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK_ACL(aclrtMemsetAsync(scratch, kBytes, 0, kBytes, stream));

  // The "kernel": the element-wise Add operator on the stream.
  int64_t dims[] = {static_cast<int64_t>(kElements)};
  aclTensorDesc *descs[3];
  aclDataBuffer *buffers[3];
  void *data[3] = {inputA, inputB, output};
  for (int i = 0; i < 3; ++i) {
    descs[i] = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    buffers[i] = aclCreateDataBuffer(data[i], kBytes);
  }
  aclopAttr *attr = aclopCreateAttr();
  CHECK_ACL(aclopExecuteV2("Add", 2, descs, buffers, 1, descs + 2, buffers + 2,
                           attr, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(hostOut.data(), kBytes, output, kBytes,
                        ACL_MEMCPY_DEVICE_TO_HOST));
  pauseIfAsked(pause, "at peak device memory");

  size_t wrong = 0;
  for (size_t i = 0; i < kElements; ++i)
    if (std::fabs(hostOut[i] - (hostA[i] + hostB[i])) > 1e-6f)
      ++wrong;
  printf("[vector_add] %zu elements added on device %d: %s\n", kElements,
         kDeviceId, wrong ? "MISMATCH" : "ok");

  aclopDestroyAttr(attr);
  for (int i = 0; i < 3; ++i) {
    aclDestroyTensorDesc(descs[i]);
    CHECK_ACL(aclDestroyDataBuffer(buffers[i]));
  }
  CHECK_ACL(aclrtFree(inputA));
  CHECK_ACL(aclrtFree(inputB));
  CHECK_ACL(aclrtFree(output));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(kDeviceId));
  CHECK_ACL(aclFinalize());
  pauseIfAsked(pause, "before exit");
  return wrong ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  bool pause = argc > 1 && strcmp(argv[1], "--pause") == 0;
  return run(pause);
}
