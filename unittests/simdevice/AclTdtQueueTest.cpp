//===- AclTdtQueueTest.cpp - libacl_tdt_queue.so: queues on a device ------===//
#include "AclTestSupport.h"
#include "acl/acl_tdt_queue.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using AclTdtQueue = AclTest;

uint32_t routeParam(const acltdtQueueRoute *route,
                    acltdtQueueRouteParamType type) {
  uint32_t value = 0;
  size_t size = 0;
  EXPECT_EQ(acltdtGetQueueRouteParam(route, type, sizeof value, &size, &value),
            ACL_SUCCESS);
  EXPECT_EQ(size, sizeof value);
  return value;
}

} // namespace

TEST_F(AclTdtQueue, AttrHoldsNameAndDepth) {
  acltdtQueueAttr *attr = acltdtCreateQueueAttr();
  ASSERT_NE(attr, nullptr);
  uint32_t depth = 0;
  size_t size = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth,
                               &size, &depth),
            ACL_SUCCESS);
  EXPECT_EQ(depth, 8u); // the real default
  const char *name = "frames";
  EXPECT_EQ(
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name),
      ACL_SUCCESS);
  uint32_t three = 3;
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof three,
                               &three),
            ACL_SUCCESS);
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 8, &three),
            ACL_ERROR_INVALID_PARAM);
  const char *kept = nullptr;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof kept, &size,
                               &kept),
            ACL_SUCCESS);
  EXPECT_STREQ(kept, "frames");
  EXPECT_NE(kept, name); // the attribute's own copy
  std::string tooLong(128, 'q');
  const char *longName = tooLong.c_str();
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof longName,
                               &longName),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueAttr(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &three),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclTdtQueue, QueueCarriesDataFirstInFirstOut) {
  acltdtQueueAttr *attr = acltdtCreateQueueAttr();
  uint32_t depth = 2;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth,
                               &depth),
            ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  uint32_t qid = 0;
  ASSERT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before); // the driver's queue memory
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS); // the queue keeps none

  const char first[] = "first message";
  const uint32_t tag = 0xC0FFEE;
  EXPECT_EQ(acltdtEnqueueData(qid, first, sizeof first, &tag, sizeof tag, 0, 0),
            ACL_SUCCESS);
  std::vector<int16_t> second = {1, -2, 3};
  EXPECT_EQ(acltdtEnqueueData(qid, second.data(), 6, nullptr, 0, 0, 0),
            ACL_SUCCESS);
  EXPECT_EQ(acltdtEnqueueData(qid, first, sizeof first, nullptr, 0, 0, 0),
            ACL_ERROR_RT_QUEUE_FULL);

  char small[4];
  size_t got = 0;
  EXPECT_EQ(acltdtDequeueData(qid, small, sizeof small, &got, nullptr, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(got, sizeof first); // left in the queue, its size said
  char text[64] = {};
  uint32_t user = 0;
  ASSERT_EQ(
      acltdtDequeueData(qid, text, sizeof text, &got, &user, sizeof user, 0),
      ACL_SUCCESS);
  EXPECT_EQ(got, sizeof first);
  EXPECT_STREQ(text, first);
  EXPECT_EQ(user, tag);
  std::vector<int16_t> back(3);
  ASSERT_EQ(acltdtDequeueData(qid, back.data(), 6, &got, nullptr, 0, 0),
            ACL_SUCCESS);
  EXPECT_EQ(back, second);
  EXPECT_EQ(acltdtDequeueData(qid, text, sizeof text, &got, nullptr, 0, 0),
            ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(acltdtEnqueueData(qid, nullptr, 4, nullptr, 0, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtEnqueueData(qid, first, 0, nullptr, 0, 0, 0),
            ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(acltdtEnqueueData(qid, first, sizeof first, nullptr, 0, 0, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(acltdtCreateQueue(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclTdtQueue, DequeueWaitsForAMessage) {
  uint32_t qid = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
  int32_t received = 0;
  size_t size = 0;
  aclError status = ACL_ERROR_FAILURE;
  std::thread reader([&] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    status = acltdtDequeueData(qid, &received, sizeof received, &size, nullptr,
                               0, -1);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  const int32_t value = 42;
  ASSERT_EQ(acltdtEnqueueData(qid, &value, sizeof value, nullptr, 0, -1, 0),
            ACL_SUCCESS);
  reader.join();
  EXPECT_EQ(status, ACL_SUCCESS);
  EXPECT_EQ(received, 42);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

TEST_F(AclTdtQueue, QueueIsOnTheCurrentDevice) {
  uint32_t qid = 0;
  aclError status = ACL_SUCCESS;
  std::thread noDevice([&] { status = acltdtCreateQueue(nullptr, &qid); });
  noDevice.join();
  EXPECT_EQ(status, ACL_ERROR_RT_CONTEXT_NULL);
  // A queue goes with its device.
  ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(AclTdtQueue, BuffersAreForTheDevicesCpusOnly) {
  acltdtBuf buf = nullptr;
  EXPECT_EQ(acltdtAllocBuf(64, 2, &buf), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &buf),
            ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(buf, nullptr);
  EXPECT_EQ(acltdtFreeBuf(buf), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acltdtEnqueue(0, buf, 0), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acltdtDequeue(0, &buf, 0), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acltdtCopyBufRef(buf, &buf), ACL_ERROR_FEATURE_UNSUPPORTED);
  uint32_t permission = 0;
  EXPECT_EQ(acltdtAttachQueue(0, 0, &permission),
            ACL_ERROR_FEATURE_UNSUPPORTED);
}

TEST_F(AclTdtQueue, RouteListHoldsCopies) {
  acltdtQueueRoute *route = acltdtCreateQueueRoute(3, 7);
  ASSERT_NE(route, nullptr);
  EXPECT_EQ(routeParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32), 3u);
  EXPECT_EQ(routeParam(route, ACL_TDT_QUEUE_ROUTE_DST_UINT32), 7u);
  EXPECT_EQ(routeParam(route, ACL_TDT_QUEUE_ROUTE_STATUS_INT32),
            static_cast<uint32_t>(ACL_TDT_QUEUE_ROUTE_UNBIND));
  uint16_t tooSmall = 0;
  size_t size = 0;
  EXPECT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32,
                                     sizeof tooSmall, &size, &tooSmall),
            ACL_ERROR_INVALID_PARAM);

  acltdtQueueRouteList *list = acltdtCreateQueueRouteList();
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(acltdtAddQueueRoute(list, route), ACL_SUCCESS);
  acltdtQueueRoute *other = acltdtCreateQueueRoute(1, 2);
  EXPECT_EQ(acltdtAddQueueRoute(list, other), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(list), 2u);
  // The list kept a copy of the destroyed route: read it into `other`.
  EXPECT_EQ(acltdtGetQueueRoute(list, 0, other), ACL_SUCCESS);
  EXPECT_EQ(routeParam(other, ACL_TDT_QUEUE_ROUTE_SRC_UINT32), 3u);
  EXPECT_EQ(routeParam(other, ACL_TDT_QUEUE_ROUTE_DST_UINT32), 7u);
  EXPECT_EQ(acltdtGetQueueRoute(list, 2, other), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueRoute(list, 0, route), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueRoute(other), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteList(list), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueRouteNum(list), 0u);

  acltdtQueueRouteQueryInfo *info = acltdtCreateQueueRouteQueryInfo();
  ASSERT_NE(info, nullptr);
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  EXPECT_EQ(acltdtSetQueueRouteQueryInfo(
                info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode),
            ACL_SUCCESS);
  uint32_t src = 3;
  EXPECT_EQ(acltdtSetQueueRouteQueryInfo(
                info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 8, &src),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(info), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(info), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(nullptr), ACL_ERROR_INVALID_PARAM);
}
