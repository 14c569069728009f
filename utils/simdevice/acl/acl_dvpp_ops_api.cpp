//===- acl_dvpp_ops_api.cpp - JPEG decoding and VPC resizing, cropping ----===//
//
// The DVPP operations a leak checker's users run most, on a created channel
// and queued on a stream, with the real library's checks: the images are in
// device memory (acldvppMalloc), YUV420SP (NV12 or NV21), strides aligned as
// the hardware wants them, output buffers large enough. JPEG decoding reads
// the picture's size from its header and fills the output with a
// deterministic gradient (the entropy-coded pixels are not decoded); resizing
// and cropping are nearest-neighbour, on the actual pixels. The rest of
// DVPP's operations are stand-ins.
//
//===----------------------------------------------------------------------===//
#include "dvpp_objects.h"
#include "runtime.h"

#include <vector>

using namespace mssim;

namespace {

bool isYuv420sp(acldvppPixelFormat format) {
  return format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
         format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

/// The channel, created (acldvppCreateChannel) and live; else an error.
aclError checkChannel(const char *api, const acldvppChannelDesc *channel,
                      uint32_t mode) {
  if (!Runtime::instance().isLive(channel, HandleKind::ChannelDesc) ||
      !channel->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the channel description is unknown or its channel was not "
                "created");
  if (!(channel->mode & mode))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the channel's mode does not include this operation");
  return ACL_SUCCESS;
}

/// A YUV420SP picture description the hardware takes: live, in device
/// memory, strides aligned (width to 16, height to 2), the picture inside
/// them and the buffer holding them.
aclError checkPicture(const char *api, const acldvppPicDesc *pic,
                      const char *which) {
  std::string what = std::string(which) + " picture";
  if (!Runtime::instance().isLive(pic, HandleKind::PicDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the " + what + " description is unknown");
  if (!isYuv420sp(pic->format))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the " + what + " is not YUV420SP (format " +
                    std::to_string(pic->format) + ")");
  if (!inDeviceMemory(pic->data))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the " + what + "'s data is not device memory");
  if (pic->width == 0 || pic->height == 0 || pic->widthStride % 16 ||
      pic->heightStride % 2 || pic->width > pic->widthStride ||
      pic->height > pic->heightStride)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the " + what + "'s size or strides are not valid (width " +
                    "stride a multiple of 16, height stride of 2)");
  if (uint64_t(pic->widthStride) * pic->heightStride * 3 / 2 > pic->size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the " + what + "'s buffer is smaller than its strides");
  return ACL_SUCCESS;
}

bool readDevice(const void *from, size_t bytes, std::vector<uint8_t> *out) {
  out->resize(bytes);
  return drvMemcpy(reinterpret_cast<DVdeviceptr>(out->data()), bytes,
                   reinterpret_cast<DVdeviceptr>(from), bytes) == 0;
}

bool writeDevice(void *to, const std::vector<uint8_t> &bytes) {
  return drvMemcpy(reinterpret_cast<DVdeviceptr>(to), bytes.size(),
                   reinterpret_cast<DVdeviceptr>(bytes.data()),
                   bytes.size()) == 0;
}

/// Nearest-neighbour copy of the region [left, right] x [top, bottom] of
/// `in` (inclusive, as the real ROI) onto the whole of `out`.
void resample(const acldvppPicDesc &inDesc, const std::vector<uint8_t> &in,
              const acldvppPicDesc &outDesc, std::vector<uint8_t> &out,
              uint32_t left, uint32_t right, uint32_t top, uint32_t bottom) {
  uint32_t srcW = right - left + 1, srcH = bottom - top + 1;
  const uint8_t *inUv =
      in.data() + size_t(inDesc.widthStride) * inDesc.heightStride;
  uint8_t *outUv =
      out.data() + size_t(outDesc.widthStride) * outDesc.heightStride;
  for (uint32_t y = 0; y < outDesc.height; ++y) {
    uint32_t sy = top + y * srcH / outDesc.height;
    for (uint32_t x = 0; x < outDesc.width; ++x) {
      uint32_t sx = left + x * srcW / outDesc.width;
      out[size_t(y) * outDesc.widthStride + x] =
          in[size_t(sy) * inDesc.widthStride + sx];
      if (y % 2 == 0 && x % 2 == 0) { // one UV pair per 2 x 2 pixels
        size_t to = size_t(y / 2) * outDesc.widthStride + x;
        size_t from = size_t(sy / 2) * inDesc.widthStride + (sx & ~1u);
        outUv[to] = inUv[from];
        if (x + 1 < outDesc.widthStride)
          outUv[to + 1] = inUv[from + 1];
      }
    }
  }
}

/// Resizes or crops: checks, then queues the resampling on `stream`.
aclError vpc(const char *api, acldvppChannelDesc *channel,
             acldvppPicDesc *input, acldvppPicDesc *output, uint32_t left,
             uint32_t right, uint32_t top, uint32_t bottom,
             aclrtStream stream) {
  if (aclError error = checkChannel(api, channel, DVPP_CHNMODE_VPC))
    return error;
  if (aclError error = checkPicture(api, input, "input"))
    return error;
  if (aclError error = checkPicture(api, output, "output"))
    return error;
  if (left > right || top > bottom || right >= input->width ||
      bottom >= input->height)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the region is not inside the input picture");
  acldvppPicDesc in = *input, out = *output; // as they are when queued
  return enqueueTask(api, stream, [=] {
    std::vector<uint8_t> source, target;
    size_t inBytes = size_t(in.widthStride) * in.heightStride * 3 / 2;
    size_t outBytes = size_t(out.widthStride) * out.heightStride * 3 / 2;
    if (!readDevice(in.data, inBytes, &source) ||
        !readDevice(out.data, outBytes, &target))
      return ACL_ERROR_RT_PARAM_INVALID;
    resample(in, source, out, target, left, right, top, bottom);
    return writeDevice(out.data, target) ? ACL_SUCCESS
                                         : ACL_ERROR_RT_PARAM_INVALID;
  });
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError acldvppJpegDecodeAsync(
    acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
    acldvppPicDesc *outputDesc, aclrtStream stream) {
  const char *api = "acldvppJpegDecodeAsync";
  if (aclError error = checkChannel(api, channelDesc, DVPP_CHNMODE_JPEGD))
    return error;
  if (!inDeviceMemory(data) || size == 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the JPEG data is not in device memory");
  std::vector<uint8_t> jpeg;
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  if (!readDevice(data, size, &jpeg) ||
      !jpegFrame(jpeg.data(), size, &width, &height, &components))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the data is not a JPEG with a frame header");
  if (!Runtime::instance().isLive(outputDesc, HandleKind::PicDesc) ||
      !isYuv420sp(outputDesc->format) || !inDeviceMemory(outputDesc->data))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output description is unknown, not YUV420SP, or its "
                "data is not device memory");
  // The decoder's layout: width aligned to 128, height to 16.
  uint32_t widthStride = alignUp(width, 128),
           heightStride = alignUp(height, 16);
  uint64_t bytes = uint64_t(widthStride) * heightStride * 3 / 2;
  if (bytes > outputDesc->size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output buffer holds " + std::to_string(outputDesc->size) +
                    " bytes; the picture needs " + std::to_string(bytes) +
                    " (acldvppJpegPredictDecSize)");
  outputDesc->width = width;
  outputDesc->height = height;
  outputDesc->widthStride = widthStride;
  outputDesc->heightStride = heightStride;
  outputDesc->retCode = 0;
  void *out = outputDesc->data;
  return enqueueTask(api, stream, [=] {
    // A gradient: luma across, chroma neutral.
    std::vector<uint8_t> picture(bytes, 0x80);
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x < width; ++x)
        picture[size_t(y) * widthStride + x] =
            static_cast<uint8_t>((x + y) * 255 / (width + height));
    return writeDevice(out, picture) ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
  });
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
acldvppVpcResizeAsync(acldvppChannelDesc *channelDesc,
                      acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                      acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  if (!Runtime::instance().isLive(resizeConfig, HandleKind::ResizeConfig))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcResizeAsync",
                "unknown resize configuration");
  if (!Runtime::instance().isLive(inputDesc, HandleKind::PicDesc))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcResizeAsync",
                "the input picture description is unknown");
  return vpc("acldvppVpcResizeAsync", channelDesc, inputDesc, outputDesc, 0,
             inputDesc->width ? inputDesc->width - 1 : 0, 0,
             inputDesc->height ? inputDesc->height - 1 : 0, stream);
}

ACL_FUNC_VISIBILITY aclError
acldvppVpcCropAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                    acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                    aclrtStream stream) {
  if (!Runtime::instance().isLive(cropArea, HandleKind::RoiConfig))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcCropAsync",
                "unknown crop area");
  return vpc("acldvppVpcCropAsync", channelDesc, inputDesc, outputDesc,
             cropArea->left, cropArea->right, cropArea->top, cropArea->bottom,
             stream);
}

} // extern "C"
