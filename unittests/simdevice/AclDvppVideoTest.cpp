//===- AclDvppVideoTest.cpp - VDEC and VENC channels ----------------------===//
#include "AclTestSupport.h"
#include "acl/ops/acl_dvpp.h"

#include <gtest/gtest.h>

#include <atomic>
#include <pthread.h>
#include <thread>
#include <vector>

namespace {

/// A thread of the application's that runs the channels' callbacks, as the
/// real samples have one, until stopped.
class CallbackThread {
public:
  CallbackThread() {
    worker = std::thread([this] {
      id = static_cast<uint64_t>(pthread_self());
      started = true;
      aclrtSetDevice(0);
      while (running)
        aclrtProcessReport(20);
      aclrtResetDevice(0);
    });
    while (!started)
      std::this_thread::yield();
  }
  ~CallbackThread() {
    running = false;
    worker.join();
  }
  uint64_t id = 0;

private:
  std::atomic<bool> started{false}, running{true};
  std::thread worker;
};

struct Seen {
  std::atomic<int> frames{0}, eos{0};
  std::atomic<uint32_t> size{0};
};

void onDecoded(acldvppStreamDesc *input, acldvppPicDesc *output,
               void *userData) {
  auto *seen = static_cast<Seen *>(userData);
  if (acldvppGetStreamDescEos(input))
    ++seen->eos;
  else if (output && acldvppGetPicDescWidth(output) == 64)
    ++seen->frames;
}

void onEncoded(acldvppPicDesc *input, acldvppStreamDesc *output,
               void *userData) {
  auto *seen = static_cast<Seen *>(userData);
  if (acldvppGetStreamDescEos(output)) {
    ++seen->eos;
    return;
  }
  if (input)
    ++seen->frames;
  seen->size = acldvppGetStreamDescSize(output);
}

using AclDvppVideo = AclTest;

} // namespace

TEST_F(AclDvppVideo, DecoderFramesReachTheCallbackThread) {
  CallbackThread thread;
  size_t before = deviceBytesInUse();
  Seen seen;
  aclvdecChannelDesc *channel = aclvdecCreateChannelDesc();
  aclvdecSetChannelDescChannelId(channel, 3);
  aclvdecSetChannelDescThreadId(channel, thread.id);
  aclvdecSetChannelDescEnType(channel, H264_MAIN_LEVEL);
  aclvdecSetChannelDescOutPicFormat(channel, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  EXPECT_EQ(aclvdecCreateChannel(channel), ACL_ERROR_INVALID_PARAM)
      << "no callback yet";
  aclvdecSetChannelDescCallback(channel, onDecoded);
  ASSERT_EQ(aclvdecCreateChannel(channel), ACL_SUCCESS);
  EXPECT_GT(deviceBytesInUse(), before) << "the channel's own memory";

  void *stream = nullptr, *picture = nullptr;
  ASSERT_EQ(acldvppMalloc(&stream, 1024), ACL_SUCCESS);
  ASSERT_EQ(acldvppMalloc(&picture, 64 * 64 * 3 / 2), ACL_SUCCESS);
  acldvppStreamDesc *input = acldvppCreateStreamDesc();
  acldvppSetStreamDescData(input, stream);
  acldvppSetStreamDescSize(input, 1024);
  acldvppPicDesc *output = acldvppCreatePicDesc();
  acldvppSetPicDescData(output, picture);
  acldvppSetPicDescSize(output, 64 * 64 * 3 / 2);
  acldvppSetPicDescFormat(output, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(output, 64);
  acldvppSetPicDescHeight(output, 64);
  aclvdecFrameConfig *config = aclvdecCreateFrameConfig();
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(aclvdecSendFrame(channel, input, output, config, &seen),
              ACL_SUCCESS);
  acldvppSetPicDescSize(output, 100);
  EXPECT_EQ(aclvdecSendFrame(channel, input, output, config, &seen),
            ACL_ERROR_INVALID_PARAM)
      << "an output buffer smaller than the picture";
  // The end of the stream: a description of its own (the callbacks of the
  // frames before still read theirs).
  acldvppStreamDesc *end = acldvppCreateStreamDesc();
  acldvppSetStreamDescEos(end, 1);
  EXPECT_EQ(aclvdecSendSkippedFrame(channel, end, config, &seen),
            ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(aclvdecSendFrame(channel, end, nullptr, config, &seen),
            ACL_SUCCESS);
  ASSERT_EQ(aclvdecDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(seen.frames, 3) << "every callback ran before destroy returned";
  EXPECT_EQ(seen.eos, 1);
  EXPECT_EQ(aclvdecDestroyChannel(channel), ACL_ERROR_INVALID_PARAM);

  aclvdecDestroyFrameConfig(config);
  acldvppDestroyStreamDesc(input);
  acldvppDestroyStreamDesc(end);
  acldvppDestroyPicDesc(output);
  acldvppFree(stream);
  acldvppFree(picture);
  aclvdecDestroyChannelDesc(channel);
  EXPECT_EQ(deviceBytesInUse(), before) << "the channel's memory was freed";
}

TEST_F(AclDvppVideo, EncoderWritesAccessUnitsToItsBuffer) {
  CallbackThread thread;
  size_t before = deviceBytesInUse();
  Seen seen;
  aclvencChannelDesc *channel = aclvencCreateChannelDesc();
  aclvencSetChannelDescThreadId(channel, thread.id);
  aclvencSetChannelDescCallback(channel, onEncoded);
  aclvencSetChannelDescEnType(channel, H264_MAIN_LEVEL);
  aclvencSetChannelDescPicFormat(channel, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  aclvencSetChannelDescPicWidth(channel, 64);
  aclvencSetChannelDescPicHeight(channel, 64);
  ASSERT_EQ(aclvencCreateChannel(channel), ACL_SUCCESS);

  void *picture = nullptr;
  ASSERT_EQ(acldvppMalloc(&picture, 64 * 64 * 3 / 2), ACL_SUCCESS);
  acldvppPicDesc *input = acldvppCreatePicDesc();
  acldvppSetPicDescData(input, picture);
  acldvppSetPicDescSize(input, 64 * 64 * 3 / 2);
  acldvppSetPicDescFormat(input, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(input, 64);
  acldvppSetPicDescHeight(input, 64);
  acldvppSetPicDescWidthStride(input, 64);
  acldvppSetPicDescHeightStride(input, 64);
  aclvencFrameConfig *config = aclvencCreateFrameConfig();
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(aclvencSendFrame(channel, input, nullptr, config, &seen),
              ACL_SUCCESS);
  acldvppSetPicDescWidth(input, 32);
  EXPECT_EQ(aclvencSendFrame(channel, input, nullptr, config, &seen),
            ACL_ERROR_INVALID_PARAM)
      << "a picture not of the channel's size";
  aclvencSetFrameConfigEos(config, 1);
  EXPECT_EQ(aclvencSendFrame(channel, nullptr, nullptr, config, &seen),
            ACL_SUCCESS);
  ASSERT_EQ(aclvencDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(seen.frames, 2);
  EXPECT_EQ(seen.eos, 1);
  EXPECT_GT(seen.size.load(), 4u);

  aclvencDestroyFrameConfig(config);
  acldvppDestroyPicDesc(input);
  acldvppFree(picture);
  aclvencDestroyChannelDesc(channel);
  EXPECT_EQ(deviceBytesInUse(), before);
}
