//===- AclRuntimeV85Test.cpp - what the 8.5 runtime adds ------------------===//
#include "AclTestSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <pthread.h>
#include <thread>

namespace {

using AclRuntimeV85 = AclTest;

std::atomic<int> order{0};
int streamOneRanAt = -1, streamTwoRanAt = -1;

void markOne(void *) { streamOneRanAt = order++; }
void markTwo(void *) { streamTwoRanAt = order++; }

} // namespace

TEST_F(AclRuntimeV85, StreamsFromAConfigurationHandle) {
  aclrtStreamConfigHandle *config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  uint32_t priority = 3;
  EXPECT_EQ(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority,
                                    sizeof priority),
            ACL_SUCCESS);
  EXPECT_EQ(
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, 1),
      ACL_ERROR_INVALID_PARAM)
      << "a value of the wrong size";
  aclrtStream first = nullptr, second = nullptr;
  ASSERT_EQ(aclrtCreateStreamV2(&first, config), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStreamV2(&second, nullptr), ACL_SUCCESS);
  int32_t firstId = -1, secondId = -1;
  EXPECT_EQ(aclrtStreamGetId(first, &firstId), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamGetId(second, &secondId), ACL_SUCCESS);
  EXPECT_NE(firstId, secondId);
  aclrtStream defaultStream = nullptr;
  EXPECT_EQ(aclrtCtxGetCurrentDefaultStream(&defaultStream), ACL_SUCCESS);
  EXPECT_NE(defaultStream, nullptr);
  EXPECT_NE(defaultStream, first);
  EXPECT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamConfigHandle(config), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateStreamV2(&first, config), ACL_ERROR_INVALID_PARAM)
      << "a destroyed configuration handle";
}

TEST_F(AclRuntimeV85, ANotifyOrdersTwoStreams) {
  aclrtStream one = nullptr, two = nullptr;
  ASSERT_EQ(aclrtCreateStream(&one), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&two), ACL_SUCCESS);
  uint64_t self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, one), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(self, two), ACL_SUCCESS);
  aclrtNotify notify = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
  uint32_t id = 99;
  EXPECT_EQ(aclrtGetNotifyId(notify, &id), ACL_SUCCESS);
  // Stream two waits for the notify stream one records after its callback.
  order = 0;
  EXPECT_EQ(aclrtWaitAndResetNotify(notify, two, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchCallback(markTwo, nullptr, ACL_CALLBACK_BLOCK, two),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchCallback(markOne, nullptr, ACL_CALLBACK_BLOCK, one),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordNotify(notify, one), ACL_SUCCESS);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(aclrtProcessReport(2000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(two), ACL_SUCCESS);
  EXPECT_EQ(streamOneRanAt, 0);
  EXPECT_EQ(streamTwoRanAt, 1);
  // The wait cleared the flag: a second wait times out.
  EXPECT_EQ(aclrtWaitAndResetNotify(notify, two, 20), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(two), ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_EQ(aclrtUnSubscribeReport(self, one), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnSubscribeReport(self, two), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordNotify(notify, one), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyNotify(notify), ACL_ERROR_INVALID_PARAM);
  aclrtDestroyStream(one);
  aclrtDestroyStream(two);
}

TEST_F(AclRuntimeV85, PointerAttributesSayWhereMemoryIs) {
  void *device = nullptr, *host = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
  aclrtPtrAttributes attributes;
  ASSERT_EQ(aclrtPointerGetAttributes(device, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attributes.location.id, 0u);
  ASSERT_EQ(aclrtPointerGetAttributes(host, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  int local = 0;
  ASSERT_EQ(aclrtPointerGetAttributes(&local, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  EXPECT_EQ(aclrtPointerGetAttributes(nullptr, &attributes),
            ACL_ERROR_INVALID_PARAM);
  aclrtFree(device);
  aclrtFreeHost(host);
}

TEST_F(AclRuntimeV85, DeviceInformationAndVersions) {
  int64_t value = 0;
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &value),
            ACL_SUCCESS);
  EXPECT_GT(value, 0);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value),
            ACL_SUCCESS);
  size_t free = 0, total = 0;
  aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
  EXPECT_EQ(static_cast<size_t>(value), total);
  EXPECT_EQ(aclrtGetDeviceInfo(99, ACL_DEV_ATTR_AICORE_CORE_NUM, &value),
            ACL_ERROR_RT_INVALID_DEVICEID);
  aclCANNPackageVersion version;
  ASSERT_EQ(aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &version), ACL_SUCCESS);
  EXPECT_STREQ(version.version, "8.5.0");
  EXPECT_STREQ(version.majorVersion, "8");
  char text[ACL_PKG_VERSION_MAX_SIZE];
  char package[] = "runtime", unknown[] = "nothing";
  EXPECT_EQ(aclsysGetVersionStr(package, text), ACL_SUCCESS);
  EXPECT_STREQ(text, "8.5.0");
  EXPECT_EQ(aclsysGetVersionStr(unknown, text), ACL_ERROR_INVALID_PARAM);
}
