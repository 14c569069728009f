//===- acl_dvpp_codec_api.cpp - JPEG encoding, PNG decoding, JPEG info v2 -===//
//
// The codec calls beyond JPEG decoding, with the real library's checks and
// sizes: acldvppJpegPredictEncSize (the picture's bytes plus the encoder's
// header and alignment, rounded up to 2 MiB), acldvppJpegEncodeAsync (a
// YUV420SP or packed YUV422 picture in device memory; the output is a
// well-formed JPEG header naming the picture's size, which
// acldvppJpegGetImageInfo reads back, not entropy-coded pixels; *size is
// set when the stream reaches the task), acldvppPngGetImageInfo and
// acldvppPngPredictDecSize (from the IHDR chunk) and acldvppPngDecodeAsync
// (RGB888 output filled with a gradient).
//
//===----------------------------------------------------------------------===//
#include "dvpp_objects.h"
#include "runtime.h"

#include <cstring>
#include <iterator>
#include <vector>

using namespace mssim;

namespace mssim {

/// A baseline JPEG naming the picture's size: SOI, a frame header of three
/// components subsampled 4:2:0, EOI.
std::vector<uint8_t> jpegHeader(uint32_t width, uint32_t height) {
  std::vector<uint8_t> jpeg = {0xFF, 0xD8,             // SOI
                               0xFF, 0xC0, 0x00, 0x11, // SOF0, 17 bytes
                               0x08};                  // 8-bit samples
  for (uint32_t side : {height, width}) {
    jpeg.push_back(uint8_t(side >> 8));
    jpeg.push_back(uint8_t(side));
  }
  const uint8_t components[] = {3,    1,    0x22, 0, // Y, 2 x 2
                                2,    0x11, 1,       // Cb, 1 x 1
                                3,    0x11, 1,       // Cr, 1 x 1
                                0xFF, 0xD9};         // EOI
  jpeg.insert(jpeg.end(), std::begin(components), std::end(components));
  return jpeg;
}

uint32_t bigEndian(const uint8_t *at) {
  return uint32_t(at[0]) << 24 | uint32_t(at[1]) << 16 | uint32_t(at[2]) << 8 |
         at[3];
}

/// What a PNG's IHDR says; ACL_ERROR_INVALID_PARAM if `data` is no PNG,
/// ACL_ERROR_FORMAT_NOT_MATCH for a colour type the decoder lacks.
aclError pngHeader(const char *api, const void *data, uint32_t size,
                   uint32_t *width, uint32_t *height, int32_t *components,
                   uint32_t *bitDepth) {
  static const uint8_t signature[8] = {0x89, 'P',  'N',  'G',
                                       0x0D, 0x0A, 0x1A, 0x0A};
  const uint8_t *png = static_cast<const uint8_t *>(data);
  if (!png || size <= 29 || memcmp(png, signature, sizeof signature) != 0)
    return fail(ACL_ERROR_INVALID_PARAM, api, "the data is not a PNG");
  *width = bigEndian(png + 16);
  *height = bigEndian(png + 20);
  *bitDepth = png[24];
  switch (png[25]) {
  case 0:
    *components = 1;
    break;
  case 4:
    *components = 2;
    break;
  case 2:
    *components = 3;
    break;
  case 6:
    *components = 4;
    break;
  default:
    return fail(ACL_ERROR_FORMAT_NOT_MATCH, api,
                "PNG colour type " + std::to_string(png[25]) +
                    " is not decoded (only 0, 2, 4, 6)");
  }
  return ACL_SUCCESS;
}

} // namespace mssim

namespace {

// The encoder's and decoders' limits (pixels).
constexpr uint32_t MinSide = 32;
constexpr uint32_t MaxJpegSide = 8192;
constexpr uint32_t MaxPngSide = 4096;
constexpr uint64_t MaxPngOutput = 4096ull * 4096 * 4 * 2;

bool isPacked422(acldvppPixelFormat format) {
  return format == PIXEL_FORMAT_YUYV_PACKED_422 ||
         format == PIXEL_FORMAT_UYVY_PACKED_422 ||
         format == PIXEL_FORMAT_YVYU_PACKED_422 ||
         format == PIXEL_FORMAT_VYUY_PACKED_422;
}

/// The bytes of a picture of `format` with these strides (widthStride in
/// bytes for packed formats, as the real descriptions have it).
uint64_t pictureBytes(acldvppPixelFormat format, uint32_t widthStride,
                      uint32_t heightStride) {
  uint64_t plane = uint64_t(widthStride) * heightStride;
  return isPacked422(format) ? plane : plane * 3 / 2;
}

/// The checks acldvppJpegPredictEncSize and acldvppJpegEncodeAsync share.
aclError checkEncoderInput(const char *api, const acldvppPicDesc *pic) {
  if (!Runtime::instance().isLive(pic, HandleKind::PicDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the input picture description is unknown");
  if (pic->width < MinSide || pic->width > MaxJpegSide ||
      pic->height < MinSide || pic->height > MaxJpegSide)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the picture must be 32 to 8192 pixels each way");
  if (!isYuv420sp(pic->format) && !isPacked422(pic->format))
    return fail(ACL_ERROR_FORMAT_NOT_MATCH, api,
                "the encoder takes YUV420SP or packed YUV422, not format " +
                    std::to_string(pic->format));
  bool widthOk =
      isPacked422(pic->format)
          ? pic->widthStride == alignUp(pic->width * 2, 16)
          : pic->widthStride >= pic->width && pic->widthStride % 16 == 0;
  bool heightOk =
      pic->heightStride == pic->height ||
      (pic->heightStride > pic->height && pic->heightStride % 16 == 0);
  if (!widthOk || !heightOk)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the strides are not the encoder's (width stride aligned "
                "to 16, height stride the height or aligned to 16)");
  return ACL_SUCCESS;
}

/// The decoder's output for a PNG: row bytes and rows, as PredictDecSize
/// counts them (width aligned to 128, height to 16).
aclError pngOutput(const char *api, const void *data, uint32_t size,
                   acldvppPixelFormat format, uint32_t *width, uint32_t *height,
                   uint32_t *rowBytes, uint32_t *rows) {
  if (format != PIXEL_FORMAT_RGB_888 && format != PIXEL_FORMAT_RGBA_8888 &&
      format != PIXEL_FORMAT_UNKNOWN)
    return fail(ACL_ERROR_FORMAT_NOT_MATCH, api,
                "PNG decoding outputs RGB_888, RGBA_8888 or UNKNOWN, not " +
                    std::to_string(format));
  int32_t components = 0;
  uint32_t bitDepth = 0;
  if (aclError error =
          pngHeader(api, data, size, width, height, &components, &bitDepth))
    return error;
  if (*width < MinSide || *width > MaxPngSide || *height < MinSide ||
      *height > MaxPngSide)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the PNG must be 32 to 4096 pixels each way");
  uint32_t channels = format == PIXEL_FORMAT_RGB_888 ? 3 : 4;
  *rowBytes = (alignUp(*width, 128) * bitDepth * channels + 7) / 8;
  *rows = alignUp(*height, 16);
  if (uint64_t(*rowBytes) * *rows > MaxPngOutput)
    return fail(ACL_ERROR_INVALID_PARAM, api, "the output would be too big");
  return ACL_SUCCESS;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfoV2(
    const void *data, uint32_t size, uint32_t *width, uint32_t *height,
    int32_t *components, acldvppJpegFormat *format) {
  uint32_t w = 0, h = 0;
  int32_t c = 0;
  acldvppJpegFormat subsampling = ACL_JPEG_CSS_UNKNOWN;
  if (!data)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegGetImageInfoV2",
                "null data");
  if (!jpegFrame(static_cast<const uint8_t *>(data), size, &w, &h, &c,
                 &subsampling))
    return fail(ACL_ERROR_FAILURE, "acldvppJpegGetImageInfoV2",
                "the data is not a JPEG with a frame header");
  if (width)
    *width = w;
  if (height)
    *height = h;
  if (components)
    *components = c;
  if (format)
    *format = subsampling;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
acldvppJpegPredictEncSize(const acldvppPicDesc *inputDesc,
                          const acldvppJpegeConfig *config, uint32_t *size) {
  const char *api = "acldvppJpegPredictEncSize";
  if (!Runtime::instance().isLive(config, HandleKind::JpegeConfig) || !size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown encoder configuration or null size");
  if (aclError error = checkEncoderInput(api, inputDesc))
    return error;
  constexpr uint64_t header = 640, startAlign = 128, granule = 2u << 20;
  uint64_t bytes = pictureBytes(inputDesc->format, inputDesc->widthStride,
                                inputDesc->heightStride) +
                   header + startAlign;
  *size = static_cast<uint32_t>((bytes + granule - 1) / granule * granule);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppJpegEncodeAsync(
    acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
    const void *data, uint32_t *size, acldvppJpegeConfig *config,
    aclrtStream stream) {
  const char *api = "acldvppJpegEncodeAsync";
  if (aclError error = checkChannel(api, channelDesc, DVPP_CHNMODE_JPEGE))
    return error;
  if (!Runtime::instance().isLive(config, HandleKind::JpegeConfig) || !size ||
      *size == 0 || !inDeviceMemory(data))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown configuration, no output size, or output not in "
                "device memory");
  if (aclError error = checkEncoderInput(api, inputDesc))
    return error;
  if (!inDeviceMemory(inputDesc->data) ||
      pictureBytes(inputDesc->format, inputDesc->widthStride,
                   inputDesc->heightStride) > inputDesc->size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the input picture is not in device memory or its buffer is "
                "smaller than its strides");
  std::vector<uint8_t> jpeg = jpegHeader(inputDesc->width, inputDesc->height);
  if (jpeg.size() > *size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output buffer is too small (acldvppJpegPredictEncSize)");
  void *out = const_cast<void *>(data);
  return enqueueTask(api, stream, [=] {
    if (!writeDevice(out, jpeg))
      return ACL_ERROR_RT_PARAM_INVALID;
    *size = static_cast<uint32_t>(jpeg.size());
    return ACL_SUCCESS;
  });
}

ACL_FUNC_VISIBILITY aclError acldvppPngGetImageInfo(const void *data,
                                                    uint32_t dataSize,
                                                    uint32_t *width,
                                                    uint32_t *height,
                                                    int32_t *components) {
  if (!width || !height || !components)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppPngGetImageInfo",
                "a null argument");
  uint32_t bitDepth = 0;
  return pngHeader("acldvppPngGetImageInfo", data, dataSize, width, height,
                   components, &bitDepth);
}

ACL_FUNC_VISIBILITY aclError acldvppPngPredictDecSize(
    const void *data, uint32_t dataSize, acldvppPixelFormat outputPixelFormat,
    uint32_t *decSize) {
  if (!decSize)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppPngPredictDecSize",
                "null size");
  uint32_t width, height, rowBytes, rows;
  if (aclError error =
          pngOutput("acldvppPngPredictDecSize", data, dataSize,
                    outputPixelFormat, &width, &height, &rowBytes, &rows))
    return error;
  *decSize = rowBytes * rows;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppPngDecodeAsync(
    acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
    acldvppPicDesc *outputDesc, aclrtStream stream) {
  const char *api = "acldvppPngDecodeAsync";
  // Any created channel: the mode does not restrict PNG decoding.
  if (aclError error = checkChannel(api, channelDesc,
                                    DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD |
                                        DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD))
    return error;
  if (!inDeviceMemory(data) || size == 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the PNG data is not in device memory");
  if (!Runtime::instance().isLive(outputDesc, HandleKind::PicDesc) ||
      !inDeviceMemory(outputDesc->data))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output description is unknown or its data is not "
                "device memory");
  if (outputDesc->format != PIXEL_FORMAT_RGB_888 &&
      outputDesc->format != PIXEL_FORMAT_UNKNOWN)
    return fail(ACL_ERROR_FORMAT_NOT_MATCH, api,
                "PNG decoding outputs RGB_888 (or UNKNOWN)");
  std::vector<uint8_t> png;
  uint32_t width, height, rowBytes, rows;
  if (!readDevice(data, size, &png))
    return fail(ACL_ERROR_INVALID_PARAM, api, "cannot read the PNG data");
  if (aclError error = pngOutput(api, png.data(), size, PIXEL_FORMAT_RGB_888,
                                 &width, &height, &rowBytes, &rows))
    return error;
  uint64_t bytes = uint64_t(rowBytes) * rows;
  if (aclError error = describeDecoded(api, outputDesc, width, height, rowBytes,
                                       rows, bytes, "acldvppPngPredictDecSize"))
    return error;
  outputDesc->format = PIXEL_FORMAT_RGB_888;
  void *out = outputDesc->data;
  return enqueueTask(api, stream, [=] {
    std::vector<uint8_t> picture(bytes, 0);
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x < width; ++x)
        for (uint32_t c = 0; c < 3; ++c)
          picture[size_t(y) * rowBytes + x * 3 + c] =
              static_cast<uint8_t>((x * (c + 1) + y) * 255 / (width + height));
    return writeDevice(out, picture) ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
  });
}

} // extern "C"
