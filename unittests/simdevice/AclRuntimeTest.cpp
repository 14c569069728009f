//===- AclRuntimeTest.cpp - init, devices, contexts, streams, events ------===//
#include "AclTestSupport.h"
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

using AclRuntime = AclTest;

} // namespace

TEST_F(AclRuntime, SetDeviceIsReferenceCounted) {
  size_t afterFirst = deviceBytesInUse();
  EXPECT_EQ(afterFirst, 0x24000u) << "pool and default stream";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), afterFirst);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), afterFirst) << "one reference is left";
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(AclRuntime, FinalizeThenInitAgain) {
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
}

TEST_F(AclRuntime, InitRejectsAMissingConfigFile) {
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  const char *message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("/nonexistent/acl.json"),
            std::string::npos);
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "a message is handed out once";
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
}

TEST_F(AclRuntime, ContextsAreCurrentPerThread) {
  aclrtContext created = nullptr, current = nullptr;
  ASSERT_EQ(aclrtCreateContext(&created, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, created) << "a new context becomes current";
  int32_t device = -1;
  aclrtGetDevice(&device);
  EXPECT_EQ(device, 1);
  std::thread other([] {
    aclrtContext none = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&none), ACL_ERROR_RT_CONTEXT_NULL);
  });
  other.join();
  std::thread adopt([created] {
    EXPECT_EQ(aclrtSetCurrentContext(created), ACL_SUCCESS);
    int32_t seen = -1;
    aclrtGetDevice(&seen);
    EXPECT_EQ(seen, 1);
  });
  adopt.join();
  EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(AclRuntime, StreamWorkRunsInOrderAndSynchronizes) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<int> first(1024, 1), second(1024, 2), back(1024, 0);
  // Two copies to the same place, then one back: order decides the result.
  ASSERT_EQ(aclrtMemcpyAsync(device, 4096, first.data(), 4096,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(device, 4096, second.data(), 4096,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(back.data(), 4096, device, 4096,
                             ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(back, second);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclRuntime, EventsOrderWorkAcrossStreams) {
  aclrtStream producer = nullptr, consumer = nullptr;
  aclrtEvent ready = nullptr;
  ASSERT_EQ(aclrtCreateStream(&producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&ready), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  std::vector<char> big(1 << 20, 'p'), back(1 << 20, 0);
  ASSERT_EQ(aclrtMemsetAsync(device, 1 << 20, 'z', 1 << 20, producer),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(device, 1 << 20, big.data(), 1 << 20,
                             ACL_MEMCPY_HOST_TO_DEVICE, producer),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ready, producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(consumer, ready), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(back.data(), 1 << 20, device, 1 << 20,
                             ACL_MEMCPY_DEVICE_TO_HOST, consumer),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  EXPECT_EQ(back, big) << "the consumer saw the producer's copy";
  aclrtEventRecordedStatus status;
  ASSERT_EQ(aclrtQueryEventStatus(ready, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(ready), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(producer), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(consumer), ACL_SUCCESS);
}

TEST_F(AclRuntime, ElapsedTimeBetweenEvents) {
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  float ms = -1;
  ASSERT_EQ(aclrtRecordEvent(start, nullptr), ACL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(aclrtRecordEvent(end, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(AclRuntime, FailedAsyncWorkIsReportedBySynchronize) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(8192);
  // Valid at enqueue time (the pointer is device memory), but the range ends
  // past the allocation: the task fails on the device.
  ASSERT_EQ(aclrtMemcpyAsync(device, 8192, host.data(), 8192,
                             ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "reported once";
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclRuntime, ResetDestroysTheDevicesStreams) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), 0x24000u + 0x4000u);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_STREAM_CONTEXT);
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(AclRuntime, ManyThreadsCreateAndDestroyStreams) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      aclrtSetCurrentContext(context);
      for (int i = 0; i < 50; ++i) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS ||
            aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
            aclrtDestroyStream(stream) != ACL_SUCCESS)
          ++failures;
      }
    });
  for (auto &thread : threads)
    thread.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(deviceBytesInUse(), before);
}
