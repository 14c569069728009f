//===- acl_dvpp_api.cpp - DVPP memory, descriptors and channels -----------===//
#include "acl/dvpp/hi_dvpp.h"
#include "acl/ops/acl_dvpp.h"
#include "dvpp_objects.h"
#include "runtime.h"

#include <atomic>

using namespace mssim;

namespace {

/// Sets one field of a live picture description.
template <typename Field>
aclError setPicField(const char *api, acldvppPicDesc *desc,
                     Field acldvppPicDesc::*field, Field value) {
  if (!Runtime::instance().isLive(desc, HandleKind::PicDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api, "unknown picture description");
  desc->*field = value;
  return ACL_SUCCESS;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY acldvppPicDesc *acldvppCreatePicDesc(void) {
  return trackHandle(new acldvppPicDesc, HandleKind::PicDesc);
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc) {
  if (!picDesc)
    return ACL_SUCCESS; // as the real library: nothing to destroy
  return destroyHandle("acldvppDestroyPicDesc", picDesc, HandleKind::PicDesc);
}

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescData(acldvppPicDesc *picDesc,
                                                   void *dataDev) {
  return setPicField("acldvppSetPicDescData", picDesc, &acldvppPicDesc::data,
                     dataDev);
}

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescSize(acldvppPicDesc *picDesc,
                                                   uint32_t size) {
  return setPicField("acldvppSetPicDescSize", picDesc, &acldvppPicDesc::size,
                     size);
}

ACL_FUNC_VISIBILITY aclError
acldvppSetPicDescFormat(acldvppPicDesc *picDesc, acldvppPixelFormat format) {
  return setPicField("acldvppSetPicDescFormat", picDesc,
                     &acldvppPicDesc::format, format);
}

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescWidth(acldvppPicDesc *picDesc,
                                                    uint32_t width) {
  return setPicField("acldvppSetPicDescWidth", picDesc, &acldvppPicDesc::width,
                     width);
}

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescHeight(acldvppPicDesc *picDesc,
                                                     uint32_t height) {
  return setPicField("acldvppSetPicDescHeight", picDesc,
                     &acldvppPicDesc::height, height);
}

ACL_FUNC_VISIBILITY void *acldvppGetPicDescData(const acldvppPicDesc *picDesc) {
  return Runtime::instance().isLive(picDesc, HandleKind::PicDesc)
             ? picDesc->data
             : nullptr;
}

ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescSize(const acldvppPicDesc *picDesc) {
  return Runtime::instance().isLive(picDesc, HandleKind::PicDesc)
             ? picDesc->size
             : 0;
}

ACL_FUNC_VISIBILITY acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left,
                                                             uint32_t right,
                                                             uint32_t top,
                                                             uint32_t bottom) {
  if (left > right || top > bottom) {
    fail(ACL_ERROR_INVALID_PARAM, "acldvppCreateRoiConfig",
         "left > right or top > bottom");
    return nullptr;
  }
  return trackHandle(new acldvppRoiConfig{left, right, top, bottom},
                     HandleKind::RoiConfig);
}

ACL_FUNC_VISIBILITY aclError
acldvppDestroyRoiConfig(acldvppRoiConfig *roiConfig) {
  if (!roiConfig)
    return ACL_SUCCESS; // as the real library: nothing to destroy
  return destroyHandle("acldvppDestroyRoiConfig", roiConfig,
                       HandleKind::RoiConfig);
}

ACL_FUNC_VISIBILITY acldvppResizeConfig *acldvppCreateResizeConfig(void) {
  return trackHandle(new acldvppResizeConfig, HandleKind::ResizeConfig);
}

ACL_FUNC_VISIBILITY aclError
acldvppDestroyResizeConfig(acldvppResizeConfig *resizeConfig) {
  if (!resizeConfig)
    return ACL_SUCCESS; // as the real library: nothing to destroy
  return destroyHandle("acldvppDestroyResizeConfig", resizeConfig,
                       HandleKind::ResizeConfig);
}

ACL_FUNC_VISIBILITY acldvppChannelDesc *acldvppCreateChannelDesc(void) {
  return trackHandle(new acldvppChannelDesc, HandleKind::ChannelDesc);
}

ACL_FUNC_VISIBILITY aclError
acldvppDestroyChannelDesc(acldvppChannelDesc *channelDesc) {
  // Destroying the description of a live channel leaves the channel (and its
  // device memory) behind, as on the real stack: that is a leak to report.
  if (!channelDesc)
    return ACL_SUCCESS; // as the real library: nothing to destroy
  return destroyHandle("acldvppDestroyChannelDesc", channelDesc,
                       HandleKind::ChannelDesc);
}

ACL_FUNC_VISIBILITY uint64_t
acldvppGetChannelDescChannelId(const acldvppChannelDesc *channelDesc) {
  return Runtime::instance().isLive(channelDesc, HandleKind::ChannelDesc)
             ? channelDesc->channelId
             : 0;
}

ACL_FUNC_VISIBILITY aclError
acldvppSetChannelDescMode(acldvppChannelDesc *channelDesc, uint32_t mode) {
  constexpr uint32_t all = DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD |
                           DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD;
  if (!Runtime::instance().isLive(channelDesc, HandleKind::ChannelDesc))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppSetChannelDescMode",
                "unknown channel description");
  if (mode == 0 || (mode & ~all))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppSetChannelDescMode",
                "mode " + std::to_string(mode) +
                    " is not a combination of DVPP_CHNMODE_VPC, "
                    "DVPP_CHNMODE_JPEGD, DVPP_CHNMODE_JPEGE and "
                    "DVPP_CHNMODE_PNGD");
  channelDesc->mode = mode;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
acldvppCreateChannel(acldvppChannelDesc *channelDesc) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(channelDesc, HandleKind::ChannelDesc))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppCreateChannel",
                "unknown channel description");
  if (channelDesc->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppCreateChannel",
                "the channel already exists");
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice("acldvppCreateChannel");
  void *memory = nullptr;
  drvError_t error = halMemAlloc(&memory, kDvppChannelBytes,
                                 driverFlag(device, MEM_DVPP, DVPP_MODULE_ID));
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), "acldvppCreateChannel",
                "cannot allocate the channel's device memory");
  static std::atomic<uint64_t> nextChannelId{0};
  channelDesc->channelMemory = memory;
  channelDesc->device = device;
  channelDesc->channelId = nextChannelId++;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
acldvppDestroyChannel(acldvppChannelDesc *channelDesc) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(channelDesc, HandleKind::ChannelDesc))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppDestroyChannel",
                "unknown channel description");
  if (!channelDesc->channelMemory)
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppDestroyChannel",
                "the channel does not exist or was destroyed");
  halMemFree(channelDesc->channelMemory);
  channelDesc->channelMemory = nullptr;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppMalloc(void **devPtr, size_t size) {
  return allocateOnDevice("acldvppMalloc", devPtr, size, size, MEM_DVPP,
                          APP_MODULE_ID);
}

ACL_FUNC_VISIBILITY aclError acldvppMallocWithCfg(void **devPtr, size_t size,
                                                  aclrtMemMallocPolicy policy,
                                                  aclrtMallocConfig *cfg) {
  // DVPP memory as acldvppMalloc's; the policy is checked as aclrtMalloc
  // checks it, the configuration's module id kept.
  if (!validPolicy(policy))
    return fail(ACL_ERROR_INVALID_PARAM, "acldvppMallocWithCfg",
                "unknown memory policy " +
                    std::to_string(static_cast<int>(policy)));
  return allocateOnDevice("acldvppMallocWithCfg", devPtr, size, size, MEM_DVPP,
                          moduleFrom(cfg));
}

ACL_FUNC_VISIBILITY aclError acldvppFree(void *devPtr) {
  return freeMemory("acldvppFree", devPtr, false);
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_dvpp_malloc(hi_u32 dev_id, hi_void **dev_ptr, hi_u64 size) {
  if (!dev_ptr)
    return HI_ERR_VPC_NULL_PTR;
  if (size == 0)
    return HI_ERR_VPC_ILLEGAL_PARAM;
  drvError_t error = halMemAlloc(
      dev_ptr, size,
      driverFlag(static_cast<int32_t>(dev_id), MEM_DVPP, APP_MODULE_ID));
  if (error == DRV_ERROR_OUT_OF_MEMORY)
    return HI_ERR_VPC_NO_MEM;
  return error == DRV_ERROR_NONE ? HI_SUCCESS : HI_ERR_VPC_ILLEGAL_PARAM;
}

__attribute__((visibility("default"))) hi_s32
hi_mpi_dvpp_free(hi_void *dev_ptr) {
  if (!dev_ptr)
    return HI_ERR_VPC_NULL_PTR;
  return halMemFree(dev_ptr) == DRV_ERROR_NONE ? HI_SUCCESS
                                               : HI_ERR_VPC_ILLEGAL_PARAM;
}

} // extern "C"
