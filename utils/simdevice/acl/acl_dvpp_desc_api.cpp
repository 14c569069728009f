//===- acl_dvpp_desc_api.cpp - DVPP descriptions and configurations -------===//
//
// The descriptions and configurations DVPP calls take: created, set, read and
// destroyed on the host, as the real library does, each registered while it
// lives (a destroyed or unknown one is ACL_ERROR_INVALID_PARAM to a setter
// and a destroy, the documented default to a getter; a destroy of null
// succeeds, as the real library's). Batches and histograms also hold the
// device memory the real library allocates with them (a device-side copy of
// the description; a histogram's DVPP buffer), at the driver level, freed by
// their destroy. Border configurations, LUT maps and histograms are made,
// read and destroyed for real; the operations that use them are stand-ins.
// Also what DVPP computes on the host: a JPEG's size from its header, and
// the buffer sizes decoding needs.
//
//===----------------------------------------------------------------------===//
#include "dvpp_objects.h"
#include "runtime.h"

#include <algorithm>

using namespace mssim;

namespace {

/// Sets `field` of the live object `object` of `kind`.
template <typename Object, typename Field, typename Value>
aclError set(const char *api, Object *object, HandleKind kind,
             Field Object::*field, Value value) {
  if (!Runtime::instance().isLive(object, kind))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(object) + " does not exist or was destroyed");
  object->*field = static_cast<Field>(value);
  return ACL_SUCCESS;
}

/// `field` of the live object `object` of `kind`, or `fallback`.
template <typename Object, typename Field>
Field get(const Object *object, HandleKind kind, Field Object::*field,
          Field fallback = Field()) {
  return Runtime::instance().isLive(object, kind) ? object->*field : fallback;
}

constexpr HandleKind kPic = HandleKind::PicDesc;
constexpr HandleKind kStream = HandleKind::StreamDesc;
constexpr HandleKind kVdec = HandleKind::VdecChannelDesc;
constexpr HandleKind kVenc = HandleKind::VencChannelDesc;

/// The most pictures a batch holds (the real library's limit).
constexpr uint32_t kMaxBatch = 256;
/// Bytes of the real layouts' device-side copies: a batch (its size, then
/// a 48-byte packed picture description each) and a histogram's
/// description (44 bytes packed); the histogram's counts are 32-bit.
constexpr uint64_t batchDescriptorBytes(uint32_t pictures) {
  return 48ULL * pictures + 4;
}
constexpr uint64_t kHistDescriptorBytes = 44;
constexpr uint64_t kHistDataBytes = 3 * 256 * sizeof(uint32_t);

/// A border width: at most 65535, as the real configuration holds it.
aclError setBorderSide(const char *api, acldvppBorderConfig *config,
                       uint32_t acldvppBorderConfig::*side, uint32_t value) {
  if (value > UINT16_MAX)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::to_string(value) + " is above 65535");
  return set(api, config, HandleKind::BorderConfig, side, value);
}

/// Destroys a live object of `kind`; null is success, as the real library's
/// destroys of host objects (a free of null) make it.
template <typename T>
aclError destroyOrNull(const char *api, T *object, HandleKind kind) {
  if (!object)
    return ACL_SUCCESS;
  return destroyHandle(api, object, kind);
}

} // namespace

uint32_t mssim::alignUp(uint32_t value, uint32_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

namespace {

/// The subsampling a frame's components declare: the first (luma) one's
/// horizontal and vertical factors over the others' (all 1 x 1).
acldvppJpegFormat subsamplingOf(const uint8_t *frame, uint32_t length) {
  uint32_t count = frame[9];
  if (count == 1)
    return ACL_JPEG_CSS_GRAY;
  if (count != 3 || length < 8 + 3 * count)
    return ACL_JPEG_CSS_UNKNOWN;
  for (uint32_t c = 1; c < count; ++c)
    if (frame[11 + 3 * c] != 0x11)
      return ACL_JPEG_CSS_UNKNOWN;
  switch (frame[11]) {
  case 0x11:
    return ACL_JPEG_CSS_444;
  case 0x21:
    return ACL_JPEG_CSS_422;
  case 0x22:
    return ACL_JPEG_CSS_420;
  case 0x12:
    return ACL_JPEG_CSS_440;
  case 0x41:
    return ACL_JPEG_CSS_411;
  default:
    return ACL_JPEG_CSS_UNKNOWN;
  }
}

} // namespace

bool mssim::jpegFrame(const uint8_t *data, uint32_t size, uint32_t *width,
                      uint32_t *height, int32_t *components,
                      acldvppJpegFormat *subsampling) {
  if (size < 4 || data[0] != 0xFF || data[1] != 0xD8)
    return false;
  uint32_t at = 2;
  while (at + 4 <= size) {
    if (data[at] != 0xFF)
      return false;
    uint8_t marker = data[at + 1];
    if (marker == 0xFF) { // fill byte
      ++at;
      continue;
    }
    uint32_t length = (uint32_t(data[at + 2]) << 8) | data[at + 3];
    if (length < 2 || at + 2 + length > size)
      return false;
    // SOF0-SOF15, but DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
        marker != 0xCC) {
      if (length < 8)
        return false;
      *height = (uint32_t(data[at + 5]) << 8) | data[at + 6];
      *width = (uint32_t(data[at + 7]) << 8) | data[at + 8];
      *components = data[at + 9];
      if (subsampling)
        *subsampling = subsamplingOf(data + at, length);
      return *width && *height;
    }
    if (marker == 0xDA || marker == 0xD9) // scan or end before a frame
      return false;
    at += 2 + length;
  }
  return false;
}

extern "C" {

// Picture descriptions: the fields the channel file does not set.
ACL_FUNC_VISIBILITY aclError
acldvppSetPicDescWidthStride(acldvppPicDesc *picDesc, uint32_t widthStride) {
  return set("acldvppSetPicDescWidthStride", picDesc, kPic,
             &acldvppPicDesc::widthStride, widthStride);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetPicDescHeightStride(acldvppPicDesc *picDesc, uint32_t heightStride) {
  return set("acldvppSetPicDescHeightStride", picDesc, kPic,
             &acldvppPicDesc::heightStride, heightStride);
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescRetCode(acldvppPicDesc *picDesc,
                                                      uint32_t retCode) {
  return set("acldvppSetPicDescRetCode", picDesc, kPic,
             &acldvppPicDesc::retCode, retCode);
}
ACL_FUNC_VISIBILITY acldvppPixelFormat
acldvppGetPicDescFormat(const acldvppPicDesc *picDesc) {
  return get(picDesc, kPic, &acldvppPicDesc::format, PIXEL_FORMAT_YUV_400);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescWidth(const acldvppPicDesc *picDesc) {
  return get(picDesc, kPic, &acldvppPicDesc::width);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescHeight(const acldvppPicDesc *picDesc) {
  return get(picDesc, kPic, &acldvppPicDesc::height);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescWidthStride(const acldvppPicDesc *picDesc) {
  return get(picDesc, kPic, &acldvppPicDesc::widthStride);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescHeightStride(const acldvppPicDesc *picDesc) {
  return get(picDesc, kPic, &acldvppPicDesc::heightStride);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescRetCode(const acldvppPicDesc *picDesc) {
  return get(picDesc, kPic, &acldvppPicDesc::retCode);
}

// Batches: their pictures are picture descriptions of their own, and the
// batch has a device-side copy, as the real library's has.
ACL_FUNC_VISIBILITY acldvppBatchPicDesc *
acldvppCreateBatchPicDesc(uint32_t batchSize) {
  const char *api = "acldvppCreateBatchPicDesc";
  if (batchSize == 0 || batchSize > kMaxBatch) {
    fail(ACL_ERROR_INVALID_PARAM, api,
         "the batch size is " + std::to_string(batchSize) + ", not 1 to " +
             std::to_string(kMaxBatch));
    return nullptr;
  }
  void *descriptor = nullptr;
  uint64_t bytes = batchDescriptorBytes(batchSize);
  if (allocateOnDevice(api, &descriptor, bytes, bytes, MEM_DEV,
                       DVPP_MODULE_ID) != ACL_SUCCESS)
    return nullptr;
  auto *batch = new acldvppBatchPicDesc;
  batch->deviceDescriptor = descriptor;
  for (uint32_t i = 0; i < batchSize; ++i)
    batch->pictures.push_back(trackHandle(new acldvppPicDesc, kPic));
  return trackHandle(batch, HandleKind::BatchPicDesc);
}
ACL_FUNC_VISIBILITY acldvppPicDesc *
acldvppGetPicDesc(acldvppBatchPicDesc *batchPicDesc, uint32_t index) {
  if (!Runtime::instance().isLive(batchPicDesc, HandleKind::BatchPicDesc) ||
      index >= batchPicDesc->pictures.size())
    return nullptr;
  return batchPicDesc->pictures[index];
}
ACL_FUNC_VISIBILITY aclError
acldvppDestroyBatchPicDesc(acldvppBatchPicDesc *batchPicDesc) {
  const char *api = "acldvppDestroyBatchPicDesc";
  if (!batchPicDesc)
    return ACL_SUCCESS; // as the real library: nothing to destroy
  if (!Runtime::instance().removeHandle(batchPicDesc, HandleKind::BatchPicDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(batchPicDesc) + " does not exist or was destroyed");
  for (acldvppPicDesc *picture : batchPicDesc->pictures)
    destroyHandle(api, picture, kPic);
  halMemFree(batchPicDesc->deviceDescriptor);
  delete batchPicDesc;
  return ACL_SUCCESS;
}

// Regions of interest and resizing.
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigLeft(acldvppRoiConfig *config,
                                                     uint32_t left) {
  return set("acldvppSetRoiConfigLeft", config, HandleKind::RoiConfig,
             &acldvppRoiConfig::left, left);
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigRight(acldvppRoiConfig *config,
                                                      uint32_t right) {
  return set("acldvppSetRoiConfigRight", config, HandleKind::RoiConfig,
             &acldvppRoiConfig::right, right);
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigTop(acldvppRoiConfig *config,
                                                    uint32_t top) {
  return set("acldvppSetRoiConfigTop", config, HandleKind::RoiConfig,
             &acldvppRoiConfig::top, top);
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigBottom(acldvppRoiConfig *config,
                                                       uint32_t bottom) {
  return set("acldvppSetRoiConfigBottom", config, HandleKind::RoiConfig,
             &acldvppRoiConfig::bottom, bottom);
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfig(acldvppRoiConfig *config,
                                                 uint32_t left, uint32_t right,
                                                 uint32_t top,
                                                 uint32_t bottom) {
  if (!Runtime::instance().isLive(config, HandleKind::RoiConfig))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppSetRoiConfig",
                hexAddress(config) + " does not exist or was destroyed");
  *config = acldvppRoiConfig{left, right, top, bottom};
  return ACL_SUCCESS;
}
ACL_FUNC_VISIBILITY aclError acldvppSetResizeConfigInterpolation(
    acldvppResizeConfig *resizeConfig, uint32_t interpolation) {
  return set("acldvppSetResizeConfigInterpolation", resizeConfig,
             HandleKind::ResizeConfig, &acldvppResizeConfig::interpolation,
             interpolation);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetResizeConfigInterpolation(const acldvppResizeConfig *resizeConfig) {
  return get(resizeConfig, HandleKind::ResizeConfig,
             &acldvppResizeConfig::interpolation);
}

// JPEG.
ACL_FUNC_VISIBILITY acldvppJpegeConfig *acldvppCreateJpegeConfig(void) {
  return trackHandle(new acldvppJpegeConfig, HandleKind::JpegeConfig);
}
ACL_FUNC_VISIBILITY aclError
acldvppDestroyJpegeConfig(acldvppJpegeConfig *jpegeConfig) {
  return destroyOrNull("acldvppDestroyJpegeConfig", jpegeConfig,
                       HandleKind::JpegeConfig);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetJpegeConfigLevel(acldvppJpegeConfig *jpegeConfig, uint32_t level) {
  if (level > 100)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppSetJpegeConfigLevel",
                "the level is " + std::to_string(level) + ", not 0 to 100");
  return set("acldvppSetJpegeConfigLevel", jpegeConfig, HandleKind::JpegeConfig,
             &acldvppJpegeConfig::level, level);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetJpegeConfigLevel(const acldvppJpegeConfig *jpegeConfig) {
  return get(jpegeConfig, HandleKind::JpegeConfig, &acldvppJpegeConfig::level);
}

ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfo(const void *data,
                                                     uint32_t size,
                                                     uint32_t *width,
                                                     uint32_t *height,
                                                     int32_t *components) {
  if (!data || !width || !height)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegGetImageInfo",
                "a null argument");
  int32_t found = 0;
  if (!jpegFrame(static_cast<const uint8_t *>(data), size, width, height,
                 &found))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegGetImageInfo",
                "the data is not a JPEG with a frame header");
  if (components)
    *components = found;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppJpegPredictDecSize(
    const void *data, uint32_t dataSize, acldvppPixelFormat outputPixelFormat,
    uint32_t *decSize) {
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  if (!data || !decSize ||
      !jpegFrame(static_cast<const uint8_t *>(data), dataSize, &width, &height,
                 &components))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegPredictDecSize",
                "the data is not a JPEG with a frame header");
  // The decoder's output: width aligned to 128, height to 16.
  uint64_t plane = uint64_t(alignUp(width, 128)) * alignUp(height, 16);
  uint64_t bytes;
  switch (outputPixelFormat) {
  case PIXEL_FORMAT_YUV_400:
    bytes = plane;
    break;
  case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
  case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
    bytes = plane * 3 / 2;
    break;
  case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
  case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
    bytes = plane * 2;
    break;
  case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
  case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
    bytes = plane * 3;
    break;
  default:
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegPredictDecSize",
                "JPEG decoding does not output pixel format " +
                    std::to_string(outputPixelFormat));
  }
  *decSize = static_cast<uint32_t>(bytes);
  return ACL_SUCCESS;
}

// Video stream descriptions.
ACL_FUNC_VISIBILITY acldvppStreamDesc *acldvppCreateStreamDesc(void) {
  return trackHandle(new acldvppStreamDesc, kStream);
}
ACL_FUNC_VISIBILITY aclError
acldvppDestroyStreamDesc(acldvppStreamDesc *streamDesc) {
  return destroyOrNull("acldvppDestroyStreamDesc", streamDesc, kStream);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetStreamDescData(acldvppStreamDesc *streamDesc, void *dataDev) {
  return set("acldvppSetStreamDescData", streamDesc, kStream,
             &acldvppStreamDesc::data, dataDev);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetStreamDescSize(acldvppStreamDesc *streamDesc, uint32_t size) {
  return set("acldvppSetStreamDescSize", streamDesc, kStream,
             &acldvppStreamDesc::size, size);
}
ACL_FUNC_VISIBILITY aclError acldvppSetStreamDescFormat(
    acldvppStreamDesc *streamDesc, acldvppStreamFormat format) {
  return set("acldvppSetStreamDescFormat", streamDesc, kStream,
             &acldvppStreamDesc::format, format);
}
ACL_FUNC_VISIBILITY aclError acldvppSetStreamDescTimestamp(
    acldvppStreamDesc *streamDesc, uint64_t timestamp) {
  return set("acldvppSetStreamDescTimestamp", streamDesc, kStream,
             &acldvppStreamDesc::timestamp, timestamp);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetStreamDescRetCode(acldvppStreamDesc *streamDesc, uint32_t retCode) {
  return set("acldvppSetStreamDescRetCode", streamDesc, kStream,
             &acldvppStreamDesc::retCode, retCode);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetStreamDescEos(acldvppStreamDesc *streamDesc, uint8_t eos) {
  return set("acldvppSetStreamDescEos", streamDesc, kStream,
             &acldvppStreamDesc::eos, eos);
}
ACL_FUNC_VISIBILITY void *
acldvppGetStreamDescData(const acldvppStreamDesc *streamDesc) {
  return get(streamDesc, kStream, &acldvppStreamDesc::data);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetStreamDescSize(const acldvppStreamDesc *streamDesc) {
  return get(streamDesc, kStream, &acldvppStreamDesc::size);
}
ACL_FUNC_VISIBILITY acldvppStreamFormat
acldvppGetStreamDescFormat(const acldvppStreamDesc *streamDesc) {
  return get(streamDesc, kStream, &acldvppStreamDesc::format,
             H264_BASELINE_LEVEL);
}
ACL_FUNC_VISIBILITY uint64_t
acldvppGetStreamDescTimestamp(const acldvppStreamDesc *streamDesc) {
  return get(streamDesc, kStream, &acldvppStreamDesc::timestamp);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetStreamDescRetCode(const acldvppStreamDesc *streamDesc) {
  return get(streamDesc, kStream, &acldvppStreamDesc::retCode);
}
ACL_FUNC_VISIBILITY uint8_t
acldvppGetStreamDescEos(const acldvppStreamDesc *streamDesc) {
  return get(streamDesc, kStream, &acldvppStreamDesc::eos);
}

// Video decoding: channel descriptions and frame configurations.
ACL_FUNC_VISIBILITY aclvdecChannelDesc *aclvdecCreateChannelDesc(void) {
  return trackHandle(new aclvdecChannelDesc, kVdec);
}
ACL_FUNC_VISIBILITY aclError
aclvdecDestroyChannelDesc(aclvdecChannelDesc *channelDesc) {
  return destroyOrNull("aclvdecDestroyChannelDesc", channelDesc, kVdec);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescChannelId(
    aclvdecChannelDesc *channelDesc, uint32_t channelId) {
  if (channelId > 31)
    return fail(ACL_ERROR_INVALID_PARAM, "aclvdecSetChannelDescChannelId",
                "channel id " + std::to_string(channelId) + " is out of range");
  return set("aclvdecSetChannelDescChannelId", channelDesc, kVdec,
             &aclvdecChannelDesc::channelId, channelId);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescThreadId(
    aclvdecChannelDesc *channelDesc, uint64_t threadId) {
  return set("aclvdecSetChannelDescThreadId", channelDesc, kVdec,
             &aclvdecChannelDesc::threadId, threadId);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescCallback(
    aclvdecChannelDesc *channelDesc, aclvdecCallback callback) {
  return set("aclvdecSetChannelDescCallback", channelDesc, kVdec,
             &aclvdecChannelDesc::callback, callback);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescEnType(
    aclvdecChannelDesc *channelDesc, acldvppStreamFormat enType) {
  return set("aclvdecSetChannelDescEnType", channelDesc, kVdec,
             &aclvdecChannelDesc::enType, enType);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescOutPicFormat(
    aclvdecChannelDesc *channelDesc, acldvppPixelFormat outPicFormat) {
  return set("aclvdecSetChannelDescOutPicFormat", channelDesc, kVdec,
             &aclvdecChannelDesc::outPicFormat, outPicFormat);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescOutPicWidth(
    aclvdecChannelDesc *channelDesc, uint32_t outPicWidth) {
  return set("aclvdecSetChannelDescOutPicWidth", channelDesc, kVdec,
             &aclvdecChannelDesc::outPicWidth, outPicWidth);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescOutPicHeight(
    aclvdecChannelDesc *channelDesc, uint32_t outPicHeight) {
  return set("aclvdecSetChannelDescOutPicHeight", channelDesc, kVdec,
             &aclvdecChannelDesc::outPicHeight, outPicHeight);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescRefFrameNum(
    aclvdecChannelDesc *channelDesc, uint32_t refFrameNum) {
  return set("aclvdecSetChannelDescRefFrameNum", channelDesc, kVdec,
             &aclvdecChannelDesc::refFrameNum, refFrameNum);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescOutMode(
    aclvdecChannelDesc *channelDesc, uint32_t outMode) {
  return set("aclvdecSetChannelDescOutMode", channelDesc, kVdec,
             &aclvdecChannelDesc::outMode, outMode);
}
ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescBitDepth(
    aclvdecChannelDesc *channelDesc, uint32_t bitDepth) {
  return set("aclvdecSetChannelDescBitDepth", channelDesc, kVdec,
             &aclvdecChannelDesc::bitDepth, bitDepth);
}
ACL_FUNC_VISIBILITY uint32_t
aclvdecGetChannelDescOutMode(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::outMode);
}
ACL_FUNC_VISIBILITY uint32_t
aclvdecGetChannelDescBitDepth(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::bitDepth);
}
ACL_FUNC_VISIBILITY uint32_t
aclvdecGetChannelDescChannelId(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::channelId);
}
ACL_FUNC_VISIBILITY uint64_t
aclvdecGetChannelDescThreadId(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::threadId);
}
ACL_FUNC_VISIBILITY aclvdecCallback
aclvdecGetChannelDescCallback(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::callback);
}
ACL_FUNC_VISIBILITY acldvppStreamFormat
aclvdecGetChannelDescEnType(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::enType, H265_MAIN_LEVEL);
}
ACL_FUNC_VISIBILITY acldvppPixelFormat
aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::outPicFormat,
             PIXEL_FORMAT_YUV_SEMIPLANAR_420);
}
ACL_FUNC_VISIBILITY uint32_t
aclvdecGetChannelDescOutPicWidth(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::outPicWidth);
}
ACL_FUNC_VISIBILITY uint32_t
aclvdecGetChannelDescOutPicHeight(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::outPicHeight);
}
ACL_FUNC_VISIBILITY uint32_t
aclvdecGetChannelDescRefFrameNum(const aclvdecChannelDesc *channelDesc) {
  return get(channelDesc, kVdec, &aclvdecChannelDesc::refFrameNum);
}
ACL_FUNC_VISIBILITY aclvdecFrameConfig *aclvdecCreateFrameConfig(void) {
  return trackHandle(new aclvdecFrameConfig, HandleKind::VdecFrameConfig);
}
ACL_FUNC_VISIBILITY aclError
aclvdecDestroyFrameConfig(aclvdecFrameConfig *vdecFrameConfig) {
  return destroyOrNull("aclvdecDestroyFrameConfig", vdecFrameConfig,
                       HandleKind::VdecFrameConfig);
}

// Video encoding: channel descriptions and frame configurations.
ACL_FUNC_VISIBILITY aclvencChannelDesc *aclvencCreateChannelDesc(void) {
  return trackHandle(new aclvencChannelDesc, kVenc);
}
ACL_FUNC_VISIBILITY aclError
aclvencDestroyChannelDesc(aclvencChannelDesc *channelDesc) {
  return destroyOrNull("aclvencDestroyChannelDesc", channelDesc, kVenc);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescThreadId(
    aclvencChannelDesc *channelDesc, uint64_t threadId) {
  return set("aclvencSetChannelDescThreadId", channelDesc, kVenc,
             &aclvencChannelDesc::threadId, threadId);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescCallback(
    aclvencChannelDesc *channelDesc, aclvencCallback callback) {
  return set("aclvencSetChannelDescCallback", channelDesc, kVenc,
             &aclvencChannelDesc::callback, callback);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescEnType(
    aclvencChannelDesc *channelDesc, acldvppStreamFormat enType) {
  return set("aclvencSetChannelDescEnType", channelDesc, kVenc,
             &aclvencChannelDesc::enType, enType);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescPicFormat(
    aclvencChannelDesc *channelDesc, acldvppPixelFormat picFormat) {
  return set("aclvencSetChannelDescPicFormat", channelDesc, kVenc,
             &aclvencChannelDesc::picFormat, picFormat);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescPicWidth(
    aclvencChannelDesc *channelDesc, uint32_t picWidth) {
  return set("aclvencSetChannelDescPicWidth", channelDesc, kVenc,
             &aclvencChannelDesc::picWidth, picWidth);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescPicHeight(
    aclvencChannelDesc *channelDesc, uint32_t picHeight) {
  return set("aclvencSetChannelDescPicHeight", channelDesc, kVenc,
             &aclvencChannelDesc::picHeight, picHeight);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescKeyFrameInterval(
    aclvencChannelDesc *channelDesc, uint32_t keyFrameInterval) {
  return set("aclvencSetChannelDescKeyFrameInterval", channelDesc, kVenc,
             &aclvencChannelDesc::keyFrameInterval, keyFrameInterval);
}
ACL_FUNC_VISIBILITY aclError
aclvencSetChannelDescBufAddr(aclvencChannelDesc *channelDesc, void *bufAddr) {
  return set("aclvencSetChannelDescBufAddr", channelDesc, kVenc,
             &aclvencChannelDesc::bufAddr, bufAddr);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescBufSize(
    aclvencChannelDesc *channelDesc, uint32_t bufSize) {
  return set("aclvencSetChannelDescBufSize", channelDesc, kVenc,
             &aclvencChannelDesc::bufSize, bufSize);
}
ACL_FUNC_VISIBILITY aclError
aclvencSetChannelDescRcMode(aclvencChannelDesc *channelDesc, uint32_t rcMode) {
  if (rcMode > 2)
    return fail(ACL_ERROR_INVALID_PARAM, "aclvencSetChannelDescRcMode",
                "rate control mode " + std::to_string(rcMode) +
                    " is none of 0 (default), 1 (VBR), 2 (CBR)");
  return set("aclvencSetChannelDescRcMode", channelDesc, kVenc,
             &aclvencChannelDesc::rcMode, rcMode);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescSrcRate(
    aclvencChannelDesc *channelDesc, uint32_t srcRate) {
  return set("aclvencSetChannelDescSrcRate", channelDesc, kVenc,
             &aclvencChannelDesc::srcRate, srcRate);
}
ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescMaxBitRate(
    aclvencChannelDesc *channelDesc, uint32_t maxBitRate) {
  return set("aclvencSetChannelDescMaxBitRate", channelDesc, kVenc,
             &aclvencChannelDesc::maxBitRate, maxBitRate);
}
ACL_FUNC_VISIBILITY void *
aclvencGetChannelDescBufAddr(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::bufAddr);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescBufSize(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::bufSize);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescRcMode(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::rcMode);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescSrcRate(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::srcRate);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::maxBitRate);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescChannelId(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::channelId);
}
ACL_FUNC_VISIBILITY uint64_t
aclvencGetChannelDescThreadId(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::threadId);
}
ACL_FUNC_VISIBILITY aclvencCallback
aclvencGetChannelDescCallback(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::callback);
}
ACL_FUNC_VISIBILITY acldvppStreamFormat
aclvencGetChannelDescEnType(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::enType, H265_MAIN_LEVEL);
}
ACL_FUNC_VISIBILITY acldvppPixelFormat
aclvencGetChannelDescPicFormat(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::picFormat,
             PIXEL_FORMAT_YUV_SEMIPLANAR_420);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescPicWidth(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::picWidth);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescPicHeight(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::picHeight);
}
ACL_FUNC_VISIBILITY uint32_t
aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc *channelDesc) {
  return get(channelDesc, kVenc, &aclvencChannelDesc::keyFrameInterval);
}
ACL_FUNC_VISIBILITY aclvencFrameConfig *aclvencCreateFrameConfig(void) {
  return trackHandle(new aclvencFrameConfig, HandleKind::VencFrameConfig);
}
ACL_FUNC_VISIBILITY aclError
aclvencDestroyFrameConfig(aclvencFrameConfig *config) {
  return destroyOrNull("aclvencDestroyFrameConfig", config,
                       HandleKind::VencFrameConfig);
}
ACL_FUNC_VISIBILITY aclError aclvencSetFrameConfigForceIFrame(
    aclvencFrameConfig *config, uint8_t forceIFrame) {
  return set("aclvencSetFrameConfigForceIFrame", config,
             HandleKind::VencFrameConfig, &aclvencFrameConfig::forceIFrame,
             forceIFrame);
}
ACL_FUNC_VISIBILITY aclError
aclvencSetFrameConfigEos(aclvencFrameConfig *config, uint8_t eos) {
  return set("aclvencSetFrameConfigEos", config, HandleKind::VencFrameConfig,
             &aclvencFrameConfig::eos, eos);
}
ACL_FUNC_VISIBILITY uint8_t
aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig *config) {
  return get(config, HandleKind::VencFrameConfig,
             &aclvencFrameConfig::forceIFrame);
}
ACL_FUNC_VISIBILITY uint8_t
aclvencGetFrameConfigEos(const aclvencFrameConfig *config) {
  return get(config, HandleKind::VencFrameConfig, &aclvencFrameConfig::eos);
}

// Border configurations (acldvppVpcMakeBorderAsync's, which is a stand-in):
// host objects, as the real library's.
ACL_FUNC_VISIBILITY acldvppBorderConfig *acldvppCreateBorderConfig(void) {
  return trackHandle(new acldvppBorderConfig, HandleKind::BorderConfig);
}
ACL_FUNC_VISIBILITY aclError
acldvppDestroyBorderConfig(acldvppBorderConfig *borderConfig) {
  return destroyOrNull("acldvppDestroyBorderConfig", borderConfig,
                       HandleKind::BorderConfig);
}
ACL_FUNC_VISIBILITY aclError acldvppSetBorderConfigValue(
    acldvppBorderConfig *borderConfig, uint32_t index, double value) {
  if (index >= kDvppMaxComponents)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppSetBorderConfigValue",
                "index " + std::to_string(index) + " is not below 4");
  if (!Runtime::instance().isLive(borderConfig, HandleKind::BorderConfig))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppSetBorderConfigValue",
                hexAddress(borderConfig) + " does not exist or was destroyed");
  borderConfig->value[index] = value;
  return ACL_SUCCESS;
}
ACL_FUNC_VISIBILITY aclError acldvppSetBorderConfigBorderType(
    acldvppBorderConfig *borderConfig, acldvppBorderType borderType) {
  return set("acldvppSetBorderConfigBorderType", borderConfig,
             HandleKind::BorderConfig, &acldvppBorderConfig::borderType,
             borderType);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetBorderConfigTop(acldvppBorderConfig *borderConfig, uint32_t top) {
  return setBorderSide("acldvppSetBorderConfigTop", borderConfig,
                       &acldvppBorderConfig::top, top);
}
ACL_FUNC_VISIBILITY aclError acldvppSetBorderConfigBottom(
    acldvppBorderConfig *borderConfig, uint32_t bottom) {
  return setBorderSide("acldvppSetBorderConfigBottom", borderConfig,
                       &acldvppBorderConfig::bottom, bottom);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetBorderConfigLeft(acldvppBorderConfig *borderConfig, uint32_t left) {
  return setBorderSide("acldvppSetBorderConfigLeft", borderConfig,
                       &acldvppBorderConfig::left, left);
}
ACL_FUNC_VISIBILITY aclError
acldvppSetBorderConfigRight(acldvppBorderConfig *borderConfig, uint32_t right) {
  return setBorderSide("acldvppSetBorderConfigRight", borderConfig,
                       &acldvppBorderConfig::right, right);
}
ACL_FUNC_VISIBILITY double
acldvppGetBorderConfigValue(const acldvppBorderConfig *borderConfig,
                            uint32_t index) {
  // -1 (no valid value) for no configuration or an index past the array.
  if (index >= kDvppMaxComponents ||
      !Runtime::instance().isLive(borderConfig, HandleKind::BorderConfig))
    return -1;
  return borderConfig->value[index];
}
ACL_FUNC_VISIBILITY acldvppBorderType
acldvppGetBorderConfigBorderType(const acldvppBorderConfig *borderConfig) {
  return static_cast<acldvppBorderType>(
      get(borderConfig, HandleKind::BorderConfig,
          &acldvppBorderConfig::borderType, uint32_t(BORDER_CONSTANT)));
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetBorderConfigTop(const acldvppBorderConfig *borderConfig) {
  return get(borderConfig, HandleKind::BorderConfig, &acldvppBorderConfig::top);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetBorderConfigBottom(const acldvppBorderConfig *borderConfig) {
  return get(borderConfig, HandleKind::BorderConfig,
             &acldvppBorderConfig::bottom);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetBorderConfigLeft(const acldvppBorderConfig *borderConfig) {
  return get(borderConfig, HandleKind::BorderConfig,
             &acldvppBorderConfig::left);
}
ACL_FUNC_VISIBILITY uint32_t
acldvppGetBorderConfigRight(const acldvppBorderConfig *borderConfig) {
  return get(borderConfig, HandleKind::BorderConfig,
             &acldvppBorderConfig::right);
}

// LUT maps (acldvppVpcEqualizeHistAsync's, a stand-in): host objects of
// three 256-byte maps, as the real library's.
ACL_FUNC_VISIBILITY acldvppLutMap *acldvppCreateLutMap(void) {
  return trackHandle(new acldvppLutMap, HandleKind::LutMap);
}
ACL_FUNC_VISIBILITY aclError acldvppDestroyLutMap(acldvppLutMap *lutMap) {
  return destroyOrNull("acldvppDestroyLutMap", lutMap, HandleKind::LutMap);
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetLutMapDims(const acldvppLutMap *lutMap) {
  return get(lutMap, HandleKind::LutMap, &acldvppLutMap::dims);
}
ACL_FUNC_VISIBILITY aclError acldvppGetLutMapData(const acldvppLutMap *lutMap,
                                                  uint32_t dim, uint8_t **data,
                                                  uint32_t *len) {
  const char *api = "acldvppGetLutMapData";
  if (!Runtime::instance().isLive(lutMap, HandleKind::LutMap))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(lutMap) + " does not exist or was destroyed");
  if (dim >= lutMap->dims || !data || !len)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "dimension " + std::to_string(dim) +
                    " out of range, or a null output");
  uint32_t offset = 0;
  for (uint32_t i = 0; i < dim; ++i)
    offset += lutMap->lens[i];
  // The real library hands out its own buffer, which the caller fills.
  *data = const_cast<uint8_t *>(lutMap->map.data()) + offset;
  *len = lutMap->lens[dim];
  return ACL_SUCCESS;
}

// Histograms (acldvppVpcCalcHistAsync's, a stand-in): host counts for the
// accessors, and the device-side description and DVPP buffer the real
// library allocates with each, at the driver level.
ACL_FUNC_VISIBILITY acldvppHist *acldvppCreateHist(void) {
  const char *api = "acldvppCreateHist";
  void *descriptor = nullptr, *data = nullptr;
  if (allocateOnDevice(api, &descriptor, kHistDescriptorBytes,
                       kHistDescriptorBytes, MEM_DEV,
                       DVPP_MODULE_ID) != ACL_SUCCESS)
    return nullptr;
  if (allocateOnDevice(api, &data, kHistDataBytes, kHistDataBytes, MEM_DVPP,
                       DVPP_MODULE_ID) != ACL_SUCCESS) {
    halMemFree(descriptor);
    return nullptr;
  }
  auto *hist = new acldvppHist;
  hist->deviceDescriptor = descriptor;
  hist->deviceData = data;
  return trackHandle(hist, HandleKind::Hist);
}
ACL_FUNC_VISIBILITY aclError acldvppDestroyHist(acldvppHist *hist) {
  if (!hist)
    return ACL_SUCCESS; // as the real library: nothing to destroy
  if (!Runtime::instance().removeHandle(hist, HandleKind::Hist))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppDestroyHist",
                hexAddress(hist) + " does not exist or was destroyed");
  halMemFree(hist->deviceData);
  halMemFree(hist->deviceDescriptor);
  delete hist;
  return ACL_SUCCESS;
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetHistDims(acldvppHist *hist) {
  return get(hist, HandleKind::Hist, &acldvppHist::dims);
}
ACL_FUNC_VISIBILITY aclError acldvppGetHistData(acldvppHist *hist, uint32_t dim,
                                                uint32_t **data,
                                                uint16_t *len) {
  const char *api = "acldvppGetHistData";
  if (!Runtime::instance().isLive(hist, HandleKind::Hist))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(hist) + " does not exist or was destroyed");
  if (dim >= hist->dims || !data || !len)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "dimension " + std::to_string(dim) +
                    " out of range, or a null output");
  uint32_t offset = 0;
  for (uint32_t i = 0; i < dim; ++i)
    offset += hist->lens[i];
  *data = hist->bins.data() + offset;
  *len = static_cast<uint16_t>(hist->lens[dim]);
  return ACL_SUCCESS;
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetHistRetCode(acldvppHist *hist) {
  // What the real library answers for no histogram: ACL_ERROR_INVALID_PARAM.
  return get(hist, HandleKind::Hist, &acldvppHist::retCode,
             static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM));
}
ACL_FUNC_VISIBILITY aclError acldvppClearHist(acldvppHist *hist) {
  if (!Runtime::instance().isLive(hist, HandleKind::Hist))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppClearHist",
                hexAddress(hist) + " does not exist or was destroyed");
  std::fill(hist->bins.begin(), hist->bins.end(), 0u);
  return ACL_SUCCESS;
}

} // extern "C"
