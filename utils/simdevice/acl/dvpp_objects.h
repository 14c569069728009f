//===- dvpp_objects.h - What DVPP's handles are -----------------*- C++ -*-===//
//
// Contract: the host objects behind the DVPP handles the application holds
// (acl/ops/acl_dvpp.h declares them opaque), shared by the channel and
// memory calls (acl_dvpp_api.cpp) and the description calls
// (acl_dvpp_desc_api.cpp). Each lives between its create and destroy calls,
// registered with the runtime under its HandleKind; defaults are the real
// library's documented ones.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACL_DVPP_OBJECTS_H
#define MSSIM_ACL_DVPP_OBJECTS_H

#include "acl/ops/acl_dvpp.h"

#include <cstdint>
#include <vector>

struct acldvppPicDesc {
  void *data = nullptr;
  uint32_t size = 0;
  acldvppPixelFormat format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t widthStride = 0;
  uint32_t heightStride = 0;
  uint32_t retCode = 0;
};

struct acldvppBatchPicDesc {
  std::vector<acldvppPicDesc *> pictures; // registered PicDescs of their own
  // The device-side copy of the batch the real library allocates with it
  // (batchDescriptorBytes(), device memory of the DVPP module): freed by
  // acldvppDestroyBatchPicDesc.
  void *deviceDescriptor = nullptr;
};

struct acldvppRoiConfig {
  uint32_t left, right, top, bottom;
};

struct acldvppResizeConfig {
  uint32_t interpolation = 0;
};

struct acldvppChannelDesc {
  void *channelMemory = nullptr; // set while the channel exists
  int32_t device = -1;
  uint32_t mode = DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE;
  uint64_t channelId = 0; // given when the channel is created
};

struct acldvppJpegeConfig {
  uint32_t level = 100;
};

/// What DVPP's per-component arrays hold at most (the real layout's
/// DVPP_MAX_COMPONENT).
constexpr uint32_t kDvppMaxComponents = 4;

struct acldvppBorderConfig {
  uint32_t borderType = 0; // BORDER_CONSTANT
  uint32_t top = 0, bottom = 0, left = 0, right = 0;
  double value[kDvppMaxComponents] = {};
};

/// A lookup table: `dims` maps of 256 bytes each, one after another.
struct acldvppLutMap {
  uint32_t dims = 3;
  uint32_t lens[kDvppMaxComponents] = {256, 256, 256, 0};
  std::vector<uint8_t> map = std::vector<uint8_t>(3 * 256);
};

/// A histogram: `dims` counts of 256 bins each, kept on the host for the
/// accessors, with the device-side description and the DVPP buffer the
/// real library allocates with it (histDescriptorBytes(), histDataBytes()):
/// freed by acldvppDestroyHist.
struct acldvppHist {
  uint32_t dims = 3;
  uint32_t lens[kDvppMaxComponents] = {256, 256, 256, 0};
  uint32_t retCode = 0;
  std::vector<uint32_t> bins = std::vector<uint32_t>(3 * 256);
  void *deviceDescriptor = nullptr;
  void *deviceData = nullptr;
};

struct acldvppStreamDesc {
  void *data = nullptr;
  uint32_t size = 0;
  acldvppStreamFormat format = H264_BASELINE_LEVEL;
  uint64_t timestamp = 0;
  uint32_t retCode = 0;
  uint8_t eos = 0;
};

struct aclvdecChannelDesc {
  uint32_t channelId = 0;
  uint64_t threadId = 0;
  aclvdecCallback callback = nullptr;
  acldvppStreamFormat enType = H265_MAIN_LEVEL;
  acldvppPixelFormat outPicFormat = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t outPicWidth = 0;
  uint32_t outPicHeight = 0;
  uint32_t refFrameNum = 0;
  uint32_t outMode = 0;
  uint32_t bitDepth = 0; // 0: 8 bits
  // While the channel exists (aclvdecCreateChannel): its device memory and
  // the two streams the real library makes for it, the second bound to the
  // callback thread.
  void *channelMemory = nullptr;
  aclrtStream sendStream = nullptr;
  aclrtStream getStream = nullptr;
};

struct aclvdecFrameConfig {};

struct aclvencChannelDesc {
  uint32_t channelId = 0;
  uint64_t threadId = 0;
  aclvencCallback callback = nullptr;
  acldvppStreamFormat enType = H265_MAIN_LEVEL;
  acldvppPixelFormat picFormat = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t picWidth = 0;
  uint32_t picHeight = 0;
  uint32_t keyFrameInterval = 0;
  // The output buffer an application may give the encoder, its size (8 MiB,
  // the documented default), rate control (0: the product's default mode),
  // the input frame rate and the maximum bit rate (0: the default). Kept
  // for the getters; the simulated encoder uses a buffer of its own.
  void *bufAddr = nullptr;
  uint32_t bufSize = 8U << 20;
  uint32_t rcMode = 0;
  uint32_t srcRate = 0;
  uint32_t maxBitRate = 0;
  // While the channel exists (aclvencCreateChannel): its device memory,
  // the output buffer the encoded frames go to, its stream (bound to the
  // callback thread), the output description handed to the callback, and
  // the frames encoded so far.
  void *channelMemory = nullptr;
  void *outputBuffer = nullptr;
  aclrtStream stream = nullptr;
  acldvppStreamDesc *output = nullptr;
  uint64_t frames = 0;
};

struct aclvencFrameConfig {
  uint8_t forceIFrame = 0;
  uint8_t eos = 0;
};

namespace mssim {

/// `value` rounded up to a multiple of `alignment`.
uint32_t alignUp(uint32_t value, uint32_t alignment);

/// What a JPEG's start-of-frame says: width, height, components and, if
/// `subsampling` is given, the chroma subsampling. False if `data` holds no
/// JPEG with one (a marker walk over the header).
bool jpegFrame(const uint8_t *data, uint32_t size, uint32_t *width,
               uint32_t *height, int32_t *components,
               acldvppJpegFormat *subsampling = nullptr);

// Shared by the operations (acl_dvpp_ops_api.cpp, acl_dvpp_codec_api.cpp).
bool isYuv420sp(acldvppPixelFormat format);
/// The channel, created (acldvppCreateChannel), live and of a mode that
/// includes `mode`; else the error, recorded.
aclError checkChannel(const char *api, const acldvppChannelDesc *channel,
                      uint32_t mode);
/// A YUV420SP picture description the hardware takes: live, in device
/// memory, strides aligned (width to 16, height to 2), the picture inside
/// them and the buffer holding them; else the error, recorded.
aclError checkPicture(const char *api, const acldvppPicDesc *pic,
                      const char *which);
/// A decoder's output: checks that `out`'s buffer holds `bytes` (else the
/// error, naming the `predict` call that sizes it), then describes the
/// decoded picture in it.
aclError describeDecoded(const char *api, acldvppPicDesc *out, uint32_t width,
                         uint32_t height, uint32_t widthStride,
                         uint32_t heightStride, uint64_t bytes,
                         const char *predict);
/// A rectangle of a picture, inclusive as the real ROI configs are.
struct PictureRegion {
  uint32_t left, right, top, bottom;
  uint32_t width() const { return right - left + 1; }
  uint32_t height() const { return bottom - top + 1; }
};
/// The whole of `pic`.
PictureRegion wholeOf(const acldvppPicDesc &pic);
/// Whether `region` is well-formed and lies inside `pic`.
bool inside(const PictureRegion &region, const acldvppPicDesc &pic);
/// Nearest-neighbour copy of `from` of `in` onto `to` of `out`, both YUV420SP
/// pictures in device memory (read and written through the driver, as a DMA
/// would); the rest of `out` is left as it is. False if the memory cannot
/// be read or written.
bool resamplePicture(const acldvppPicDesc &in, const PictureRegion &from,
                     const acldvppPicDesc &out, const PictureRegion &to);
/// A baseline JPEG naming the picture's size (SOI, a 4:2:0 frame header,
/// EOI): what the encoders write.
std::vector<uint8_t> jpegHeader(uint32_t width, uint32_t height);
/// What a PNG's IHDR says; ACL_ERROR_INVALID_PARAM (recorded for `api`) if
/// `data` is no PNG, ACL_ERROR_FORMAT_NOT_MATCH for a colour type the
/// decoder lacks.
aclError pngHeader(const char *api, const void *data, uint32_t size,
                   uint32_t *width, uint32_t *height, int32_t *components,
                   uint32_t *bitDepth);

} // namespace mssim

#endif
