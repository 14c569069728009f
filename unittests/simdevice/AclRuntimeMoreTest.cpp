//===- AclRuntimeMoreTest.cpp - queries, timeouts, 2-D copies, errors -----===//
#include "AclTestSupport.h"
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace {

using AclRuntimeMore = AclTest;

void sleepBriefly(void *) {
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

} // namespace

TEST_F(AclRuntimeMore, TwoDimensionalCopiesKeepThePitches) {
  // A 3 x 4 block out of rows of 6, into rows of 8 on the device and back.
  std::vector<char> host(3 * 6), back(3 * 8, '.');
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<char>('a' + i);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 3 * 8, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(
      aclrtMemcpy2d(device, 8, host.data(), 6, 4, 3, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2dAsync(back.data(), 8, device, 8, 4, 3,
                               ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(std::string(back.data(), back.size()),
            std::string("abcd....ghij....mnop...."));
  EXPECT_EQ(
      aclrtMemcpy2d(device, 2, host.data(), 6, 4, 3, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM)
      << "a width over the destination's pitch";
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclRuntimeMore, TheLastErrorIsTheThreads) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL); // read, so forgotten
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetTsDevice(static_cast<aclrtTsId>(9)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  aclError other = ACL_SUCCESS;
  std::thread([&] {
    other = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
  }).join();
  EXPECT_EQ(other, ACL_SUCCESS);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

TEST_F(AclRuntimeMore, WaitsWithATimeout) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_FAST_LAUNCH),
            ACL_SUCCESS);
  // A stream held by a blocking callback until this thread runs it: a query
  // says it is busy, and waits of 20 ms give up.
  ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), stream),
            ACL_SUCCESS);
  ASSERT_EQ(
      aclrtLaunchCallback(sleepBriefly, nullptr, ACL_CALLBACK_BLOCK, stream),
      ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 20),
            ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 20),
            ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  aclrtEventStatus eventStatus = ACL_EVENT_STATUS_COMPLETE;
  // Deprecated, as in the real header, and still working.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(aclrtQueryEvent(event, &eventStatus), ACL_SUCCESS);
#pragma GCC diagnostic pop
  EXPECT_EQ(eventStatus, ACL_EVENT_STATUS_NOT_READY);
  // Run the callback here; then everything completes.
  EXPECT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 5000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtUnSubscribeReport(static_cast<uint64_t>(pthread_self()), stream),
      ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
}

TEST_F(AclRuntimeMore, ForcedResetDropsEveryReference) {
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDeviceForce(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDeviceForce(1), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtResetDeviceForce(9), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); // the fixture's device again
}

TEST_F(AclRuntimeMore, PeersAndUtilisation) {
  int32_t can = 0;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  aclrtUtilizationInfo info = {};
  EXPECT_EQ(aclrtGetDeviceUtilizationRate(0, &info), ACL_SUCCESS);
  EXPECT_EQ(info.cubeUtilization, 0);
  EXPECT_GE(info.memoryUtilization, 0);
  EXPECT_LE(info.memoryUtilization, 100);
  EXPECT_EQ(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSetStreamFailureMode(nullptr, 5), ACL_ERROR_INVALID_PARAM);
}
