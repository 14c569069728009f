//===- acl_dvpp_mpi_api.cpp - hi_mpi: media system, VPC, VDEC ------------===//
//
// The hi_mpi calls the official VPC samples make: the media system
// (hi_mpi_sys_init / exit, which the VPC calls want first), VPC channels
// (an id from 0 to VPC_MAX_CHN_NUM - 1 each, with 1 MiB of DVPP memory of
// its own at the driver level, released by hi_mpi_vpc_destroy_chn) and the
// crop, resize, crop-resize and crop-resize-paste tasks on YUV420SP
// pictures in DVPP memory, resampled nearest-neighbour as the acldvpp VPC
// calls do. A task is done when its call returns; its id is what
// hi_mpi_vpc_get_process_result waits for. Decoder channels
// (hi_mpi_vdec_*: H.264, H.265 and JPEG) likewise have their own memory;
// a stream sent while the channel receives is "decoded" into its output
// picture at once (a gradient of the picture's size) and queued as a frame
// for hi_mpi_vdec_get_frame; hi_mpi_dvpp_get_image_info reads a JPEG's
// header. The error codes are each module's (hi_dvpp_vpc.h, hi_dvpp_vdec.h).
// The PNG decoder and the encoder work the same way: a stream or frame sent
// is decoded or encoded at once and queued for hi_mpi_pngd_get_image_data
// or hi_mpi_venc_get_stream (an encoder writes a JPEG header, or an access
// unit of its own, into its stream buffer or the caller's); a frame or pack
// handed out must be given back once (hi_mpi_vdec_release_frame,
// hi_mpi_venc_release_stream), and only one handed out by that channel.
// Epoll instances (hi_mpi_sys_create_epoll / close_epoll) and channel
// descriptors (hi_mpi_vdec_get_fd, hi_mpi_venc_get_fd) are the kernel's.
// The rest of hi_mpi are stand-ins.
//
//===----------------------------------------------------------------------===//
#include "acl/dvpp/hi_dvpp.h"
#include "dvpp_objects.h"
#include "runtime.h"

#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <vector>

using namespace mssim;

namespace {

/// The hi_mpi state of the process: the media system, the VPC channels
/// (id: their device memory) and the tasks done on each.
/// A decoder channel: its memory, whether it receives, and the frames
/// decoded and not yet got (hi_mpi_vdec_get_frame).
struct DecoderChannel {
  void *memory = nullptr;
  hi_payload_type type = HI_PT_H264;
  bool receiving = false;
  std::deque<std::pair<hi_video_frame_info, hi_vdec_stream>> decoded;
  hi_u32 received = 0;
  /// Frames handed out and not yet given back (hi_mpi_vdec_release_frame),
  /// by their picture's address.
  std::multiset<const void *> held;
};

/// A PNG decoder channel: its memory and the pictures decoded, not yet got.
struct PngChannel {
  void *memory = nullptr;
  std::deque<std::pair<hi_pic_info, hi_img_stream>> decoded;
};

/// An encoder channel: its memory (and stream buffer), whether it
/// receives, its attributes, and the streams encoded and not yet got.
struct EncoderChannel {
  void *memory = nullptr;
  void *streamBuffer = nullptr;
  hi_u32 streamBufferSize = 0;
  hi_u32 streamOffset = 0; // where the next stream goes in the buffer
  bool receiving = false;
  hi_venc_chn_attr attr;
  hi_u32 sequence = 0;
  std::deque<hi_venc_pack> encoded;
  /// Packs handed out and not yet given back (hi_mpi_venc_release_stream),
  /// by their data's address.
  std::multiset<const void *> held;
};

/// A channel's descriptor (hi_mpi_vdec_get_fd, hi_mpi_venc_get_fd): an
/// eventfd of the kernel, an open file of the process as the real device
/// file is, readable while the channel has output waiting.
struct ChannelFd {
  int fd = -1;
  bool readable = false;
};
using ChannelFds = std::map<hi_s32, ChannelFd>;

struct MediaSystem {
  std::mutex Mutex;
  int Initialized = 0; // between hi_mpi_sys_init and hi_mpi_sys_exit
  std::map<hi_vpc_chn, void *> Channels;
  std::map<hi_vpc_chn, std::set<hi_u32>> Done;
  hi_u32 NextTask = 1;
  std::map<hi_vdec_chn, DecoderChannel> Decoders;
  std::map<hi_pngd_chn, PngChannel> PngDecoders;
  std::map<hi_venc_chn, EncoderChannel> Encoders;
  std::set<hi_s32> Epolls; // hi_mpi_sys_create_epoll's, not yet closed
  // By channel id, until hi_mpi_*_close_fd: destroying the channel leaves
  // its descriptor open (what the real one does is not public; the stricter
  // reading).
  ChannelFds DecoderFds, EncoderFds;
};

MediaSystem &media() {
  static MediaSystem *m = new MediaSystem; // never destroyed: atexit users
  return *m;
}

constexpr hi_s32 err(hi_u32 code) { return static_cast<hi_s32>(code); }

/// Makes channel `chn`'s descriptor in `fds` (if it has one) readable or
/// not, as the channel has output waiting or not.
void markWaiting(ChannelFds &fds, hi_s32 chn, bool waiting) {
  auto found = fds.find(chn);
  if (found == fds.end() || found->second.readable == waiting)
    return;
  uint64_t count = 1;
  ssize_t done = waiting ? write(found->second.fd, &count, sizeof count)
                         : read(found->second.fd, &count, sizeof count);
  if (done == sizeof count)
    found->second.readable = waiting;
}

/// Encoder channel ids run from 0 to this, exclusive (the headers name no
/// limit; the simulation takes VDEC_MAX_CHN_NUM's).
constexpr int kEncoderChannels = VDEC_MAX_CHN_NUM;

/// A channel's own DVPP memory on the current device; null if there is none
/// to have.
void *channelMemory(const char *api) {
  void *memory = nullptr;
  return allocateOnDevice(api, &memory, kDvppChannelBytes, kDvppChannelBytes,
                          MEM_DVPP, DVPP_MODULE_ID)
             ? nullptr
             : memory;
}

bool isMpiYuv420sp(hi_pixel_format format) {
  return format == HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
         format == HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

/// The picture as the acldvpp code describes one; false if the hardware
/// would not take it (YUV420SP in DVPP memory, width stride a multiple of
/// 16, height stride of 2, the picture inside the strides, the buffer
/// holding them).
bool asPicture(const hi_vpc_pic_info *info, acldvppPicDesc *pic) {
  if (!info || !isMpiYuv420sp(info->picture_format) ||
      !inDeviceMemory(info->picture_address) || info->picture_width == 0 ||
      info->picture_height == 0 || info->picture_width_stride % 16 ||
      info->picture_height_stride % 2 ||
      info->picture_width > info->picture_width_stride ||
      info->picture_height > info->picture_height_stride ||
      uint64_t(info->picture_width_stride) * info->picture_height_stride * 3 /
              2 >
          info->picture_buffer_size)
    return false;
  pic->data = info->picture_address;
  pic->size = info->picture_buffer_size;
  pic->format = info->picture_format == HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420
                    ? PIXEL_FORMAT_YUV_SEMIPLANAR_420
                    : PIXEL_FORMAT_YVU_SEMIPLANAR_420;
  pic->width = info->picture_width;
  pic->height = info->picture_height;
  pic->widthStride = info->picture_width_stride;
  pic->heightStride = info->picture_height_stride;
  return true;
}

/// The checks every task makes of its channel; HI_SUCCESS if it can run.
hi_s32 checkVpcChannel(hi_vpc_chn chn, hi_u32 *task_id) {
  if (chn < 0 || chn >= VPC_MAX_CHN_NUM)
    return err(HI_ERR_VPC_INVALID_CHN_ID);
  if (!task_id)
    return err(HI_ERR_VPC_NULL_PTR);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Initialized)
    return err(HI_ERR_VPC_SYS_NOT_READY);
  return m.Channels.count(chn) ? HI_SUCCESS : err(HI_ERR_VPC_UNEXIST);
}

/// One region of a task: crop `crop` of `source`, resize it to
/// `width` x `height` (0: the crop's size) and paste it at (left, top) of
/// `dest`.
hi_s32 runRegion(const hi_vpc_pic_info *source, const hi_vpc_pic_info &dest,
                 const hi_vpc_crop_region &crop, hi_u32 width, hi_u32 height,
                 hi_u32 left, hi_u32 top) {
  acldvppPicDesc in, out;
  if (!asPicture(source, &in) || !asPicture(&dest, &out))
    return err(HI_ERR_VPC_ILLEGAL_PARAM);
  if (crop.crop_width == 0 || crop.crop_height == 0)
    return err(HI_ERR_VPC_ILLEGAL_PARAM);
  PictureRegion from{crop.left_offset, crop.left_offset + crop.crop_width - 1,
                     crop.top_offset, crop.top_offset + crop.crop_height - 1};
  PictureRegion to{left, left + (width ? width : crop.crop_width) - 1, top,
                   top + (height ? height : crop.crop_height) - 1};
  if (!inside(from, in) || !inside(to, out))
    return err(HI_ERR_VPC_ILLEGAL_PARAM);
  return resamplePicture(in, from, out, to) ? HI_SUCCESS
                                            : err(HI_ERR_VPC_BAD_ADDR);
}

/// Records a finished task of `chn` and hands out its id.
hi_s32 finish(hi_vpc_chn chn, hi_u32 *task_id) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  *task_id = m.NextTask++;
  m.Done[chn].insert(*task_id);
  return HI_SUCCESS;
}

/// A task of `count` regions, each run by `region(i)`.
template <typename Region>
hi_s32 task(hi_vpc_chn chn, const void *regions, hi_u32 count, hi_u32 *task_id,
            Region region) {
  if (hi_s32 status = checkVpcChannel(chn, task_id))
    return status;
  if (!regions || count == 0)
    return err(HI_ERR_VPC_NULL_PTR);
  for (hi_u32 i = 0; i < count; ++i)
    if (hi_s32 status = region(i))
      return status;
  return finish(chn, task_id);
}

/// `run(channel)` on a live decoder channel, under the lock.
template <typename Run> hi_s32 onDecoder(hi_vdec_chn chn, Run run) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto channel = m.Decoders.find(chn);
  if (channel == m.Decoders.end())
    return err(chn < 0 || chn >= VDEC_MAX_CHN_NUM ? HI_ERR_VDEC_INVALID_CHN_ID
                                                  : HI_ERR_VDEC_UNEXIST);
  return run(channel->second);
}

/// `run(channel)` on a live channel of `channels`, under the lock; else the
/// module's invalid-id or unknown-channel error.
template <typename Channels, typename Run>
hi_s32 onChannel(Channels MediaSystem::*channels, int chn, int limit,
                 hi_u32 invalidId, hi_u32 unknown, Run run) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto channel = (m.*channels).find(chn);
  if (channel == (m.*channels).end())
    return err(chn < 0 || chn >= limit ? invalidId : unknown);
  return run(channel->second);
}

/// The simulated PNG decoder's output layout: RGB888 rows of the width
/// times 3 aligned to 128 bytes, the height aligned to 16.
void pngLayout(hi_u32 width, hi_u32 height, hi_u32 *widthStride,
               hi_u32 *heightStride) {
  *widthStride = alignUp(width * 3, 128);
  *heightStride = alignUp(height, 16);
}

/// Bytes of `stream` (in device or host memory) as the hardware reads them.
bool streamBytes(const hi_u8 *addr, hi_u32 len, std::vector<uint8_t> *out) {
  if (inDeviceMemory(addr))
    return readDevice(addr, len, out);
  out->assign(addr, addr + len);
  return true;
}

/// `run(channel)` on a live encoder channel.
template <typename Run> hi_s32 onEncoder(hi_venc_chn chn, Run run) {
  return onChannel(&MediaSystem::Encoders, chn, kEncoderChannels,
                   HI_ERR_VENC_INVALID_CHN_ID, HI_ERR_VENC_UNEXIST, run);
}

/// The errors of one module's descriptor calls.
struct FdErrors {
  int limit; // channel ids run from 0 to this, exclusive
  hi_u32 invalidId, unknown, noMemory;
};

/// hi_mpi_*_get_fd: the descriptor of live channel `chn` of `channels` --
/// made on the first call, the same one until hi_mpi_*_close_fd -- or the
/// module's error.
template <typename Channels, typename Waiting>
hi_s32 channelFd(Channels MediaSystem::*channels, ChannelFds MediaSystem::*fds,
                 hi_s32 chn, const FdErrors &errors, Waiting waiting) {
  return onChannel(channels, chn, errors.limit, errors.invalidId,
                   errors.unknown,
                   [&](const typename Channels::mapped_type &channel) {
                     ChannelFds &open = media().*fds; // under onChannel's lock
                     auto found = open.find(chn);
                     if (found != open.end())
                       return found->second.fd;
                     int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
                     if (fd < 0)
                       return err(errors.noMemory);
                     open[chn].fd = fd;
                     markWaiting(open, chn, waiting(channel));
                     return fd;
                   });
}

/// hi_mpi_*_close_fd: closes channel `chn`'s descriptor, whether the channel
/// is still live or not; one not got (or closed) is the module's
/// unknown-channel error.
hi_s32 closeChannelFd(ChannelFds MediaSystem::*fds, hi_s32 chn,
                      const FdErrors &errors) {
  if (chn < 0 || chn >= errors.limit)
    return err(errors.invalidId);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto found = (m.*fds).find(chn);
  if (found == (m.*fds).end())
    return err(errors.unknown);
  close(found->second.fd);
  (m.*fds).erase(found);
  return HI_SUCCESS;
}

constexpr FdErrors kDecoderFdErrors = {VDEC_MAX_CHN_NUM,
                                       HI_ERR_VDEC_INVALID_CHN_ID,
                                       HI_ERR_VDEC_UNEXIST, HI_ERR_VDEC_NO_MEM};
constexpr FdErrors kEncoderFdErrors = {kEncoderChannels,
                                       HI_ERR_VENC_INVALID_CHN_ID,
                                       HI_ERR_VENC_UNEXIST, HI_ERR_VENC_NO_MEM};

/// Encodes `frame` into `out` (at most `capacity` bytes) and queues its
/// stream packet; HI_SUCCESS or the error.
hi_s32 encodeFrame(hi_venc_chn chn, const hi_video_frame_info *frame,
                   hi_u8 *out, hi_u32 capacity) {
  if (!frame)
    return err(HI_ERR_VENC_NULL_PTR);
  const hi_video_frame &picture = frame->v_frame;
  if (!inDeviceMemory(picture.virt_addr[0]))
    return err(HI_ERR_VENC_ILLEGAL_PARAM);
  return onEncoder(chn, [&](EncoderChannel &channel) {
    const hi_venc_attr &venc = channel.attr.venc_attr;
    if (!channel.receiving)
      return err(HI_ERR_VENC_NOT_PERM); // hi_mpi_venc_start_chn
    if (picture.width != venc.pic_width || picture.height != venc.pic_height)
      return err(HI_ERR_VENC_ILLEGAL_PARAM);
    std::vector<uint8_t> bytes;
    bool jpeg = venc.type == HI_PT_JPEG || venc.type == HI_PT_MJPEG;
    if (jpeg) {
      bytes = jpegHeader(picture.width, picture.height);
    } else { // an access unit of the simulation's own
      bool key = channel.sequence == 0;
      bytes = {0, 0, 0, 1, static_cast<uint8_t>(key ? 0x65 : 0x41)};
      for (int shift = 24; shift >= 0; shift -= 8)
        bytes.push_back(static_cast<uint8_t>(channel.sequence >> shift));
    }
    if (!out) { // the channel's own stream buffer, used as a ring
      if (channel.streamOffset + bytes.size() > channel.streamBufferSize)
        channel.streamOffset = 0;
      out = static_cast<hi_u8 *>(channel.streamBuffer) + channel.streamOffset;
      capacity = channel.streamBufferSize - channel.streamOffset;
      channel.streamOffset += static_cast<hi_u32>(bytes.size());
    }
    if (bytes.size() > capacity)
      return err(HI_ERR_VENC_BUF_FULL);
    if (!writeDevice(out, bytes))
      return err(HI_ERR_VENC_BAD_ADDR);
    hi_venc_pack pack;
    memset(&pack, 0, sizeof pack);
    pack.addr = out;
    pack.len = static_cast<hi_u32>(bytes.size());
    pack.pts = picture.pts;
    pack.is_frame_end = HI_TRUE;
    if (jpeg)
      pack.data_type.jpeg_type = HI_VENC_JPEG_PACK_PIC;
    else if (venc.type == HI_PT_H264)
      pack.data_type.h264_type = channel.sequence == 0
                                     ? HI_VENC_H264_NALU_IDR_SLICE
                                     : HI_VENC_H264_NALU_P_SLICE;
    else
      pack.data_type.h265_type = channel.sequence == 0
                                     ? HI_VENC_H265_NALU_IDR_SLICE
                                     : HI_VENC_H265_NALU_P_SLICE;
    ++channel.sequence;
    channel.encoded.push_back(pack);
    markWaiting(media().EncoderFds, chn, true);
    return HI_SUCCESS;
  });
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) hi_s32 hi_mpi_sys_init(hi_void) {
  if (currentDevice() < 0)
    return err(HI_ERR_SYS_NOT_READY); // after aclrtSetDevice, as on the stack
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  m.Initialized = 1; // again is no failure, and counts for nothing
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32 hi_mpi_sys_exit(hi_void) {
  // One exit ends the media system, however often it was initialised; an
  // exit again is no failure (both as the documentation says).
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  m.Initialized = 0;
  return HI_SUCCESS;
}

// Epoll instances: real ones of the kernel's (an open file each, as the
// documentation says); hi_mpi_sys_ctl_epoll and hi_mpi_sys_wait_epoll are
// stand-ins. The channels' descriptors they would watch are below
// (channelFd).
__attribute__((visibility("default"))) hi_s32
hi_mpi_sys_create_epoll(hi_s32 size, hi_s32 *epoll_fd) {
  if (!epoll_fd)
    return err(HI_ERR_SYS_NULL_PTR);
  if (size <= 0)
    return err(HI_ERR_SYS_ILLEGAL_PARAM);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Initialized)
    return err(HI_ERR_SYS_NOT_READY); // stricter: after hi_mpi_sys_init
  int fd = epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0)
    return err(errno == EMFILE || errno == ENFILE ? HI_ERR_SYS_NO_MEM
                                                  : HI_ERR_SYS_ERR);
  m.Epolls.insert(fd);
  *epoll_fd = fd;
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_sys_close_epoll(hi_s32 epoll_fd) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Epolls.erase(epoll_fd))
    return err(HI_ERR_SYS_ILLEGAL_PARAM); // not one of ours, or closed
  close(epoll_fd);
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_dvpp_get_version(hi_s32 *major_version, hi_s32 *minor_version,
                        hi_s32 *patch_version) {
  if (!major_version || !minor_version || !patch_version)
    return err(HI_ERR_SYS_NULL_PTR);
  *major_version = 1;
  *minor_version = 0;
  *patch_version = 0;
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_create_chn(hi_vpc_chn chn, const hi_vpc_chn_attr *attr) {
  if (chn < 0 || chn >= VPC_MAX_CHN_NUM)
    return err(HI_ERR_VPC_INVALID_CHN_ID);
  if (!attr)
    return err(HI_ERR_VPC_NULL_PTR);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Initialized)
    return err(HI_ERR_VPC_SYS_NOT_READY);
  if (m.Channels.count(chn))
    return err(HI_ERR_VPC_EXIST);
  void *memory = channelMemory("hi_mpi_vpc_create_chn");
  if (!memory)
    return err(HI_ERR_VPC_NO_MEM);
  m.Channels[chn] = memory;
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_sys_create_chn(hi_vpc_chn *chnl, const hi_vpc_chn_attr *attr) {
  if (!chnl)
    return err(HI_ERR_VPC_NULL_PTR);
  hi_vpc_chn id = 0;
  {
    MediaSystem &m = media();
    std::lock_guard<std::mutex> lock(m.Mutex);
    while (id < VPC_MAX_CHN_NUM && m.Channels.count(id))
      ++id;
  }
  if (id == VPC_MAX_CHN_NUM)
    return err(HI_ERR_VPC_NO_BUF);
  hi_s32 status = hi_mpi_vpc_create_chn(id, attr);
  if (status == HI_SUCCESS)
    *chnl = id;
  return status;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_destroy_chn(hi_vpc_chn chn) {
  if (chn < 0 || chn >= VPC_MAX_CHN_NUM)
    return err(HI_ERR_VPC_INVALID_CHN_ID);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto channel = m.Channels.find(chn);
  if (channel == m.Channels.end())
    return err(HI_ERR_VPC_UNEXIST);
  halMemFree(channel->second);
  m.Channels.erase(channel);
  m.Done.erase(chn);
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_crop(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                hi_vpc_crop_region_info crop_info[], hi_u32 count,
                hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return task(chn, crop_info, count, task_id, [&](hi_u32 i) {
    const hi_vpc_crop_region_info &r = crop_info[i];
    return runRegion(source_pic, r.dest_pic_info, r.crop_region,
                     r.dest_pic_info.picture_width,
                     r.dest_pic_info.picture_height, 0, 0);
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_resize(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                  hi_vpc_pic_info *dest_pic, hi_double fx, hi_double fy,
                  hi_u32 interpolation, hi_u32 *task_id, hi_s32 milli_sec) {
  (void)fx, (void)fy, (void)interpolation, (void)milli_sec;
  if (!source_pic)
    return err(HI_ERR_VPC_NULL_PTR);
  hi_vpc_crop_region whole{0, 0, source_pic->picture_width,
                           source_pic->picture_height};
  return task(chn, dest_pic, 1, task_id, [&](hi_u32) {
    return runRegion(source_pic, *dest_pic, whole, dest_pic->picture_width,
                     dest_pic->picture_height, 0, 0);
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_crop_resize(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                       hi_vpc_crop_resize_region crop_resize_info[],
                       hi_u32 count, hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return task(chn, crop_resize_info, count, task_id, [&](hi_u32 i) {
    const hi_vpc_crop_resize_region &r = crop_resize_info[i];
    return runRegion(source_pic, r.dest_pic_info, r.crop_region,
                     r.resize_info.resize_width, r.resize_info.resize_height, 0,
                     0);
  });
}

__attribute__((visibility("default"))) hi_s32 hi_mpi_vpc_crop_resize_paste(
    hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
    hi_vpc_crop_resize_paste_region crop_resize_paste_info[], hi_u32 count,
    hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return task(chn, crop_resize_paste_info, count, task_id, [&](hi_u32 i) {
    const hi_vpc_crop_resize_paste_region &r = crop_resize_paste_info[i];
    return runRegion(source_pic, r.dest_pic_info, r.crop_region,
                     r.resize_info.resize_width, r.resize_info.resize_height,
                     r.dest_left_offset, r.dest_top_offset);
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vpc_get_process_result(hi_vpc_chn chn, hi_u32 task_id,
                              hi_s32 milli_sec) {
  (void)milli_sec;
  if (chn < 0 || chn >= VPC_MAX_CHN_NUM)
    return err(HI_ERR_VPC_INVALID_CHN_ID);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Channels.count(chn))
    return err(HI_ERR_VPC_UNEXIST);
  auto done = m.Done.find(chn);
  if (done == m.Done.end() || !done->second.erase(task_id))
    return err(HI_ERR_VPC_ILLEGAL_PARAM);
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_dvpp_get_image_info(hi_payload_type img_type,
                           const hi_vdec_stream *stream,
                           hi_img_info *img_info) {
  if (!stream || !img_info || !stream->addr)
    return err(HI_ERR_VDEC_NULL_PTR);
  if (img_type != HI_PT_JPEG)
    return err(HI_ERR_VDEC_NOT_SUPPORT);
  std::vector<uint8_t> bytes;
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  acldvppJpegFormat subsampling = ACL_JPEG_CSS_UNKNOWN;
  const uint8_t *data = stream->addr;
  if (inDeviceMemory(stream->addr)) { // read as the hardware would
    if (!readDevice(stream->addr, stream->len, &bytes))
      return err(HI_ERR_VDEC_BAD_ADDR);
    data = bytes.data();
  }
  if (!jpegFrame(data, stream->len, &width, &height, &components, &subsampling))
    return err(HI_ERR_VDEC_ILLEGAL_PARAM);
  memset(img_info, 0, sizeof *img_info);
  img_info->width = width;
  img_info->height = height;
  img_info->width_stride = alignUp(width, 64);
  img_info->height_stride = alignUp(height, 16);
  img_info->img_buf_size =
      img_info->width_stride * img_info->height_stride * 3 / 2;
  switch (subsampling) {
  case ACL_JPEG_CSS_444:
    img_info->pixel_format = HI_JPEG_RAW_FORMAT_YUV444;
    break;
  case ACL_JPEG_CSS_422:
    img_info->pixel_format = HI_JPEG_RAW_FORMAT_YUV422;
    break;
  case ACL_JPEG_CSS_440:
    img_info->pixel_format = HI_JPEG_RAW_FORMAT_YUV440;
    break;
  case ACL_JPEG_CSS_GRAY:
    img_info->pixel_format = HI_JPEG_RAW_FORMAT_YUV400;
    break;
  case ACL_JPEG_CSS_411:
    img_info->pixel_format = HI_JPEG_RAW_FORMAT_YUV411;
    break;
  default:
    img_info->pixel_format = HI_JPEG_RAW_FORMAT_YUV420;
  }
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_create_chn(hi_vdec_chn chn, const hi_vdec_chn_attr *attr) {
  if (chn < 0 || chn >= VDEC_MAX_CHN_NUM)
    return err(HI_ERR_VDEC_INVALID_CHN_ID);
  if (!attr)
    return err(HI_ERR_VDEC_NULL_PTR);
  if (attr->type != HI_PT_H264 && attr->type != HI_PT_H265 &&
      attr->type != HI_PT_JPEG)
    return err(HI_ERR_VDEC_NOT_SUPPORT);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Initialized)
    return err(HI_ERR_VDEC_SYS_NOT_READY);
  if (m.Decoders.count(chn))
    return err(HI_ERR_VDEC_EXIST);
  void *memory = channelMemory("hi_mpi_vdec_create_chn");
  if (!memory)
    return err(HI_ERR_VDEC_NO_MEM);
  DecoderChannel &channel = m.Decoders[chn];
  channel.memory = memory;
  channel.type = attr->type;
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_destroy_chn(hi_vdec_chn chn) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto channel = m.Decoders.find(chn);
  if (channel == m.Decoders.end())
    return err(chn < 0 || chn >= VDEC_MAX_CHN_NUM ? HI_ERR_VDEC_INVALID_CHN_ID
                                                  : HI_ERR_VDEC_UNEXIST);
  if (channel->second.receiving)
    return err(HI_ERR_VDEC_NOT_PERM); // stop receiving first
  halMemFree(channel->second.memory);
  m.Decoders.erase(channel);
  markWaiting(m.DecoderFds, chn, false); // its output is gone
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_get_fd(hi_vdec_chn chn) {
  return channelFd(
      &MediaSystem::Decoders, &MediaSystem::DecoderFds, chn, kDecoderFdErrors,
      [](const DecoderChannel &channel) { return !channel.decoded.empty(); });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_close_fd(hi_vdec_chn chn) {
  return closeChannelFd(&MediaSystem::DecoderFds, chn, kDecoderFdErrors);
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_start_recv_stream(hi_vdec_chn chn) {
  return onDecoder(chn, [](DecoderChannel &channel) {
    channel.receiving = true;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_stop_recv_stream(hi_vdec_chn chn) {
  return onDecoder(chn, [](DecoderChannel &channel) {
    channel.receiving = false;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_query_status(hi_vdec_chn chn, hi_vdec_chn_status *status) {
  if (!status)
    return err(HI_ERR_VDEC_NULL_PTR);
  return onDecoder(chn, [&](DecoderChannel &channel) {
    memset(status, 0, sizeof *status);
    status->type = channel.type;
    status->is_started = channel.receiving ? HI_TRUE : HI_FALSE;
    status->left_decoded_frames = static_cast<hi_u32>(channel.decoded.size());
    status->recv_stream_frames = channel.received;
    status->dec_stream_frames = channel.received;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_send_stream(hi_vdec_chn chn, const hi_vdec_stream *stream,
                        hi_vdec_pic_info *vdec_pic_info, hi_s32 milli_sec) {
  (void)milli_sec;
  if (!stream)
    return err(HI_ERR_VDEC_NULL_PTR);
  // The end of the stream: nothing to decode.
  if (stream->end_of_stream && stream->len == 0)
    return onDecoder(chn, [](DecoderChannel &channel) {
      return channel.receiving ? HI_SUCCESS : err(HI_ERR_VDEC_NOT_PERM);
    });
  if (!stream->addr || !inDeviceMemory(stream->addr) || stream->len == 0 ||
      !vdec_pic_info)
    return err(HI_ERR_VDEC_ILLEGAL_PARAM);
  hi_vdec_pic_info out = *vdec_pic_info;
  void *buffer = reinterpret_cast<void *>(out.vir_addr);
  if (!inDeviceMemory(buffer) || out.width == 0 || out.height == 0 ||
      out.width_stride < out.width || out.height_stride < out.height ||
      uint64_t(out.width_stride) * out.height_stride * 3 / 2 >
          out.buffer_size ||
      (out.pixel_format != HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420 &&
       out.pixel_format != HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420))
    return err(HI_ERR_VDEC_ILLEGAL_PARAM);
  // Decode: a gradient of the output's size (the bits are not decoded).
  std::vector<uint8_t> picture(
      size_t(out.width_stride) * out.height_stride * 3 / 2, 0x80);
  for (hi_u32 y = 0; y < out.height; ++y)
    for (hi_u32 x = 0; x < out.width; ++x)
      picture[size_t(y) * out.width_stride + x] =
          static_cast<uint8_t>((x + y) * 255 / (out.width + out.height));
  if (!writeDevice(buffer, picture))
    return err(HI_ERR_VDEC_BAD_ADDR);
  hi_video_frame_info frame;
  memset(&frame, 0, sizeof frame);
  frame.v_frame.width = out.width;
  frame.v_frame.height = out.height;
  frame.v_frame.field = HI_VIDEO_FIELD_FRAME;
  frame.v_frame.pixel_format = out.pixel_format;
  frame.v_frame.width_stride[0] = frame.v_frame.width_stride[1] =
      out.width_stride;
  frame.v_frame.height_stride[0] = frame.v_frame.height_stride[1] =
      out.height_stride;
  frame.v_frame.virt_addr[0] = buffer;
  frame.v_frame.virt_addr[1] = static_cast<uint8_t *>(buffer) +
                               size_t(out.width_stride) * out.height_stride;
  frame.v_frame.pts = stream->pts;
  frame.mod_id = HI_ID_VDEC;
  hi_vdec_stream echo = *stream;
  return onDecoder(chn, [&](DecoderChannel &channel) {
    if (!channel.receiving)
      return err(HI_ERR_VDEC_NOT_PERM); // hi_mpi_vdec_start_recv_stream
    ++channel.received;
    channel.decoded.emplace_back(frame, echo);
    markWaiting(media().DecoderFds, chn, true);
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_get_frame(hi_vdec_chn chn, hi_video_frame_info *frame_info,
                      hi_vdec_supplement_info *supplement,
                      hi_vdec_stream *stream, hi_s32 milli_sec) {
  (void)milli_sec; // a frame is decoded when its stream is sent
  if (!frame_info || !stream)
    return err(HI_ERR_VDEC_NULL_PTR);
  return onDecoder(chn, [&](DecoderChannel &channel) {
    if (channel.decoded.empty())
      return err(HI_ERR_VDEC_BUF_EMPTY);
    *frame_info = channel.decoded.front().first;
    *stream = channel.decoded.front().second;
    channel.decoded.pop_front();
    markWaiting(media().DecoderFds, chn, !channel.decoded.empty());
    channel.held.insert(frame_info->v_frame.virt_addr[0]);
    if (supplement) {
      memset(supplement, 0, sizeof *supplement);
      supplement->type = channel.type;
    }
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_vdec_release_frame(hi_vdec_chn chn,
                          const hi_video_frame_info *frame_info) {
  if (!frame_info)
    return err(HI_ERR_VDEC_NULL_PTR);
  // Only a frame hi_mpi_vdec_get_frame handed out from this channel, once.
  return onDecoder(chn, [&](DecoderChannel &channel) {
    auto frame = channel.held.find(frame_info->v_frame.virt_addr[0]);
    if (frame == channel.held.end())
      return err(HI_ERR_VDEC_ILLEGAL_PARAM);
    channel.held.erase(frame);
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_png_get_image_info(const hi_img_stream *png_stream,
                          hi_img_info *img_info) {
  if (!png_stream || !png_stream->addr || !img_info)
    return err(HI_ERR_PNGD_NULL_PTR);
  std::vector<uint8_t> bytes;
  uint32_t width = 0, height = 0, bitDepth = 0;
  int32_t components = 0;
  if (!streamBytes(png_stream->addr, png_stream->len, &bytes))
    return err(HI_ERR_PNGD_BAD_ADDR);
  if (pngHeader("hi_mpi_png_get_image_info", bytes.data(),
                static_cast<uint32_t>(bytes.size()), &width, &height,
                &components, &bitDepth))
    return err(HI_ERR_PNGD_ILLEGAL_PARAM);
  memset(img_info, 0, sizeof *img_info);
  img_info->width = width;
  img_info->height = height;
  pngLayout(width, height, &img_info->width_stride, &img_info->height_stride);
  img_info->img_buf_size = img_info->width_stride * img_info->height_stride;
  img_info->png_pixel_format =
      static_cast<hi_png_color_format>(bytes.size() > 25 ? bytes[25] : 0);
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_pngd_create_chn(hi_pngd_chn chn, const hi_pngd_chn_attr *attr) {
  if (chn < 0 || chn >= PNGD_MAX_CHN_NUM)
    return err(HI_ERR_PNGD_INVALID_CHN_ID);
  if (!attr)
    return err(HI_ERR_PNGD_NULL_PTR);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Initialized)
    return err(HI_ERR_PNGD_SYS_NOT_READY);
  if (m.PngDecoders.count(chn))
    return err(HI_ERR_PNGD_EXIST);
  void *memory = channelMemory("hi_mpi_pngd_create_chn");
  if (!memory)
    return err(HI_ERR_PNGD_NO_MEM);
  m.PngDecoders[chn].memory = memory;
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_pngd_destroy_chn(hi_pngd_chn chn) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto channel = m.PngDecoders.find(chn);
  if (channel == m.PngDecoders.end())
    return err(chn < 0 || chn >= PNGD_MAX_CHN_NUM ? HI_ERR_PNGD_INVALID_CHN_ID
                                                  : HI_ERR_PNGD_UNEXIST);
  halMemFree(channel->second.memory);
  m.PngDecoders.erase(channel);
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_pngd_send_stream(hi_pngd_chn chn, const hi_img_stream *stream,
                        hi_pic_info *png_pic_info, hi_s32 milli_sec) {
  (void)milli_sec;
  if (!stream || !png_pic_info)
    return err(HI_ERR_PNGD_NULL_PTR);
  hi_img_info info;
  if (stream->type != HI_PT_PNG ||
      hi_mpi_png_get_image_info(stream, &info) != HI_SUCCESS)
    return err(HI_ERR_PNGD_ILLEGAL_PARAM);
  hi_pic_info out = *png_pic_info;
  if (!inDeviceMemory(out.picture_address) ||
      (out.picture_format != HI_PIXEL_FORMAT_RGB_888 &&
       out.picture_format != HI_PIXEL_FORMAT_UNKNOWN) ||
      out.picture_buffer_size < info.img_buf_size)
    return err(HI_ERR_PNGD_ILLEGAL_PARAM);
  // Decode: an RGB888 gradient of the picture's size.
  std::vector<uint8_t> picture(info.img_buf_size, 0);
  for (hi_u32 y = 0; y < info.height; ++y)
    for (hi_u32 x = 0; x < info.width; ++x)
      for (hi_u32 c = 0; c < 3; ++c)
        picture[size_t(y) * info.width_stride + x * 3 + c] =
            static_cast<uint8_t>((x * (c + 1) + y) * 255 /
                                 (info.width + info.height));
  if (!writeDevice(out.picture_address, picture))
    return err(HI_ERR_PNGD_BAD_ADDR);
  out.picture_width = info.width;
  out.picture_height = info.height;
  out.picture_width_stride = info.width_stride;
  out.picture_height_stride = info.height_stride;
  out.picture_format = HI_PIXEL_FORMAT_RGB_888;
  hi_img_stream echo = *stream;
  return onChannel(&MediaSystem::PngDecoders, chn, PNGD_MAX_CHN_NUM,
                   HI_ERR_PNGD_INVALID_CHN_ID, HI_ERR_PNGD_UNEXIST,
                   [&](PngChannel &channel) {
                     channel.decoded.emplace_back(out, echo);
                     return HI_SUCCESS;
                   });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_pngd_get_image_data(hi_pngd_chn chn, hi_pic_info *png_pic_info,
                           hi_img_stream *stream, hi_s32 milli_sec) {
  (void)milli_sec; // a picture is decoded when its stream is sent
  if (!png_pic_info || !stream)
    return err(HI_ERR_PNGD_NULL_PTR);
  return onChannel(&MediaSystem::PngDecoders, chn, PNGD_MAX_CHN_NUM,
                   HI_ERR_PNGD_INVALID_CHN_ID, HI_ERR_PNGD_UNEXIST,
                   [&](PngChannel &channel) {
                     if (channel.decoded.empty())
                       return err(HI_ERR_PNGD_BUF_EMPTY);
                     *png_pic_info = channel.decoded.front().first;
                     *stream = channel.decoded.front().second;
                     channel.decoded.pop_front();
                     return HI_SUCCESS;
                   });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_create_chn(hi_venc_chn chn, const hi_venc_chn_attr *attr) {
  if (chn < 0 || chn >= kEncoderChannels)
    return err(HI_ERR_VENC_INVALID_CHN_ID);
  if (!attr)
    return err(HI_ERR_VENC_NULL_PTR);
  const hi_venc_attr &venc = attr->venc_attr;
  if ((venc.type != HI_PT_H264 && venc.type != HI_PT_H265 &&
       venc.type != HI_PT_JPEG && venc.type != HI_PT_MJPEG) ||
      venc.pic_width == 0 || venc.pic_height == 0 ||
      venc.pic_width > venc.max_pic_width ||
      venc.pic_height > venc.max_pic_height)
    return err(HI_ERR_VENC_ILLEGAL_PARAM);
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  if (!m.Initialized)
    return err(HI_ERR_VENC_SYS_NOT_READY);
  if (m.Encoders.count(chn))
    return err(HI_ERR_VENC_EXIST);
  hi_u32 bufferSize = venc.buf_size ? venc.buf_size : 2u << 20;
  void *memory = channelMemory("hi_mpi_venc_create_chn");
  void *buffer = nullptr;
  if (!memory || allocateOnDevice("hi_mpi_venc_create_chn", &buffer, bufferSize,
                                  bufferSize, MEM_DVPP, DVPP_MODULE_ID)) {
    if (memory)
      halMemFree(memory);
    return err(HI_ERR_VENC_NO_MEM);
  }
  EncoderChannel &channel = m.Encoders[chn];
  channel.memory = memory;
  channel.streamBuffer = buffer;
  channel.streamBufferSize = bufferSize;
  channel.attr = *attr;
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_destroy_chn(hi_venc_chn chn) {
  MediaSystem &m = media();
  std::lock_guard<std::mutex> lock(m.Mutex);
  auto channel = m.Encoders.find(chn);
  if (channel == m.Encoders.end())
    return err(chn < 0 || chn >= kEncoderChannels ? HI_ERR_VENC_INVALID_CHN_ID
                                                  : HI_ERR_VENC_UNEXIST);
  if (channel->second.receiving)
    return err(HI_ERR_VENC_NOT_PERM); // hi_mpi_venc_stop_chn first
  halMemFree(channel->second.streamBuffer);
  halMemFree(channel->second.memory);
  m.Encoders.erase(channel);
  markWaiting(m.EncoderFds, chn, false); // its output is gone
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_get_fd(hi_venc_chn chn) {
  return channelFd(
      &MediaSystem::Encoders, &MediaSystem::EncoderFds, chn, kEncoderFdErrors,
      [](const EncoderChannel &channel) { return !channel.encoded.empty(); });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_close_fd(hi_venc_chn chn) {
  return closeChannelFd(&MediaSystem::EncoderFds, chn, kEncoderFdErrors);
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_start_chn(hi_venc_chn chn, const hi_venc_start_param *recv_param) {
  if (!recv_param)
    return err(HI_ERR_VENC_NULL_PTR);
  return onEncoder(chn, [](EncoderChannel &channel) {
    channel.receiving = true;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_stop_chn(hi_venc_chn chn) {
  return onEncoder(chn, [](EncoderChannel &channel) {
    channel.receiving = false;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_query_status(hi_venc_chn chn, hi_venc_chn_status *status) {
  if (!status)
    return err(HI_ERR_VENC_NULL_PTR);
  return onEncoder(chn, [&](EncoderChannel &channel) {
    memset(status, 0, sizeof *status);
    status->left_stream_frames = static_cast<hi_u32>(channel.encoded.size());
    status->cur_packs = channel.encoded.empty() ? 0 : 1;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_send_frame(hi_venc_chn chn, const hi_video_frame_info *frame,
                       hi_s32 milli_sec) {
  (void)milli_sec;
  return encodeFrame(chn, frame, nullptr, 0);
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_send_jpege_frame(hi_venc_chn chn, const hi_video_frame_info *frame,
                             const hi_img_stream *jpege_stream,
                             hi_s32 milli_sec) {
  (void)milli_sec;
  if (!jpege_stream || !jpege_stream->addr)
    return err(HI_ERR_VENC_NULL_PTR);
  if (!inDeviceMemory(jpege_stream->addr))
    return err(HI_ERR_VENC_ILLEGAL_PARAM);
  return encodeFrame(chn, frame, jpege_stream->addr, jpege_stream->len);
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_get_jpege_predicted_size(const hi_video_frame_info *frame,
                                     const hi_venc_jpeg_param *jpeg_param,
                                     hi_u32 *size) {
  if (!frame || !jpeg_param || !size)
    return err(HI_ERR_VENC_NULL_PTR);
  const hi_video_frame &picture = frame->v_frame;
  if (picture.width == 0 || picture.height == 0)
    return err(HI_ERR_VENC_ILLEGAL_PARAM);
  // As acldvppJpegPredictEncSize: the picture, header and alignment, 2 MiB.
  uint64_t bytes = uint64_t(alignUp(picture.width, 16)) *
                       alignUp(picture.height, 2) * 3 / 2 +
                   768;
  constexpr uint64_t granule = 2u << 20;
  *size = static_cast<hi_u32>((bytes + granule - 1) / granule * granule);
  return HI_SUCCESS;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_get_stream(hi_venc_chn chn, hi_venc_stream *stream,
                       hi_s32 milli_sec) {
  (void)milli_sec; // a frame is encoded when it is sent
  if (!stream || !stream->pack || stream->pack_cnt == 0)
    return err(HI_ERR_VENC_NULL_PTR); // the caller provides the packs
  return onEncoder(chn, [&](EncoderChannel &channel) {
    if (channel.encoded.empty())
      return err(HI_ERR_VENC_BUF_EMPTY);
    stream->pack[0] = channel.encoded.front();
    channel.encoded.pop_front();
    markWaiting(media().EncoderFds, chn, !channel.encoded.empty());
    channel.held.insert(stream->pack[0].addr);
    stream->pack_cnt = 1;
    stream->seq = channel.sequence;
    return HI_SUCCESS;
  });
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_venc_release_stream(hi_venc_chn chn, hi_venc_stream *stream) {
  if (!stream || !stream->pack)
    return err(HI_ERR_VENC_NULL_PTR);
  // Only packs hi_mpi_venc_get_stream handed out from this channel, once.
  return onEncoder(chn, [&](EncoderChannel &channel) {
    std::multiset<const void *> held = channel.held;
    for (hi_u32 i = 0; i < stream->pack_cnt; ++i) {
      auto pack = held.find(stream->pack[i].addr);
      if (pack == held.end())
        return err(HI_ERR_VENC_ILLEGAL_PARAM);
      held.erase(pack);
    }
    channel.held = std::move(held);
    return HI_SUCCESS;
  });
}

} // extern "C"
