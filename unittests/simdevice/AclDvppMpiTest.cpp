//===- AclDvppMpiTest.cpp - hi_mpi: the media system and VPC --------------===//
#include "AclTestSupport.h"
#include "acl/dvpp/hi_dvpp.h"
#include "acl/ops/acl_dvpp.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <vector>

namespace {

using AclDvppMpi = AclTest;

/// A YUV420SP picture of `side` x `side` in DVPP memory, its luma `luma`.
hi_vpc_pic_info picture(hi_u32 side, hi_u8 luma) {
  hi_vpc_pic_info info;
  memset(&info, 0, sizeof info);
  hi_u32 bytes = side * side * 3 / 2;
  EXPECT_EQ(hi_mpi_dvpp_malloc(0, &info.picture_address, bytes), HI_SUCCESS);
  std::vector<hi_u8> pixels(bytes, 0x80);
  memset(pixels.data(), luma, side * side);
  aclrtMemcpy(info.picture_address, bytes, pixels.data(), bytes,
              ACL_MEMCPY_HOST_TO_DEVICE);
  info.picture_buffer_size = bytes;
  info.picture_width = info.picture_height = side;
  info.picture_width_stride = info.picture_height_stride = side;
  info.picture_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  return info;
}

hi_u8 lumaAt(const hi_vpc_pic_info &info, hi_u32 x, hi_u32 y) {
  hi_u8 value = 0;
  aclrtMemcpy(&value, 1,
              static_cast<hi_u8 *>(info.picture_address) +
                  y * info.picture_width_stride + x,
              1, ACL_MEMCPY_DEVICE_TO_HOST);
  return value;
}

/// The attributes of a JPEG encoder channel of 64 x 64 pictures.
hi_venc_chn_attr jpegEncoder64() {
  hi_venc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.venc_attr.type = HI_PT_JPEG;
  attr.venc_attr.max_pic_width = attr.venc_attr.pic_width = 64;
  attr.venc_attr.max_pic_height = attr.venc_attr.pic_height = 64;
  return attr;
}

/// A 64 x 64 YUV420SP frame in DVPP memory (none if it cannot have it).
hi_video_frame_info frame64() {
  hi_video_frame_info frame;
  memset(&frame, 0, sizeof frame);
  frame.v_frame.width = frame.v_frame.height = 64;
  frame.v_frame.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  EXPECT_EQ(hi_mpi_dvpp_malloc(0, &frame.v_frame.virt_addr[0], 64 * 96),
            HI_SUCCESS);
  return frame;
}

} // namespace

TEST_F(AclDvppMpi, VpcChannelsWantTheMediaSystemAndOwnDeviceMemory) {
  hi_vpc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  EXPECT_EQ(hi_mpi_vpc_create_chn(0, &attr),
            static_cast<hi_s32>(HI_ERR_VPC_SYS_NOT_READY));
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  size_t before = deviceBytesInUse();
  ASSERT_EQ(hi_mpi_vpc_create_chn(3, &attr), HI_SUCCESS);
  EXPECT_GT(deviceBytesInUse(), before);
  EXPECT_EQ(hi_mpi_vpc_create_chn(3, &attr),
            static_cast<hi_s32>(HI_ERR_VPC_EXIST));
  EXPECT_EQ(hi_mpi_vpc_create_chn(VPC_MAX_CHN_NUM, &attr),
            static_cast<hi_s32>(HI_ERR_VPC_INVALID_CHN_ID));
  hi_vpc_chn picked = -1;
  ASSERT_EQ(hi_mpi_vpc_sys_create_chn(&picked, &attr), HI_SUCCESS);
  EXPECT_EQ(picked, 0);
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(picked), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(3), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(3), static_cast<hi_s32>(HI_ERR_VPC_UNEXIST));
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

TEST_F(AclDvppMpi, ResizeAndCropResizePasteOnRealPixels) {
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  hi_vpc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  ASSERT_EQ(hi_mpi_vpc_create_chn(0, &attr), HI_SUCCESS);
  hi_vpc_pic_info source = picture(64, 200), small = picture(32, 0),
                  canvas = picture(64, 10);
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_resize(0, &source, &small, 0, 0, 0, &task, -1),
            HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vpc_get_process_result(0, task, -1), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vpc_get_process_result(0, task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM))
      << "a task's result is collected once";
  EXPECT_EQ(lumaAt(small, 31, 31), 200);

  hi_vpc_crop_resize_paste_region region;
  memset(&region, 0, sizeof region);
  region.dest_pic_info = canvas;
  region.crop_region = {0, 0, 32, 32};
  region.resize_info = {16, 16, 0};
  region.dest_top_offset = 8;
  region.dest_left_offset = 8;
  ASSERT_EQ(hi_mpi_vpc_crop_resize_paste(0, &source, &region, 1, &task, -1),
            HI_SUCCESS);
  EXPECT_EQ(lumaAt(canvas, 10, 10), 200) << "inside the paste area";
  EXPECT_EQ(lumaAt(canvas, 40, 40), 10) << "outside it, as it was";
  region.dest_left_offset = 60; // the paste runs past the picture
  EXPECT_EQ(hi_mpi_vpc_crop_resize_paste(0, &source, &region, 1, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  source.picture_width_stride = 60; // no multiple of 16
  EXPECT_EQ(hi_mpi_vpc_resize(0, &source, &small, 0, 0, 0, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));

  for (hi_vpc_pic_info *info : {&source, &small, &canvas})
    hi_mpi_dvpp_free(info->picture_address);
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(0), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

TEST_F(AclDvppMpi, JpegDecodingThroughAVdecChannel) {
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  hi_vdec_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = HI_PT_JPEG;
  attr.mode = HI_VDEC_SEND_MODE_FRAME;
  attr.pic_width = attr.pic_height = 4096;
  ASSERT_EQ(hi_mpi_vdec_create_chn(1, &attr), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vdec_create_chn(1, &attr),
            static_cast<hi_s32>(HI_ERR_VDEC_EXIST));

  // A JPEG header: SOI, SOF0 of 100 x 40, three components at 4:2:0, EOI.
  const hi_u8 jpeg[] = {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00,
                        0x28, 0x00, 0x64, 0x03, 0x01, 0x22, 0x00, 0x02,
                        0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9};
  void *input = nullptr;
  ASSERT_EQ(hi_mpi_dvpp_malloc(0, &input, sizeof jpeg), HI_SUCCESS);
  aclrtMemcpy(input, sizeof jpeg, jpeg, sizeof jpeg, ACL_MEMCPY_HOST_TO_DEVICE);
  hi_vdec_stream stream;
  memset(&stream, 0, sizeof stream);
  stream.addr = static_cast<hi_u8 *>(input);
  stream.len = sizeof jpeg;
  stream.end_of_frame = HI_TRUE;
  hi_img_info info;
  ASSERT_EQ(hi_mpi_dvpp_get_image_info(HI_PT_JPEG, &stream, &info), HI_SUCCESS);
  EXPECT_EQ(info.width, 100u);
  EXPECT_EQ(info.height, 40u);
  EXPECT_EQ(info.pixel_format, HI_JPEG_RAW_FORMAT_YUV420);
  void *output = nullptr;
  ASSERT_EQ(hi_mpi_dvpp_malloc(0, &output, info.img_buf_size), HI_SUCCESS);
  hi_vdec_pic_info out;
  memset(&out, 0, sizeof out);
  out.width = info.width;
  out.height = info.height;
  out.width_stride = info.width_stride;
  out.height_stride = info.height_stride;
  out.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  out.vir_addr = reinterpret_cast<hi_u64>(output);
  out.buffer_size = info.img_buf_size;

  EXPECT_EQ(hi_mpi_vdec_send_stream(1, &stream, &out, -1),
            static_cast<hi_s32>(HI_ERR_VDEC_NOT_PERM))
      << "not receiving yet";
  ASSERT_EQ(hi_mpi_vdec_start_recv_stream(1), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_vdec_send_stream(1, &stream, &out, -1), HI_SUCCESS);
  hi_video_frame_info frame;
  hi_vdec_supplement_info supplement;
  hi_vdec_stream echoed;
  ASSERT_EQ(hi_mpi_vdec_get_frame(1, &frame, &supplement, &echoed, -1),
            HI_SUCCESS);
  EXPECT_EQ(frame.v_frame.width, 100u);
  EXPECT_EQ(frame.v_frame.virt_addr[0], output);
  EXPECT_EQ(echoed.addr, stream.addr);
  hi_video_frame_info other = frame;
  other.v_frame.virt_addr[0] = stream.addr;
  EXPECT_EQ(hi_mpi_vdec_release_frame(1, &other),
            static_cast<hi_s32>(HI_ERR_VDEC_ILLEGAL_PARAM))
      << "not a frame the channel handed out";
  EXPECT_EQ(hi_mpi_vdec_release_frame(1, &frame), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vdec_release_frame(1, &frame),
            static_cast<hi_s32>(HI_ERR_VDEC_ILLEGAL_PARAM))
      << "given back already";
  EXPECT_EQ(hi_mpi_vdec_get_frame(1, &frame, &supplement, &echoed, 0),
            static_cast<hi_s32>(HI_ERR_VDEC_BUF_EMPTY));
  EXPECT_EQ(hi_mpi_vdec_destroy_chn(1),
            static_cast<hi_s32>(HI_ERR_VDEC_NOT_PERM))
      << "still receiving";
  EXPECT_EQ(hi_mpi_vdec_stop_recv_stream(1), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_vdec_destroy_chn(1), HI_SUCCESS);
  hi_mpi_dvpp_free(input);
  hi_mpi_dvpp_free(output);
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

TEST_F(AclDvppMpi, PngDecodingAndJpegEncoding) {
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  size_t before = deviceBytesInUse();
  // PNG: the signature and an IHDR of 40 x 20, RGB, 8 bits.
  hi_u8 png[64] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0,
                   0,    0,   13,  'I', 'H',  'D',  'R',  0,    0,
                   0,    40,  0,   0,   0,    20,   8,    2};
  hi_pngd_chn_attr pngAttr;
  memset(&pngAttr, 0, sizeof pngAttr);
  ASSERT_EQ(hi_mpi_pngd_create_chn(2, &pngAttr), HI_SUCCESS);
  hi_img_stream stream;
  memset(&stream, 0, sizeof stream);
  stream.type = HI_PT_PNG;
  stream.addr = png;
  stream.len = sizeof png;
  hi_img_info info;
  ASSERT_EQ(hi_mpi_png_get_image_info(&stream, &info), HI_SUCCESS);
  EXPECT_EQ(info.width, 40u);
  EXPECT_EQ(info.png_pixel_format, HI_PNG_COLOR_FORMAT_RGB);
  hi_pic_info out;
  memset(&out, 0, sizeof out);
  ASSERT_EQ(hi_mpi_dvpp_malloc(0, &out.picture_address, info.img_buf_size),
            HI_SUCCESS);
  out.picture_buffer_size = info.img_buf_size;
  out.picture_format = HI_PIXEL_FORMAT_RGB_888;
  ASSERT_EQ(hi_mpi_pngd_send_stream(2, &stream, &out, -1), HI_SUCCESS);
  hi_pic_info decoded;
  ASSERT_EQ(hi_mpi_pngd_get_image_data(2, &decoded, &stream, -1), HI_SUCCESS);
  EXPECT_EQ(decoded.picture_width, 40u);
  EXPECT_EQ(hi_mpi_pngd_get_image_data(2, &decoded, &stream, 0),
            static_cast<hi_s32>(HI_ERR_PNGD_BUF_EMPTY));
  EXPECT_EQ(hi_mpi_pngd_destroy_chn(2), HI_SUCCESS);
  hi_mpi_dvpp_free(out.picture_address);

  // JPEG encoding of a 64 x 64 frame through a VENC channel.
  hi_venc_chn_attr attr = jpegEncoder64();
  ASSERT_EQ(hi_mpi_venc_create_chn(4, &attr), HI_SUCCESS);
  EXPECT_GT(deviceBytesInUse(), before) << "the channel and its stream buffer";
  hi_video_frame_info frame = frame64();
  ASSERT_NE(frame.v_frame.virt_addr[0], nullptr);
  EXPECT_EQ(hi_mpi_venc_send_frame(4, &frame, -1),
            static_cast<hi_s32>(HI_ERR_VENC_NOT_PERM))
      << "not started";
  hi_venc_start_param start = {-1};
  ASSERT_EQ(hi_mpi_venc_start_chn(4, &start), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_venc_send_frame(4, &frame, -1), HI_SUCCESS);
  hi_venc_chn_status status;
  ASSERT_EQ(hi_mpi_venc_query_status(4, &status), HI_SUCCESS);
  EXPECT_EQ(status.cur_packs, 1u);
  hi_venc_pack pack;
  hi_venc_stream encoded;
  memset(&encoded, 0, sizeof encoded);
  encoded.pack = &pack;
  encoded.pack_cnt = status.cur_packs;
  ASSERT_EQ(hi_mpi_venc_get_stream(4, &encoded, -1), HI_SUCCESS);
  std::vector<hi_u8> bytes(pack.len);
  aclrtMemcpy(bytes.data(), pack.len, pack.addr, pack.len,
              ACL_MEMCPY_DEVICE_TO_HOST);
  hi_u32 width = 0, height = 0;
  int32_t components = 0;
  EXPECT_EQ(acldvppJpegGetImageInfo(bytes.data(), pack.len, &width, &height,
                                    &components),
            ACL_SUCCESS);
  EXPECT_EQ(width, 64u);
  EXPECT_EQ(hi_mpi_venc_release_stream(4, &encoded), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_release_stream(4, &encoded),
            static_cast<hi_s32>(HI_ERR_VENC_ILLEGAL_PARAM))
      << "given back already";
  EXPECT_EQ(hi_mpi_venc_destroy_chn(4),
            static_cast<hi_s32>(HI_ERR_VENC_NOT_PERM))
      << "stop first";
  EXPECT_EQ(hi_mpi_venc_stop_chn(4), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_destroy_chn(4), HI_SUCCESS);
  hi_mpi_dvpp_free(frame.v_frame.virt_addr[0]);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

TEST_F(AclDvppMpi, EpollInstancesAreOpenFilesUntilClosed) {
  hi_s32 epoll = -1;
  EXPECT_EQ(hi_mpi_sys_create_epoll(10, &epoll),
            static_cast<hi_s32>(HI_ERR_SYS_NOT_READY))
      << "the media system first";
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_sys_create_epoll(10, nullptr),
            static_cast<hi_s32>(HI_ERR_SYS_NULL_PTR));
  EXPECT_EQ(hi_mpi_sys_create_epoll(0, &epoll),
            static_cast<hi_s32>(HI_ERR_SYS_ILLEGAL_PARAM));
  ASSERT_EQ(hi_mpi_sys_create_epoll(10, &epoll), HI_SUCCESS);
  EXPECT_NE(fcntl(epoll, F_GETFD), -1) << "an open file of the process";
  EXPECT_EQ(hi_mpi_sys_close_epoll(epoll), HI_SUCCESS);
  EXPECT_EQ(fcntl(epoll, F_GETFD), -1);
  EXPECT_EQ(hi_mpi_sys_close_epoll(epoll),
            static_cast<hi_s32>(HI_ERR_SYS_ILLEGAL_PARAM))
      << "closed already";
  EXPECT_EQ(hi_mpi_sys_close_epoll(0),
            static_cast<hi_s32>(HI_ERR_SYS_ILLEGAL_PARAM))
      << "not an epoll instance of the media system";
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

/// Whether descriptor `fd` is readable now.
static bool readable(int fd) {
  pollfd watched = {fd, POLLIN, 0};
  return poll(&watched, 1, 0) == 1 && (watched.revents & POLLIN);
}

TEST_F(AclDvppMpi, ChannelDescriptorsAreReadableWhileOutputWaits) {
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_get_fd(5), static_cast<hi_s32>(HI_ERR_VENC_UNEXIST))
      << "no channel 5";
  EXPECT_EQ(hi_mpi_venc_get_fd(-1),
            static_cast<hi_s32>(HI_ERR_VENC_INVALID_CHN_ID));
  hi_venc_chn_attr attr = jpegEncoder64();
  ASSERT_EQ(hi_mpi_venc_create_chn(5, &attr), HI_SUCCESS);
  hi_s32 fd = hi_mpi_venc_get_fd(5);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(hi_mpi_venc_get_fd(5), fd) << "the same until closed";
  EXPECT_FALSE(readable(fd)) << "nothing encoded yet";

  hi_video_frame_info frame = frame64();
  ASSERT_NE(frame.v_frame.virt_addr[0], nullptr);
  hi_venc_start_param start = {-1};
  ASSERT_EQ(hi_mpi_venc_start_chn(5, &start), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_venc_send_frame(5, &frame, -1), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_venc_send_frame(5, &frame, -1), HI_SUCCESS);
  EXPECT_TRUE(readable(fd)) << "two streams wait";
  hi_venc_pack pack;
  hi_venc_stream encoded;
  memset(&encoded, 0, sizeof encoded);
  encoded.pack = &pack;
  encoded.pack_cnt = 1;
  ASSERT_EQ(hi_mpi_venc_get_stream(5, &encoded, -1), HI_SUCCESS);
  EXPECT_TRUE(readable(fd)) << "one stream waits";
  ASSERT_EQ(hi_mpi_venc_release_stream(5, &encoded), HI_SUCCESS);
  encoded.pack_cnt = 1;
  ASSERT_EQ(hi_mpi_venc_get_stream(5, &encoded, -1), HI_SUCCESS);
  EXPECT_FALSE(readable(fd)) << "none waits";
  ASSERT_EQ(hi_mpi_venc_release_stream(5, &encoded), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_venc_send_frame(5, &frame, -1), HI_SUCCESS);
  EXPECT_TRUE(readable(fd));

  ASSERT_EQ(hi_mpi_venc_stop_chn(5), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_venc_destroy_chn(5), HI_SUCCESS);
  EXPECT_NE(fcntl(fd, F_GETFD), -1)
      << "destroying the channel leaves its descriptor open";
  EXPECT_FALSE(readable(fd)) << "with nothing waiting";
  EXPECT_EQ(hi_mpi_venc_close_fd(5), HI_SUCCESS);
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);
  EXPECT_EQ(hi_mpi_venc_close_fd(5), static_cast<hi_s32>(HI_ERR_VENC_UNEXIST))
      << "closed already";
  EXPECT_EQ(hi_mpi_vdec_close_fd(VDEC_MAX_CHN_NUM),
            static_cast<hi_s32>(HI_ERR_VDEC_INVALID_CHN_ID));
  hi_mpi_dvpp_free(frame.v_frame.virt_addr[0]);
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

TEST_F(AclDvppMpi, OneExitEndsTheMediaSystemAndAnotherIsNoFailure) {
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS) << "again is no failure";
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
  hi_s32 epoll = -1;
  EXPECT_EQ(hi_mpi_sys_create_epoll(1, &epoll),
            static_cast<hi_s32>(HI_ERR_SYS_NOT_READY))
      << "one exit ended it";
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS) << "again is no failure";
}
