//===- AclDvppDescTest.cpp - DVPP descriptions and JPEG headers -----------===//
#include "AclTestSupport.h"
#include "acl/ops/acl_dvpp.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using AclDvppDesc = AclTest;

/// The start of a baseline JPEG of `width` x `height` with `components`:
/// SOI, an APP0 segment, SOF0 -- what the header readers look at.
std::vector<uint8_t> jpegHeader(uint16_t width, uint16_t height,
                                uint8_t components) {
  std::vector<uint8_t> bytes = {0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J',
                                'F',  'I',  'F',  0x00, 0x01, 0x01, 0x00,
                                0x00, 0x01, 0x00, 0x01, 0x00, 0x00};
  uint16_t length = static_cast<uint16_t>(8 + 3 * components);
  std::vector<uint8_t> frame = {0xFF,
                                0xC0,
                                static_cast<uint8_t>(length >> 8),
                                static_cast<uint8_t>(length),
                                8,
                                static_cast<uint8_t>(height >> 8),
                                static_cast<uint8_t>(height),
                                static_cast<uint8_t>(width >> 8),
                                static_cast<uint8_t>(width),
                                components};
  for (uint8_t c = 0; c < components; ++c)
    frame.insert(frame.end(), {static_cast<uint8_t>(c + 1), 0x11, 0});
  bytes.insert(bytes.end(), frame.begin(), frame.end());
  bytes.insert(bytes.end(), {0xFF, 0xD9});
  return bytes;
}

} // namespace

TEST_F(AclDvppDesc, PictureDescriptionsKeepEveryField) {
  acldvppPicDesc *pic = acldvppCreatePicDesc();
  ASSERT_NE(pic, nullptr);
  EXPECT_EQ(acldvppSetPicDescWidthStride(pic, 128), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetPicDescHeightStride(pic, 16), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetPicDescWidth(pic, 100), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YVU_SEMIPLANAR_420),
            ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescWidthStride(pic), 128u);
  EXPECT_EQ(acldvppGetPicDescHeightStride(pic), 16u);
  EXPECT_EQ(acldvppGetPicDescWidth(pic), 100u);
  EXPECT_EQ(acldvppGetPicDescFormat(pic), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
  EXPECT_EQ(acldvppDestroyPicDesc(pic), ACL_SUCCESS);
  // A destroyed description: setters fail, getters give the default.
  EXPECT_EQ(acldvppSetPicDescWidthStride(pic, 64), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetPicDescWidthStride(pic), 0u);
  EXPECT_EQ(acldvppGetPicDescFormat(pic), PIXEL_FORMAT_YUV_400);
}

TEST_F(AclDvppDesc, BatchesHoldPictureDescriptionsOfTheirOwn) {
  EXPECT_EQ(acldvppCreateBatchPicDesc(0), nullptr);
  acldvppBatchPicDesc *batch = acldvppCreateBatchPicDesc(3);
  ASSERT_NE(batch, nullptr);
  acldvppPicDesc *second = acldvppGetPicDesc(batch, 1);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second, acldvppGetPicDesc(batch, 0));
  EXPECT_EQ(acldvppGetPicDesc(batch, 3), nullptr);
  EXPECT_EQ(acldvppSetPicDescHeight(second, 20), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescHeight(second), 20u);
  EXPECT_EQ(acldvppDestroyBatchPicDesc(batch), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetPicDescHeight(second, 20), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyBatchPicDesc(batch), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppCreateBatchPicDesc(257), nullptr) << "at most 256";
  EXPECT_EQ(acldvppDestroyBatchPicDesc(nullptr), ACL_SUCCESS)
      << "null: nothing to destroy, as the real library";
}

TEST_F(AclDvppDesc, ABatchHoldsDeviceMemoryUntilDestroyed) {
  size_t before = deviceBytesInUse();
  acldvppBatchPicDesc *batch = acldvppCreateBatchPicDesc(256);
  ASSERT_NE(batch, nullptr);
  // 48 bytes a picture and the count: 12292 bytes, 25 units of 512.
  EXPECT_EQ(deviceBytesInUse(), before + 25 * 512);
  acldvppBatchPicDesc *small = acldvppCreateBatchPicDesc(1);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(deviceBytesInUse(), before + 26 * 512);
  EXPECT_EQ(acldvppDestroyBatchPicDesc(batch), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyBatchPicDesc(small), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(acldvppDestroyBatchPicDesc(small), ACL_ERROR_INVALID_PARAM)
      << "a double destroy is refused, not a double free";
  EXPECT_EQ(deviceBytesInUse(), before);

  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(acldvppCreateBatchPicDesc(2), nullptr)
      << "no device: nowhere to put its device-side copy";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(AclDvppDesc, BorderConfigurationsKeepTheirFields) {
  acldvppBorderConfig *border = acldvppCreateBorderConfig();
  ASSERT_NE(border, nullptr);
  EXPECT_EQ(acldvppGetBorderConfigBorderType(border), BORDER_CONSTANT);
  EXPECT_EQ(acldvppGetBorderConfigTop(border), 0u);
  EXPECT_EQ(acldvppGetBorderConfigValue(border, 3), 0.0);
  EXPECT_EQ(acldvppSetBorderConfigBorderType(border, BORDER_REFLECT_101),
            ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigTop(border, 1), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigBottom(border, 2), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigLeft(border, 3), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigRight(border, 65535), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigRight(border, 65536),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetBorderConfigValue(border, 2, 12.5), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigValue(border, 4, 1.0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetBorderConfigBorderType(border), BORDER_REFLECT_101);
  EXPECT_EQ(acldvppGetBorderConfigTop(border), 1u);
  EXPECT_EQ(acldvppGetBorderConfigBottom(border), 2u);
  EXPECT_EQ(acldvppGetBorderConfigLeft(border), 3u);
  EXPECT_EQ(acldvppGetBorderConfigRight(border), 65535u);
  EXPECT_EQ(acldvppGetBorderConfigValue(border, 2), 12.5);
  EXPECT_EQ(acldvppGetBorderConfigValue(border, 4), -1.0);

  EXPECT_EQ(acldvppDestroyBorderConfig(border), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyBorderConfig(border), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetBorderConfigTop(border, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetBorderConfigTop(border), 0u) << "the default";
  EXPECT_EQ(acldvppGetBorderConfigValue(border, 0), -1.0);
  EXPECT_EQ(acldvppGetBorderConfigBorderType(nullptr), BORDER_CONSTANT);
  EXPECT_EQ(acldvppSetBorderConfigLeft(nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyBorderConfig(nullptr), ACL_SUCCESS);
}

TEST_F(AclDvppDesc, LutMapsHoldThreeMapsOf256Bytes) {
  size_t before = deviceBytesInUse();
  acldvppLutMap *lut = acldvppCreateLutMap();
  ASSERT_NE(lut, nullptr);
  EXPECT_EQ(deviceBytesInUse(), before) << "a host object";
  EXPECT_EQ(acldvppGetLutMapDims(lut), 3u);
  uint8_t *first = nullptr, *third = nullptr;
  uint32_t length = 0;
  ASSERT_EQ(acldvppGetLutMapData(lut, 0, &first, &length), ACL_SUCCESS);
  EXPECT_EQ(length, 256u);
  ASSERT_EQ(acldvppGetLutMapData(lut, 2, &third, &length), ACL_SUCCESS);
  EXPECT_EQ(third, first + 512) << "the maps follow each other";
  third[255] = 7; // the caller fills the maps
  EXPECT_EQ(acldvppGetLutMapData(lut, 3, &first, &length),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetLutMapData(lut, 0, nullptr, &length),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyLutMap(lut), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyLutMap(lut), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetLutMapDims(lut), 0u);
  EXPECT_EQ(acldvppGetLutMapData(lut, 0, &first, &length),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetLutMapDims(nullptr), 0u);
  EXPECT_EQ(acldvppDestroyLutMap(nullptr), ACL_SUCCESS);
}

TEST_F(AclDvppDesc, AHistogramHoldsDeviceAndDvppMemoryUntilDestroyed) {
  size_t before = deviceBytesInUse();
  acldvppHist *hist = acldvppCreateHist();
  ASSERT_NE(hist, nullptr);
  // Its 44-byte device-side description and 3 x 256 counts of DVPP memory.
  EXPECT_EQ(deviceBytesInUse(), before + 512 + 3072);
  EXPECT_EQ(acldvppGetHistDims(hist), 3u);
  EXPECT_EQ(acldvppGetHistRetCode(hist), 0u);
  uint32_t *counts = nullptr, *second = nullptr;
  uint16_t length = 0;
  ASSERT_EQ(acldvppGetHistData(hist, 0, &counts, &length), ACL_SUCCESS);
  EXPECT_EQ(length, 256u);
  ASSERT_EQ(acldvppGetHistData(hist, 1, &second, &length), ACL_SUCCESS);
  EXPECT_EQ(second, counts + 256);
  counts[10] = 99;
  ASSERT_EQ(acldvppClearHist(hist), ACL_SUCCESS);
  EXPECT_EQ(counts[10], 0u);
  EXPECT_EQ(acldvppGetHistData(hist, 3, &counts, &length),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetHistData(hist, 0, &counts, nullptr),
            ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(acldvppDestroyHist(hist), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(acldvppDestroyHist(hist), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(acldvppGetHistDims(hist), 0u);
  EXPECT_EQ(acldvppGetHistRetCode(hist),
            static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM));
  EXPECT_EQ(acldvppClearHist(hist), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppClearHist(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyHist(nullptr), ACL_SUCCESS);

  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(acldvppCreateHist(), nullptr) << "no device set";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(AclDvppDesc, HostConfigurationsTakeNullAndRefuseADoubleDestroy) {
  acldvppJpegeConfig *jpege = acldvppCreateJpegeConfig();
  aclvdecFrameConfig *vdec = aclvdecCreateFrameConfig();
  aclvencFrameConfig *venc = aclvencCreateFrameConfig();
  ASSERT_TRUE(jpege && vdec && venc);
  EXPECT_EQ(acldvppDestroyJpegeConfig(jpege), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyFrameConfig(vdec), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyFrameConfig(venc), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyJpegeConfig(jpege), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecDestroyFrameConfig(vdec), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencDestroyFrameConfig(venc), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetFrameConfigEos(venc, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyJpegeConfig(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyFrameConfig(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyFrameConfig(nullptr), ACL_SUCCESS);
  // So do the descriptions' destroys, as the real library's.
  EXPECT_EQ(acldvppDestroyPicDesc(nullptr), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyRoiConfig(nullptr), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyResizeConfig(nullptr), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyChannelDesc(nullptr), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyStreamDesc(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyChannelDesc(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyChannelDesc(nullptr), ACL_SUCCESS);
}

TEST_F(AclDvppDesc, VideoDescriptionsAndConfigurations) {
  aclvdecChannelDesc *vdec = aclvdecCreateChannelDesc();
  ASSERT_NE(vdec, nullptr);
  EXPECT_EQ(aclvdecGetChannelDescEnType(vdec), H265_MAIN_LEVEL);
  EXPECT_EQ(aclvdecSetChannelDescEnType(vdec, H264_HIGH_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclvdecSetChannelDescChannelId(vdec, 7), ACL_SUCCESS);
  EXPECT_EQ(aclvdecSetChannelDescOutPicWidth(vdec, 1920), ACL_SUCCESS);
  EXPECT_EQ(aclvdecGetChannelDescEnType(vdec), H264_HIGH_LEVEL);
  EXPECT_EQ(aclvdecGetChannelDescChannelId(vdec), 7u);
  EXPECT_EQ(aclvdecGetChannelDescOutPicWidth(vdec), 1920u);
  // Once stand-ins that returned 0 whatever was set.
  EXPECT_EQ(aclvdecGetChannelDescOutMode(vdec), 0u);
  EXPECT_EQ(aclvdecSetChannelDescOutMode(vdec, 1), ACL_SUCCESS);
  EXPECT_EQ(aclvdecGetChannelDescOutMode(vdec), 1u);
  EXPECT_EQ(aclvdecGetChannelDescBitDepth(vdec), 0u);
  EXPECT_EQ(aclvdecSetChannelDescBitDepth(vdec, 1), ACL_SUCCESS);
  EXPECT_EQ(aclvdecGetChannelDescBitDepth(vdec), 1u);
  EXPECT_EQ(aclvdecDestroyChannelDesc(vdec), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyChannelDesc(vdec), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecSetChannelDescBitDepth(vdec, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecGetChannelDescOutMode(vdec), 0u);

  aclvencChannelDesc *venc = aclvencCreateChannelDesc();
  ASSERT_NE(venc, nullptr);
  EXPECT_EQ(aclvencGetChannelDescBufAddr(venc), nullptr);
  EXPECT_EQ(aclvencGetChannelDescBufSize(venc), 8u << 20) << "the default";
  EXPECT_EQ(aclvencGetChannelDescRcMode(venc), 0u);
  char buffer[16];
  EXPECT_EQ(aclvencSetChannelDescBufAddr(venc, buffer), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescBufSize(venc, 6u << 20), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescRcMode(venc, 2), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescRcMode(venc, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetChannelDescSrcRate(venc, 30), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescMaxBitRate(venc, 4000), ACL_SUCCESS);
  EXPECT_EQ(aclvencGetChannelDescBufAddr(venc), buffer);
  EXPECT_EQ(aclvencGetChannelDescBufSize(venc), 6u << 20);
  EXPECT_EQ(aclvencGetChannelDescRcMode(venc), 2u);
  EXPECT_EQ(aclvencGetChannelDescSrcRate(venc), 30u);
  EXPECT_EQ(aclvencGetChannelDescMaxBitRate(venc), 4000u);
  EXPECT_EQ(aclvencDestroyChannelDesc(venc), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescSrcRate(venc, 25), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencGetChannelDescMaxBitRate(venc), 0u);

  acldvppStreamDesc *stream = acldvppCreateStreamDesc();
  EXPECT_EQ(acldvppSetStreamDescEos(stream, 1), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetStreamDescTimestamp(stream, 42), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetStreamDescEos(stream), 1u);
  EXPECT_EQ(acldvppGetStreamDescTimestamp(stream), 42u);
  EXPECT_EQ(acldvppDestroyStreamDesc(stream), ACL_SUCCESS);

  aclvencFrameConfig *frame = aclvencCreateFrameConfig();
  EXPECT_EQ(aclvencSetFrameConfigForceIFrame(frame, 1), ACL_SUCCESS);
  EXPECT_EQ(aclvencGetFrameConfigForceIFrame(frame), 1u);
  EXPECT_EQ(aclvencDestroyFrameConfig(frame), ACL_SUCCESS);

  acldvppJpegeConfig *jpege = acldvppCreateJpegeConfig();
  EXPECT_EQ(acldvppSetJpegeConfigLevel(jpege, 101), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetJpegeConfigLevel(jpege, 80), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetJpegeConfigLevel(jpege), 80u);
  EXPECT_EQ(acldvppDestroyJpegeConfig(jpege), ACL_SUCCESS);

  acldvppChannelDesc *channel = acldvppCreateChannelDesc();
  // 8 is DVPP_CHNMODE_PNGD; 16 is no mode.
  EXPECT_EQ(acldvppSetChannelDescMode(channel, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetChannelDescMode(channel, DVPP_CHNMODE_JPEGD),
            ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyChannelDesc(channel), ACL_SUCCESS);
}

TEST_F(AclDvppDesc, JpegHeadersAreRead) {
  std::vector<uint8_t> jpeg = jpegHeader(1023, 767, 3);
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  ASSERT_EQ(acldvppJpegGetImageInfo(jpeg.data(),
                                    static_cast<uint32_t>(jpeg.size()), &width,
                                    &height, &components),
            ACL_SUCCESS);
  EXPECT_EQ(width, 1023u);
  EXPECT_EQ(height, 767u);
  EXPECT_EQ(components, 3);
  // Decoding to YUV420SP: width aligned to 128, height to 16, 1.5 bytes.
  uint32_t size = 0;
  ASSERT_EQ(acldvppJpegPredictDecSize(jpeg.data(),
                                      static_cast<uint32_t>(jpeg.size()),
                                      PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
            ACL_SUCCESS);
  EXPECT_EQ(size, 1024u * 768u * 3 / 2);
  // Not a JPEG, or cut before its frame header.
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0, 0, 0, 0};
  EXPECT_EQ(acldvppJpegGetImageInfo(png.data(), 8, &width, &height, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppJpegGetImageInfo(jpeg.data(), 22, &width, &height, nullptr),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclDvppDesc, ResizingChecksWhatTheHardwareChecks) {
  acldvppChannelDesc *channel = acldvppCreateChannelDesc();
  acldvppResizeConfig *resize = acldvppCreateResizeConfig();
  const uint32_t bytes = 64 * 64 * 3 / 2;
  void *in = nullptr, *out = nullptr;
  ASSERT_EQ(acldvppMalloc(&in, bytes), ACL_SUCCESS);
  ASSERT_EQ(acldvppMalloc(&out, bytes), ACL_SUCCESS);
  acldvppPicDesc *pics[2] = {acldvppCreatePicDesc(), acldvppCreatePicDesc()};
  void *data[2] = {in, out};
  for (int i = 0; i < 2; ++i) {
    acldvppSetPicDescData(pics[i], data[i]);
    acldvppSetPicDescSize(pics[i], bytes);
    acldvppSetPicDescWidth(pics[i], 64);
    acldvppSetPicDescHeight(pics[i], 64);
    acldvppSetPicDescWidthStride(pics[i], 64);
    acldvppSetPicDescHeightStride(pics[i], 64);
  }
  // No channel yet.
  EXPECT_EQ(acldvppVpcResizeAsync(channel, pics[0], pics[1], resize, nullptr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acldvppVpcResizeAsync(channel, pics[0], pics[1], resize, nullptr),
            ACL_SUCCESS);
  // A width stride that is no multiple of 16; an RGB picture.
  acldvppSetPicDescWidthStride(pics[1], 72);
  EXPECT_EQ(acldvppVpcResizeAsync(channel, pics[0], pics[1], resize, nullptr),
            ACL_ERROR_INVALID_PARAM);
  acldvppSetPicDescWidthStride(pics[1], 64);
  acldvppSetPicDescFormat(pics[0], PIXEL_FORMAT_RGB_888);
  EXPECT_EQ(acldvppVpcResizeAsync(channel, pics[0], pics[1], resize, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  for (acldvppPicDesc *pic : pics)
    acldvppDestroyPicDesc(pic);
  acldvppFree(in);
  acldvppFree(out);
  acldvppDestroyResizeConfig(resize);
  EXPECT_EQ(acldvppDestroyChannel(channel), ACL_SUCCESS);
  acldvppDestroyChannelDesc(channel);
}
