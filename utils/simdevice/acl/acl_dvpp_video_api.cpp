//===- acl_dvpp_video_api.cpp - VDEC and VENC channels --------------------===//
//
// Video decoding and encoding channels as the real library runs them: a
// channel has device memory of its own (DVPP memory, at the driver level)
// and streams of its own (a decoder two: one frames are sent on, one whose
// callbacks go to the thread the channel description names, bound with the
// runtime's subscription as aclrtSubscribeReport binds; an encoder one).
// Each frame sent is "coded" on the stream -- a decoder fills its output
// picture with a gradient, an encoder writes an Annex B access unit of its
// own into the channel's output buffer -- and then the channel's callback
// runs on the application's thread, inside its aclrtProcessReport, with the
// frame's descriptions and user data; the stream waits for it, so
// destroying the channel returns once every callback has run. The streams
// are made through the runtime, not through aclrtCreateStream, so an
// application's interposers do not see them, as on the real stack.
//
//===----------------------------------------------------------------------===//
#include "dvpp_objects.h"
#include "runtime.h"

#include <vector>

using namespace mssim;

namespace {

constexpr uint64_t kVencOutputBytes = 2ULL << 20;

/// DVPP memory of the current device for a channel (module DVPP).
aclError channelMemory(const char *api, uint64_t bytes, void **memory) {
  return allocateOnDevice(api, memory, bytes, bytes, MEM_DVPP, DVPP_MODULE_ID);
}

/// A stream of the channel's, bound to `thread` for its callbacks.
aclError callbackStream(const char *api, uint64_t thread, aclrtStream *stream) {
  if (aclError error = createStreamFor(api, stream))
    return error;
  if (aclError error = bindCallbackThread(api, thread, *stream, true)) {
    destroyStreamFor(api, *stream);
    *stream = nullptr;
    return error;
  }
  return ACL_SUCCESS;
}

/// Waits for `stream`'s callbacks, unbinds and destroys it.
void endCallbackStream(const char *api, uint64_t thread, aclrtStream stream) {
  aclrtSynchronizeStream(stream);
  bindCallbackThread(api, thread, stream, false);
  destroyStreamFor(api, stream);
}

/// The decoder's output layout: width stride aligned to 16, height to 2.
uint64_t decodedBytes(uint32_t width, uint32_t height) {
  return uint64_t(alignUp(width, 16)) * alignUp(height, 2) * 3 / 2;
}

aclError checkVdecFrame(const char *api, const aclvdecChannelDesc *channel,
                        const acldvppStreamDesc *input,
                        const acldvppPicDesc *output, bool skipped) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(channel, HandleKind::VdecChannelDesc) ||
      !channel->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the channel description is unknown or its channel was not "
                "created");
  if (!rt.isLive(input, HandleKind::StreamDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the input stream description is unknown");
  if (input->eos)
    return skipped ? fail(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                          "an end-of-stream frame cannot be skipped")
                   : ACL_SUCCESS;
  if (!inDeviceMemory(input->data) || input->size == 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the stream's data is not in device memory or is empty");
  if (skipped)
    return ACL_SUCCESS;
  if (!rt.isLive(output, HandleKind::PicDesc) ||
      !inDeviceMemory(output->data) || !isYuv420sp(output->format))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output picture is unknown, not YUV420SP or not in "
                "device memory");
  uint32_t width = channel->outPicWidth ? channel->outPicWidth : output->width;
  uint32_t height =
      channel->outPicHeight ? channel->outPicHeight : output->height;
  if (width == 0 || height == 0 || decodedBytes(width, height) > output->size)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the output picture has no size or its buffer is smaller "
                "than the decoded picture");
  return ACL_SUCCESS;
}

/// Decodes (or skips) one frame and queues its callback.
aclError sendVdecFrame(const char *api, aclvdecChannelDesc *channel,
                       acldvppStreamDesc *input, acldvppPicDesc *output,
                       void *userData, bool skipped) {
  if (aclError error = checkVdecFrame(api, channel, input, output, skipped))
    return error;
  if (!input->eos && !skipped) {
    uint32_t width =
        channel->outPicWidth ? channel->outPicWidth : output->width;
    uint32_t height =
        channel->outPicHeight ? channel->outPicHeight : output->height;
    uint32_t widthStride = alignUp(width, 16),
             heightStride = alignUp(height, 2);
    void *out = output->data;
    uint64_t bytes = decodedBytes(width, height);
    if (aclError error = enqueueTask(api, channel->getStream, [=] {
          std::vector<uint8_t> picture(bytes, 0x80);
          for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x)
              picture[size_t(y) * widthStride + x] = static_cast<uint8_t>(
                  (x + 2 * y) * 255 / (width + 2 * height));
          return writeDevice(out, picture) ? 0 : ACL_ERROR_RT_PARAM_INVALID;
        }))
      return error;
    output->width = width;
    output->height = height;
    output->widthStride = widthStride;
    output->heightStride = heightStride;
    output->retCode = 0;
  }
  aclvdecCallback callback = channel->callback;
  acldvppPicDesc *picture = skipped ? nullptr : output;
  return launchHostFunction(
      api, [=] { callback(input, picture, userData); }, /*block=*/true,
      channel->getStream);
}

aclError checkVencChannel(const char *api, const aclvencChannelDesc *channel) {
  if (!Runtime::instance().isLive(channel, HandleKind::VencChannelDesc) ||
      !channel->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the channel description is unknown or its channel was not "
                "created");
  return ACL_SUCCESS;
}

/// An access unit of the encoder's own: a start code, an IDR or non-IDR
/// slice NAL header (H.264) and the frame's number.
std::vector<uint8_t> accessUnit(uint64_t frame, bool key) {
  std::vector<uint8_t> unit = {0, 0, 0, 1, uint8_t(key ? 0x65 : 0x41)};
  for (int shift = 56; shift >= 0; shift -= 8)
    unit.push_back(uint8_t(frame >> shift));
  return unit;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError
aclvdecCreateChannel(aclvdecChannelDesc *channelDesc) {
  const char *api = "aclvdecCreateChannel";
  if (!Runtime::instance().isLive(channelDesc, HandleKind::VdecChannelDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api, "unknown channel description");
  if (channelDesc->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, api, "the channel already exists");
  if (!channelDesc->callback)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "no callback (aclvdecSetChannelDescCallback)");
  void *memory = nullptr;
  if (aclError error = channelMemory(api, kDvppChannelBytes, &memory))
    return error;
  aclrtStream send = nullptr, get = nullptr;
  aclError error = createStreamFor(api, &send);
  if (!error)
    error = callbackStream(api, channelDesc->threadId, &get);
  if (error) {
    if (send)
      destroyStreamFor(api, send);
    halMemFree(memory);
    return error;
  }
  channelDesc->channelMemory = memory;
  channelDesc->sendStream = send;
  channelDesc->getStream = get;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclvdecDestroyChannel(aclvdecChannelDesc *channelDesc) {
  const char *api = "aclvdecDestroyChannel";
  if (!Runtime::instance().isLive(channelDesc, HandleKind::VdecChannelDesc) ||
      !channelDesc->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the channel does not exist or was destroyed");
  endCallbackStream(api, channelDesc->threadId, channelDesc->getStream);
  destroyStreamFor(api, channelDesc->sendStream);
  halMemFree(channelDesc->channelMemory);
  channelDesc->channelMemory = nullptr;
  channelDesc->sendStream = channelDesc->getStream = nullptr;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclvdecSendFrame(aclvdecChannelDesc *channelDesc,
                                              acldvppStreamDesc *input,
                                              acldvppPicDesc *output,
                                              aclvdecFrameConfig *config,
                                              void *userData) {
  (void)config;
  return sendVdecFrame("aclvdecSendFrame", channelDesc, input, output, userData,
                       /*skipped=*/false);
}

ACL_FUNC_VISIBILITY aclError aclvdecSendSkippedFrame(
    aclvdecChannelDesc *channelDesc, acldvppStreamDesc *input,
    aclvdecFrameConfig *config, void *userData) {
  (void)config;
  return sendVdecFrame("aclvdecSendSkippedFrame", channelDesc, input, nullptr,
                       userData, /*skipped=*/true);
}

ACL_FUNC_VISIBILITY aclError
aclvencCreateChannel(aclvencChannelDesc *channelDesc) {
  const char *api = "aclvencCreateChannel";
  if (!Runtime::instance().isLive(channelDesc, HandleKind::VencChannelDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api, "unknown channel description");
  if (channelDesc->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, api, "the channel already exists");
  if (!channelDesc->callback || channelDesc->picWidth == 0 ||
      channelDesc->picHeight == 0 || !isYuv420sp(channelDesc->picFormat))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the channel needs a callback, a picture size and a "
                "YUV420SP picture format");
  void *memory = nullptr, *buffer = nullptr;
  if (aclError error = channelMemory(api, kDvppChannelBytes, &memory))
    return error;
  aclError error = channelMemory(api, kVencOutputBytes, &buffer);
  aclrtStream stream = nullptr;
  if (!error)
    error = callbackStream(api, channelDesc->threadId, &stream);
  if (error) {
    if (buffer)
      halMemFree(buffer);
    halMemFree(memory);
    return error;
  }
  channelDesc->channelMemory = memory;
  channelDesc->outputBuffer = buffer;
  channelDesc->stream = stream;
  channelDesc->output = acldvppCreateStreamDesc();
  channelDesc->frames = 0;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclvencDestroyChannel(aclvencChannelDesc *channelDesc) {
  const char *api = "aclvencDestroyChannel";
  if (aclError error = checkVencChannel(api, channelDesc))
    return error;
  endCallbackStream(api, channelDesc->threadId, channelDesc->stream);
  acldvppDestroyStreamDesc(channelDesc->output);
  halMemFree(channelDesc->outputBuffer);
  halMemFree(channelDesc->channelMemory);
  channelDesc->channelMemory = channelDesc->outputBuffer = nullptr;
  channelDesc->stream = nullptr;
  channelDesc->output = nullptr;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclvencSendFrame(aclvencChannelDesc *channelDesc,
                                              acldvppPicDesc *input,
                                              void *reserve,
                                              aclvencFrameConfig *config,
                                              void *userdata) {
  (void)reserve;
  const char *api = "aclvencSendFrame";
  Runtime &rt = Runtime::instance();
  if (aclError error = checkVencChannel(api, channelDesc))
    return error;
  if (!rt.isLive(config, HandleKind::VencFrameConfig))
    return fail(ACL_ERROR_INVALID_PARAM, api, "unknown frame configuration");
  acldvppStreamDesc *output = channelDesc->output;
  aclvencCallback callback = channelDesc->callback;
  if (config->eos) {
    if (aclError error = enqueueTask(api, channelDesc->stream, [=] {
          output->size = 0;
          output->eos = 1;
          return ACL_SUCCESS;
        }))
      return error;
    return launchHostFunction(
        api, [=] { callback(nullptr, output, userdata); }, /*block=*/true,
        channelDesc->stream);
  }
  if (!rt.isLive(input, HandleKind::PicDesc) || !inDeviceMemory(input->data) ||
      !isYuv420sp(input->format) || input->width != channelDesc->picWidth ||
      input->height != channelDesc->picHeight)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the input picture is unknown, not in device memory, not "
                "YUV420SP or not of the channel's size");
  uint64_t frame = channelDesc->frames++;
  bool key = config->forceIFrame || frame == 0 ||
             (channelDesc->keyFrameInterval &&
              frame % channelDesc->keyFrameInterval == 0);
  std::vector<uint8_t> unit = accessUnit(frame, key);
  void *buffer = channelDesc->outputBuffer;
  acldvppStreamFormat format = channelDesc->enType;
  if (aclError error = enqueueTask(api, channelDesc->stream, [=] {
        if (!writeDevice(buffer, unit))
          return ACL_ERROR_RT_PARAM_INVALID;
        output->data = buffer;
        output->size = static_cast<uint32_t>(unit.size());
        output->format = format;
        output->eos = 0;
        output->retCode = 0;
        return ACL_SUCCESS;
      }))
    return error;
  return launchHostFunction(
      api, [=] { callback(input, output, userdata); }, /*block=*/true,
      channelDesc->stream);
}

} // extern "C"
