//===- AclDvppCodecTest.cpp - paste, batches, JPEG encoding, PNG ----------===//
#include "AclTestSupport.h"
#include "acl/ops/acl_dvpp.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

/// A YUV420SP picture of `side` x `side` in DVPP memory, its luma `luma`.
struct Picture {
  acldvppPicDesc *desc = nullptr;
  void *data = nullptr;
  uint32_t bytes = 0;

  Picture(uint32_t side, uint8_t luma) {
    bytes = side * side * 3 / 2;
    EXPECT_EQ(acldvppMalloc(&data, bytes), ACL_SUCCESS);
    std::vector<uint8_t> pixels(bytes, 0x80);
    memset(pixels.data(), luma, side * side);
    aclrtMemcpy(data, bytes, pixels.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    desc = acldvppCreatePicDesc();
    acldvppSetPicDescData(desc, data);
    acldvppSetPicDescSize(desc, bytes);
    acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(desc, side);
    acldvppSetPicDescHeight(desc, side);
    acldvppSetPicDescWidthStride(desc, side);
    acldvppSetPicDescHeightStride(desc, side);
  }
  ~Picture() {
    acldvppDestroyPicDesc(desc);
    acldvppFree(data);
  }
  std::vector<uint8_t> read() const {
    std::vector<uint8_t> pixels(bytes);
    aclrtMemcpy(pixels.data(), bytes, data, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return pixels;
  }
};

class AclDvppCodec : public AclTest {
protected:
  void SetUp() override {
    AclTest::SetUp();
    channel = acldvppCreateChannelDesc();
    ASSERT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(acldvppDestroyChannel(channel), ACL_SUCCESS);
    acldvppDestroyChannelDesc(channel);
    AclTest::TearDown();
  }
  acldvppChannelDesc *channel = nullptr;
};

/// A PNG's signature and IHDR chunk (what the readers look at), padded.
std::vector<uint8_t> pngHeader(uint32_t width, uint32_t height,
                               uint8_t colourType) {
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A,
                              0,    0,   0,   13,  'I',  'H',  'D',  'R'};
  for (uint32_t side : {width, height})
    for (int shift = 24; shift >= 0; shift -= 8)
      png.push_back(static_cast<uint8_t>(side >> shift));
  png.insert(png.end(), {8, colourType, 0, 0, 0, 0, 0, 0, 0});
  png.resize(64, 0);
  return png;
}

} // namespace

TEST_F(AclDvppCodec, CropAndPasteWritesThePasteAreaOnly) {
  Picture in(64, 200), out(64, 10);
  acldvppRoiConfig *crop = acldvppCreateRoiConfig(0, 31, 0, 31);
  acldvppRoiConfig *paste = acldvppCreateRoiConfig(16, 47, 16, 47);
  ASSERT_EQ(acldvppVpcCropAndPasteAsync(channel, in.desc, out.desc, crop, paste,
                                        nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  std::vector<uint8_t> pixels = out.read();
  EXPECT_EQ(pixels[20 * 64 + 20], 200) << "inside the paste area";
  EXPECT_EQ(pixels[5 * 64 + 5], 10) << "outside it, as it was";
  EXPECT_EQ(pixels[50 * 64 + 50], 10);
  // A paste area outside the output picture.
  acldvppRoiConfig *outside = acldvppCreateRoiConfig(40, 71, 0, 31);
  EXPECT_EQ(acldvppVpcCropAndPasteAsync(channel, in.desc, out.desc, crop,
                                        outside, nullptr),
            ACL_ERROR_INVALID_PARAM);
  // The resize-config forms want one.
  EXPECT_EQ(acldvppVpcCropResizePasteAsync(channel, in.desc, out.desc, crop,
                                           paste, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppVpcCropResizeAsync(channel, in.desc, out.desc, crop, nullptr,
                                      nullptr),
            ACL_ERROR_INVALID_PARAM);
  for (acldvppRoiConfig *roi : {crop, paste, outside})
    acldvppDestroyRoiConfig(roi);
}

TEST_F(AclDvppCodec, BatchCropsGiveEachAreaItsOwnOutput) {
  Picture in(64, 90);
  acldvppBatchPicDesc *sources = acldvppCreateBatchPicDesc(1);
  acldvppBatchPicDesc *targets = acldvppCreateBatchPicDesc(2);
  void *buffers[2];
  for (uint32_t i = 0; i < 2; ++i) {
    acldvppPicDesc *pic = acldvppGetPicDesc(targets, i);
    ASSERT_EQ(acldvppMalloc(&buffers[i], 32 * 32 * 3 / 2), ACL_SUCCESS);
    acldvppSetPicDescData(pic, buffers[i]);
    acldvppSetPicDescSize(pic, 32 * 32 * 3 / 2);
    acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(pic, 32);
    acldvppSetPicDescHeight(pic, 32);
    acldvppSetPicDescWidthStride(pic, 32);
    acldvppSetPicDescHeightStride(pic, 32);
  }
  acldvppPicDesc *source = acldvppGetPicDesc(sources, 0);
  acldvppSetPicDescData(source, in.data);
  acldvppSetPicDescSize(source, in.bytes);
  acldvppSetPicDescFormat(source, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(source, 64);
  acldvppSetPicDescHeight(source, 64);
  acldvppSetPicDescWidthStride(source, 64);
  acldvppSetPicDescHeightStride(source, 64);
  acldvppRoiConfig *areas[2] = {acldvppCreateRoiConfig(0, 31, 0, 31),
                                acldvppCreateRoiConfig(32, 63, 32, 63)};
  uint32_t roiNums[1] = {2};
  EXPECT_EQ(acldvppVpcBatchCropAsync(channel, sources, roiNums, 1, targets,
                                     areas, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  uint8_t luma = 0;
  aclrtMemcpy(&luma, 1, buffers[1], 1, ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_EQ(luma, 90);
  roiNums[0] = 3; // more areas than destination pictures
  EXPECT_EQ(acldvppVpcBatchCropAsync(channel, sources, roiNums, 1, targets,
                                     areas, nullptr),
            ACL_ERROR_INVALID_PARAM);
  for (acldvppRoiConfig *roi : areas)
    acldvppDestroyRoiConfig(roi);
  for (void *buffer : buffers)
    acldvppFree(buffer);
  acldvppDestroyBatchPicDesc(sources);
  acldvppDestroyBatchPicDesc(targets);
}

TEST_F(AclDvppCodec, JpegEncodingWritesAJpegOfThePicturesSize) {
  Picture in(64, 50);
  acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
  uint32_t predicted = 0;
  ASSERT_EQ(acldvppJpegPredictEncSize(in.desc, config, &predicted),
            ACL_SUCCESS);
  EXPECT_EQ(predicted, 2u << 20) << "rounded up to 2 MiB";
  void *jpeg = nullptr;
  ASSERT_EQ(acldvppMalloc(&jpeg, predicted), ACL_SUCCESS);
  uint32_t size = predicted;
  ASSERT_EQ(
      acldvppJpegEncodeAsync(channel, in.desc, jpeg, &size, config, nullptr),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  ASSERT_GT(size, 0u);
  ASSERT_LT(size, predicted);
  std::vector<uint8_t> bytes(size);
  aclrtMemcpy(bytes.data(), size, jpeg, size, ACL_MEMCPY_DEVICE_TO_HOST);
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  acldvppJpegFormat format = ACL_JPEG_CSS_UNKNOWN;
  EXPECT_EQ(acldvppJpegGetImageInfoV2(bytes.data(), size, &width, &height,
                                      &components, &format),
            ACL_SUCCESS);
  EXPECT_EQ(width, 64u);
  EXPECT_EQ(height, 64u);
  EXPECT_EQ(components, 3);
  EXPECT_EQ(format, ACL_JPEG_CSS_420);
  // Too small a picture for the encoder; an RGB picture.
  acldvppSetPicDescWidth(in.desc, 16);
  EXPECT_EQ(acldvppJpegPredictEncSize(in.desc, config, &predicted),
            ACL_ERROR_INVALID_PARAM);
  acldvppSetPicDescWidth(in.desc, 64);
  acldvppSetPicDescFormat(in.desc, PIXEL_FORMAT_RGB_888);
  EXPECT_EQ(
      acldvppJpegEncodeAsync(channel, in.desc, jpeg, &size, config, nullptr),
      ACL_ERROR_FORMAT_NOT_MATCH);
  acldvppFree(jpeg);
  acldvppDestroyJpegeConfig(config);
}

TEST_F(AclDvppCodec, PngHeadersSizesAndDecoding) {
  std::vector<uint8_t> png = pngHeader(100, 40, 6);
  uint32_t width = 0, height = 0, size = 0;
  int32_t components = 0;
  ASSERT_EQ(acldvppPngGetImageInfo(png.data(), png.size(), &width, &height,
                                   &components),
            ACL_SUCCESS);
  EXPECT_EQ(width, 100u);
  EXPECT_EQ(height, 40u);
  EXPECT_EQ(components, 4);
  ASSERT_EQ(acldvppPngPredictDecSize(png.data(), png.size(),
                                     PIXEL_FORMAT_RGB_888, &size),
            ACL_SUCCESS);
  EXPECT_EQ(size, 128u * 3 * 48) << "width to 128, height to 16";
  EXPECT_EQ(acldvppPngPredictDecSize(png.data(), png.size(),
                                     PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
            ACL_ERROR_FORMAT_NOT_MATCH);
  std::vector<uint8_t> palette = pngHeader(100, 40, 3);
  EXPECT_EQ(acldvppPngGetImageInfo(palette.data(), palette.size(), &width,
                                   &height, &components),
            ACL_ERROR_FORMAT_NOT_MATCH);
  png[1] = 'X';
  EXPECT_EQ(acldvppPngGetImageInfo(png.data(), png.size(), &width, &height,
                                   &components),
            ACL_ERROR_INVALID_PARAM);
  png[1] = 'P';

  void *input = nullptr, *output = nullptr;
  ASSERT_EQ(acldvppMalloc(&input, png.size()), ACL_SUCCESS);
  aclrtMemcpy(input, png.size(), png.data(), png.size(),
              ACL_MEMCPY_HOST_TO_DEVICE);
  ASSERT_EQ(acldvppMalloc(&output, 128 * 3 * 48), ACL_SUCCESS);
  acldvppPicDesc *out = acldvppCreatePicDesc();
  acldvppSetPicDescData(out, output);
  acldvppSetPicDescSize(out, 128 * 3 * 48);
  acldvppSetPicDescFormat(out, PIXEL_FORMAT_RGB_888);
  EXPECT_EQ(acldvppPngDecodeAsync(channel, input, png.size(), out, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescWidth(out), 100u);
  EXPECT_EQ(acldvppGetPicDescWidthStride(out), 384u);
  acldvppSetPicDescSize(out, 1000);
  EXPECT_EQ(acldvppPngDecodeAsync(channel, input, png.size(), out, nullptr),
            ACL_ERROR_INVALID_PARAM)
      << "an output buffer too small";
  acldvppDestroyPicDesc(out);
  acldvppFree(input);
  acldvppFree(output);
}
