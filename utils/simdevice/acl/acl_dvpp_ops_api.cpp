//===- acl_dvpp_ops_api.cpp - JPEG decoding and VPC resizing, cropping ----===//
//
// The DVPP operations a leak checker's users run most, on a created channel
// and queued on a stream, with the real library's checks: the images are in
// device memory (acldvppMalloc), YUV420SP (NV12 or NV21), strides aligned as
// the hardware wants them, output buffers large enough. JPEG decoding reads
// the picture's size from its header and fills the output with a
// deterministic gradient (the entropy-coded pixels are not decoded); resize,
// crop, crop-and-paste and their resize-config and batch forms are
// nearest-neighbour, on the actual pixels (a paste leaves the rest of the
// output as it was). PNG and JPEG encoding are in acl_dvpp_codec_api.cpp; the
// rest of DVPP's operations are stand-ins.
//
//===----------------------------------------------------------------------===//
#include "dvpp_objects.h"
#include "runtime.h"

#include <vector>

using namespace mssim;

namespace mssim {

bool isYuv420sp(acldvppPixelFormat format) {
  return format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
         format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

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

aclError describeDecoded(const char *api, acldvppPicDesc *out, uint32_t width,
                         uint32_t height, uint32_t widthStride,
                         uint32_t heightStride, uint64_t bytes,
                         const char *predict) {
  if (bytes > out->size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output buffer holds " + std::to_string(out->size) +
                    " bytes; the picture needs " + std::to_string(bytes) +
                    " (" + predict + ")");
  out->width = width;
  out->height = height;
  out->widthStride = widthStride;
  out->heightStride = heightStride;
  out->retCode = 0;
  return ACL_SUCCESS;
}

/// Nearest-neighbour copy of `from` (a region of `in`) onto `to` (a region
/// of `out`); the rest of `out` is left as it is.
static void resample(const acldvppPicDesc &inDesc,
                     const std::vector<uint8_t> &in, const PictureRegion &from,
                     const acldvppPicDesc &outDesc, std::vector<uint8_t> &out,
                     const PictureRegion &to) {
  const uint8_t *inUv =
      in.data() + size_t(inDesc.widthStride) * inDesc.heightStride;
  uint8_t *outUv =
      out.data() + size_t(outDesc.widthStride) * outDesc.heightStride;
  for (uint32_t dy = 0; dy < to.height(); ++dy) {
    uint32_t y = to.top + dy, sy = from.top + dy * from.height() / to.height();
    for (uint32_t dx = 0; dx < to.width(); ++dx) {
      uint32_t x = to.left + dx,
               sx = from.left + dx * from.width() / to.width();
      out[size_t(y) * outDesc.widthStride + x] =
          in[size_t(sy) * inDesc.widthStride + sx];
      if (y % 2 == 0 && x % 2 == 0) { // one UV pair per 2 x 2 pixels
        size_t at = size_t(y / 2) * outDesc.widthStride + x;
        size_t src = size_t(sy / 2) * inDesc.widthStride + (sx & ~1u);
        outUv[at] = inUv[src];
        if (x + 1 < outDesc.widthStride)
          outUv[at + 1] = inUv[src + 1];
      }
    }
  }
}

bool resamplePicture(const acldvppPicDesc &in, const PictureRegion &from,
                     const acldvppPicDesc &out, const PictureRegion &to) {
  std::vector<uint8_t> pixels, result;
  size_t inBytes = size_t(in.widthStride) * in.heightStride * 3 / 2;
  size_t outBytes = size_t(out.widthStride) * out.heightStride * 3 / 2;
  if (!readDevice(in.data, inBytes, &pixels) ||
      !readDevice(out.data, outBytes, &result))
    return false;
  resample(in, pixels, from, out, result, to);
  return writeDevice(out.data, result);
}

PictureRegion wholeOf(const acldvppPicDesc &pic) {
  return {0, pic.width ? pic.width - 1 : 0, 0, pic.height ? pic.height - 1 : 0};
}

bool inside(const PictureRegion &region, const acldvppPicDesc &pic) {
  return region.left <= region.right && region.top <= region.bottom &&
         region.right < pic.width && region.bottom < pic.height;
}

} // namespace mssim

namespace {

/// Crops `from` out of `input` and resizes it onto `to` of `output` (null:
/// the whole output): checks, then queues the resampling on `stream`.
aclError vpc(const char *api, acldvppChannelDesc *channel,
             acldvppPicDesc *input, acldvppPicDesc *output,
             const PictureRegion *from, const PictureRegion *to,
             aclrtStream stream) {
  if (aclError error = checkChannel(api, channel, DVPP_CHNMODE_VPC))
    return error;
  if (aclError error = checkPicture(api, input, "input"))
    return error;
  if (aclError error = checkPicture(api, output, "output"))
    return error;
  PictureRegion source = from ? *from : wholeOf(*input);
  PictureRegion target = to ? *to : wholeOf(*output);
  if (!inside(source, *input))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the crop area is not inside the input picture");
  if (!inside(target, *output))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the paste area is not inside the output picture");
  acldvppPicDesc in = *input, out = *output; // as they are when queued
  return enqueueTask(api, stream, [=] {
    return resamplePicture(in, source, out, target)
               ? ACL_SUCCESS
               : ACL_ERROR_RT_PARAM_INVALID;
  });
}

/// The region a live ROI config names; else null with the error recorded.
const acldvppRoiConfig *liveRoi(const char *api, const acldvppRoiConfig *roi,
                                const char *which) {
  if (Runtime::instance().isLive(roi, HandleKind::RoiConfig))
    return roi;
  fail(ACL_ERROR_INVALID_PARAM, api, std::string("unknown ") + which);
  return nullptr;
}

bool validResize(const char *api, const acldvppResizeConfig *config) {
  if (Runtime::instance().isLive(config, HandleKind::ResizeConfig))
    return true;
  fail(ACL_ERROR_INVALID_PARAM, api, "unknown resize configuration");
  return false;
}

/// Crops `cropArea` of `input` onto `output`, or onto its `pasteArea`
/// (null: the whole output).
aclError crop(const char *api, acldvppChannelDesc *channel,
              acldvppPicDesc *input, acldvppPicDesc *output,
              const acldvppRoiConfig *cropArea,
              const acldvppRoiConfig *pasteArea, aclrtStream stream) {
  if (!liveRoi(api, cropArea, "crop area"))
    return lastError(/*clear=*/false);
  PictureRegion from{cropArea->left, cropArea->right, cropArea->top,
                     cropArea->bottom};
  if (!pasteArea)
    return vpc(api, channel, input, output, &from, nullptr, stream);
  PictureRegion to{pasteArea->left, pasteArea->right, pasteArea->top,
                   pasteArea->bottom};
  return vpc(api, channel, input, output, &from, &to, stream);
}

/// The batch operations: `size` source pictures, roiNums[i] areas of source
/// i, each onto the next destination picture (and its paste area).
aclError batch(const char *api, acldvppChannelDesc *channel,
               acldvppBatchPicDesc *sources, const uint32_t *roiNums,
               uint32_t size, acldvppBatchPicDesc *destinations,
               acldvppRoiConfig *const cropAreas[],
               acldvppRoiConfig *const pasteAreas[], aclrtStream stream) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(sources, HandleKind::BatchPicDesc) ||
      !rt.isLive(destinations, HandleKind::BatchPicDesc) || !roiNums ||
      !cropAreas || size == 0 || size > sources->pictures.size())
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown batch descriptions, or no areas, or more sources "
                "than the batch holds");
  uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i)
    total += roiNums[i];
  if (total == 0 || total > destinations->pictures.size())
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the areas (" + std::to_string(total) +
                    ") do not fit the destination batch (" +
                    std::to_string(destinations->pictures.size()) + ")");
  size_t next = 0;
  for (uint32_t i = 0; i < size; ++i)
    for (uint32_t k = 0; k < roiNums[i]; ++k, ++next) {
      const acldvppRoiConfig *crop = liveRoi(api, cropAreas[next], "crop area");
      const acldvppRoiConfig *paste =
          pasteAreas ? liveRoi(api, pasteAreas[next], "paste area") : nullptr;
      if (!crop || (pasteAreas && !paste))
        return lastError(/*clear=*/false);
      PictureRegion from{crop->left, crop->right, crop->top, crop->bottom};
      PictureRegion to = paste ? PictureRegion{paste->left, paste->right,
                                               paste->top, paste->bottom}
                               : PictureRegion{0, 0, 0, 0};
      if (aclError error = vpc(api, channel, sources->pictures[i],
                               destinations->pictures[next], &from,
                               paste ? &to : nullptr, stream))
        return error;
    }
  return ACL_SUCCESS;
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
  if (aclError error =
          describeDecoded(api, outputDesc, width, height, widthStride,
                          heightStride, bytes, "acldvppJpegPredictDecSize"))
    return error;
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
  const char *api = "acldvppVpcResizeAsync";
  if (!validResize(api, resizeConfig))
    return lastError(/*clear=*/false);
  return vpc(api, channelDesc, inputDesc, outputDesc, nullptr, nullptr, stream);
}

ACL_FUNC_VISIBILITY aclError
acldvppVpcCropAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                    acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                    aclrtStream stream) {
  return crop("acldvppVpcCropAsync", channelDesc, inputDesc, outputDesc,
              cropArea, nullptr, stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizeAsync(
    acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
    acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
    acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  const char *api = "acldvppVpcCropResizeAsync";
  if (!validResize(api, resizeConfig))
    return lastError(/*clear=*/false);
  return crop(api, channelDesc, inputDesc, outputDesc, cropArea, nullptr,
              stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropAndPasteAsync(
    acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
    acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
    acldvppRoiConfig *pasteArea, aclrtStream stream) {
  const char *api = "acldvppVpcCropAndPasteAsync";
  if (!liveRoi(api, pasteArea, "paste area"))
    return lastError(/*clear=*/false);
  return crop(api, channelDesc, inputDesc, outputDesc, cropArea, pasteArea,
              stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizePasteAsync(
    acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
    acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
    acldvppRoiConfig *pasteArea, acldvppResizeConfig *resizeConfig,
    aclrtStream stream) {
  const char *api = "acldvppVpcCropResizePasteAsync";
  if (!validResize(api, resizeConfig) || !liveRoi(api, pasteArea, "paste area"))
    return lastError(/*clear=*/false);
  return crop(api, channelDesc, inputDesc, outputDesc, cropArea, pasteArea,
              stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAsync(
    acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
    uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
    acldvppRoiConfig *cropAreas[], aclrtStream stream) {
  return batch("acldvppVpcBatchCropAsync", channelDesc, srcBatchPicDescs,
               roiNums, size, dstBatchPicDescs, cropAreas, nullptr, stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizeAsync(
    acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
    uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
    acldvppRoiConfig *cropAreas[], acldvppResizeConfig *resizeConfig,
    aclrtStream stream) {
  const char *api = "acldvppVpcBatchCropResizeAsync";
  if (!validResize(api, resizeConfig))
    return lastError(/*clear=*/false);
  return batch(api, channelDesc, srcBatchPicDescs, roiNums, size,
               dstBatchPicDescs, cropAreas, nullptr, stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAndPasteAsync(
    acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
    uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
    acldvppRoiConfig *cropAreas[], acldvppRoiConfig *pasteAreas[],
    aclrtStream stream) {
  const char *api = "acldvppVpcBatchCropAndPasteAsync";
  if (!pasteAreas)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null paste areas");
  return batch(api, channelDesc, srcBatchPicDescs, roiNums, size,
               dstBatchPicDescs, cropAreas, pasteAreas, stream);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizePasteAsync(
    acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
    uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
    acldvppRoiConfig *cropAreas[], acldvppRoiConfig *pasteAreas[],
    acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  const char *api = "acldvppVpcBatchCropResizePasteAsync";
  if (!validResize(api, resizeConfig))
    return lastError(/*clear=*/false);
  if (!pasteAreas)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null paste areas");
  return batch(api, channelDesc, srcBatchPicDescs, roiNums, size,
               dstBatchPicDescs, cropAreas, pasteAreas, stream);
}

} // extern "C"
