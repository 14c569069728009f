//===- AclCallbackTest.cpp - host callbacks and fp16 conversions ----------===//
#include "AclTestSupport.h"
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <pthread.h>
#include <thread>
#include <vector>

namespace {

using AclCallback = AclTest;

uint64_t self() { return static_cast<uint64_t>(pthread_self()); }

/// A thread that handles the callbacks of the streams bound to it, as the
/// samples write it: aclrtProcessReport in a loop until told to stop, once
/// a stream is bound to it (before, the call fails).
class ReportThread {
public:
  ReportThread() {
    Worker = std::thread([this] {
      Id = self();
      Started = true;
      while (!Stop)
        if (Bound)
          (void)aclrtProcessReport(20);
        else
          std::this_thread::yield();
    });
    while (!Started)
      std::this_thread::yield();
  }
  void bound() { Bound = true; }
  ~ReportThread() {
    Stop = true;
    Worker.join();
  }
  uint64_t id() const { return Id; }

private:
  std::thread Worker;
  std::atomic<uint64_t> Id{0};
  std::atomic<bool> Started{false}, Stop{false}, Bound{false};
};

void record(void *data) {
  auto *calls = static_cast<std::vector<uint64_t> *>(data);
  calls->push_back(self());
}

} // namespace

TEST_F(AclCallback, CallbacksRunOnTheBoundThreadInStreamOrder) {
  ReportThread reports;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(reports.id(), stream), ACL_SUCCESS);
  reports.bound();
  std::vector<uint64_t> calls;
  ASSERT_EQ(aclrtLaunchCallback(record, &calls, ACL_CALLBACK_BLOCK, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(record, &calls, ACL_CALLBACK_NO_BLOCK, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(record, &calls, ACL_CALLBACK_BLOCK, stream),
            ACL_SUCCESS);
  // The last one blocks the stream until it ran: after it, all three have.
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(calls, std::vector<uint64_t>(3, reports.id()));
  EXPECT_EQ(aclrtUnSubscribeReport(reports.id(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclCallback, ErrorsAreTheRuntimes) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<uint64_t> calls;
  // Not bound to a thread yet.
  EXPECT_EQ(aclrtLaunchCallback(record, &calls, ACL_CALLBACK_BLOCK, stream),
            ACL_ERROR_RT_STREAM_NO_CB_REG);
  EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(aclrtUnSubscribeReport(self(), stream),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  ASSERT_EQ(aclrtSubscribeReport(self(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSubscribeReport(self() + 1, stream),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtUnSubscribeReport(self() + 1, stream),
            ACL_ERROR_RT_THREAD_SUBSCRIBE);
  // Bad arguments.
  EXPECT_EQ(aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, stream),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchCallback(record, &calls,
                                static_cast<aclrtCallbackBlockType>(7), stream),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_RT_PARAM_INVALID);
  // Nothing launched: the wait times out.
  EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);
  // A callback that does not block the stream runs when its thread asks.
  ASSERT_EQ(aclrtLaunchCallback(record, &calls, ACL_CALLBACK_NO_BLOCK, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_TRUE(calls.empty());
  EXPECT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);
  EXPECT_EQ(calls, std::vector<uint64_t>{self()});
  EXPECT_EQ(aclrtUnSubscribeReport(self(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclCallback, ADestroyedStreamIsUnbound) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(self(), stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  // Streams made since start unbound, whatever their address.
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchCallback(record, nullptr, ACL_CALLBACK_BLOCK, stream),
              ACL_ERROR_RT_STREAM_NO_CB_REG);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  }
}

TEST(AclFloat16, ConvertsAsIeeeHalfPrecision) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xc000);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7bff); // the largest half
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7c00); // rounds to infinity
  EXPECT_EQ(aclFloatToFloat16(5.960464477539063e-8f), 0x0001); // subnormal
  EXPECT_EQ(aclFloatToFloat16(1e-9f), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(1.0009765625f), 0x3c01);
  // Ties go to the even neighbour.
  EXPECT_EQ(aclFloatToFloat16(1.00048828125f), 0x3c00);
  EXPECT_EQ(aclFloatToFloat16(1.00146484375f), 0x3c02);
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(aclFloatToFloat16(NAN))));
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(aclFloat16ToFloat(0x0001), 5.960464477539063e-8f);
  EXPECT_EQ(aclFloat16ToFloat(0xfc00), -INFINITY);
  // Every half survives the round trip.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
      continue; // NaNs
    ASSERT_EQ(aclFloatToFloat16(aclFloat16ToFloat(static_cast<uint16_t>(h))),
              h);
  }
}
