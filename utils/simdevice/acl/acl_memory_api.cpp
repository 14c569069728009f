//===- acl_memory_api.cpp - AscendCL memory on top of the driver ----------===//
//
// Every allocation here is one driver call, as in the real runtime: device
// memory is padded to (size + 32 + 31) / 32 * 32 and requested with the
// application's module id (APP) in the flag. DVPP memory (acldvppMalloc and
// hi_mpi_dvpp_malloc) is device memory of another type, allocated by
// libacl_dvpp.so through allocateOnDevice.
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

using namespace mssim;

namespace mssim {

aclError allocateOnDevice(const char *api, void **devPtr, size_t size,
                          uint64_t request, unsigned long long type,
                          unsigned module) {
  if (!devPtr)
    return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr is null");
  if (size == 0)
    return fail(ACL_ERROR_INVALID_PARAM, api, "size is 0");
  int32_t device = currentDevice();
  if (device < 0)
    return fail(ACL_ERROR_RT_CONTEXT_NULL, api,
                "no device is set on this thread (call aclrtSetDevice)");
  drvError_t error =
      halMemAlloc(devPtr, request, driverFlag(device, type, module));
  if (error == DRV_ERROR_OUT_OF_MEMORY)
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, api,
                "out of device memory: " + std::to_string(size) +
                    " bytes on device " + std::to_string(device));
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), api,
                "driver error " + std::to_string(error));
  return ACL_SUCCESS;
}

aclError freeMemory(const char *api, void *ptr, bool synchronize) {
  if (!ptr)
    return fail(ACL_ERROR_INVALID_PARAM, api, "pointer is null");
  if (synchronize)
    aclrtSynchronizeDevice();
  drvError_t error = halMemFree(ptr);
  if (error != DRV_ERROR_NONE)
    return fail(ACL_ERROR_RT_MEMORY_FREE, api,
                hexAddress(ptr) + " is not a live allocation");
  return ACL_SUCCESS;
}

bool validPolicy(aclrtMemMallocPolicy policy) {
  unsigned value = static_cast<unsigned>(policy);
  unsigned base =
      value & ~static_cast<unsigned>(ACL_MEM_TYPE_LOW_BAND_WIDTH |
                                     ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                                     ACL_MEM_ACCESS_USER_SPACE_READONLY);
  return base <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

int32_t deviceOfMemory(const void *address) {
  DVattribute attr;
  if (drvMemGetAttribute(reinterpret_cast<DVdeviceptr>(address), &attr) !=
      DRV_ERROR_NONE)
    return -1;
  bool device = attr.memType == DV_MEM_LOCK_DEV ||
                attr.memType == DV_MEM_LOCK_DEV_DVPP ||
                attr.memType == DV_MEM_SVM_DEVICE;
  return device ? static_cast<int32_t>(attr.devId) : -1;
}

unsigned moduleFrom(const aclrtMallocConfig *cfg) {
  if (cfg && cfg->attrs)
    for (size_t i = 0; i < cfg->numAttrs; ++i)
      if (cfg->attrs[i].attr == ACL_RT_MEM_ATTR_MODULE_ID)
        return cfg->attrs[i].value.moduleId & 0xff;
  return APP_MODULE_ID;
}

} // namespace mssim

namespace {

unsigned long long pageFlag(aclrtMemMallocPolicy policy) {
  unsigned base = static_cast<unsigned>(policy) & 0xff;
  return (base == ACL_MEM_MALLOC_NORMAL_ONLY ||
          base == ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
             ? MEM_PAGE_NORMAL
             : MEM_PAGE_HUGE;
}

aclError deviceMalloc(const char *api, void **devPtr, size_t size,
                      aclrtMemMallocPolicy policy, uint64_t request,
                      unsigned module) {
  if (!validPolicy(policy))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown memory policy " +
                    std::to_string(static_cast<int>(policy)));
  return allocateOnDevice(api, devPtr, size, request,
                          MEM_DEV | pageFlag(policy), module);
}

bool isDeviceMemory(const void *ptr) { return deviceOfMemory(ptr) >= 0; }

/// Checks the direction a copy declares against where its pointers live.
aclError checkCopy(const char *api, void *dst, size_t destMax, const void *src,
                   size_t count, aclrtMemcpyKind kind) {
  if (!dst || !src)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null pointer");
  if (count > destMax)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "count " + std::to_string(count) + " exceeds destMax " +
                    std::to_string(destMax));
  bool dstDevice = isDeviceMemory(dst), srcDevice = isDeviceMemory(src);
  bool ok = true;
  switch (kind) {
  case ACL_MEMCPY_HOST_TO_HOST:
    ok = !dstDevice && !srcDevice;
    break;
  case ACL_MEMCPY_HOST_TO_DEVICE:
  case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
    ok = dstDevice && !srcDevice;
    break;
  case ACL_MEMCPY_DEVICE_TO_HOST:
    ok = !dstDevice && srcDevice;
    break;
  case ACL_MEMCPY_DEVICE_TO_DEVICE:
  case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
  case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
    ok = dstDevice && srcDevice;
    break;
  case ACL_MEMCPY_DEFAULT:
    break;
  default:
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown copy kind " + std::to_string(static_cast<int>(kind)));
  }
  if (!ok)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::string("copy kind does not match the pointers: dst is ") +
                    (dstDevice ? "device" : "host") + " memory, src is " +
                    (srcDevice ? "device" : "host") + " memory");
  return ACL_SUCCESS;
}

int copyError(drvError_t error) {
  return error == DRV_ERROR_NONE ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size,
                                         aclrtMemMallocPolicy policy) {
  return deviceMalloc("aclrtMalloc", devPtr, size, policy,
                      paddedDeviceSize(size), APP_MODULE_ID);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size,
                                               aclrtMemMallocPolicy policy) {
  return deviceMalloc("aclrtMallocCached", devPtr, size, policy,
                      paddedDeviceSize(size), APP_MODULE_ID);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size,
                                                aclrtMemMallocPolicy policy) {
  // Rounded to 32 bytes, without the extra 32 that aclrtMalloc adds.
  return deviceMalloc("aclrtMallocAlign32", devPtr, size, policy,
                      (size + 31) / 32 * 32, APP_MODULE_ID);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size,
                                                aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg) {
  return deviceMalloc("aclrtMallocWithCfg", devPtr, size, policy,
                      paddedDeviceSize(size), moduleFrom(cfg));
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr) {
  return freeMemory("aclrtFree", devPtr, false);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr) {
  return freeMemory("aclrtFreeWithDevSync", devPtr, true);
}

static aclError hostMalloc(const char *api, void **hostPtr, uint64_t size,
                           unsigned module) {
  if (!hostPtr)
    return fail(ACL_ERROR_INVALID_PARAM, api, "hostPtr is null");
  if (size == 0)
    return fail(ACL_ERROR_INVALID_PARAM, api, "size is 0");
  int32_t device = currentDevice();
  drvError_t error = halMemAlloc(
      hostPtr, size, driverFlag(device < 0 ? 0 : device, MEM_HOST, module));
  if (error != DRV_ERROR_NONE)
    return fail(error == DRV_ERROR_OUT_OF_MEMORY
                    ? ACL_ERROR_RT_MEMORY_ALLOCATION
                    : fromDriver(error),
                api,
                "cannot allocate " + std::to_string(size) +
                    " bytes of pinned host memory");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size) {
  return hostMalloc("aclrtMallocHost", hostPtr, size, APP_MODULE_ID);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size,
                                                    aclrtMallocConfig *cfg) {
  return hostMalloc("aclrtMallocHostWithCfg", ptr, size, moduleFrom(cfg));
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr) {
  return freeMemory("aclrtFreeHost", hostPtr, false);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr) {
  return freeMemory("aclrtFreeHostWithDevSync", hostPtr, true);
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size,
                                               aclrtHostRegisterType type,
                                               void **devPtr) {
  if (!ptr || !devPtr || size == 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtHostRegister",
                "null pointer or zero size");
  if (type != ACL_HOST_REGISTER_MAPPED)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtHostRegister",
                "unknown registration type");
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice("aclrtHostRegister");
  drvError_t error = halHostRegister(ptr, size, HOST_MEM_MAP_DEV,
                                     static_cast<UINT32>(device), devPtr);
  if (error == DRV_ERROR_REPEATED_USERD)
    return fail(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "aclrtHostRegister",
                hexAddress(ptr) +
                    " overlaps memory that is already registered");
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), "aclrtHostRegister",
                "driver error " + std::to_string(error));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr) {
  if (!ptr)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister",
                "pointer is null");
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice("aclrtHostUnregister");
  if (halHostUnregister(ptr, static_cast<UINT32>(device)) != DRV_ERROR_NONE)
    return fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister",
                hexAddress(ptr) + " is not registered on device " +
                    std::to_string(device));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size,
                                                    size_t alignment,
                                                    void *expectPtr,
                                                    uint64_t flags) {
  if (!virPtr || size == 0 || size % kMemGranularity != 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress",
                "size must be a non-zero multiple of the 2 MiB granularity");
  if (flags != 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress",
                "flags must be 0");
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice("aclrtReserveMemAddress");
  drvError_t error = halMemAddressReserve(virPtr, size, alignment, expectPtr,
                                          static_cast<uint64_t>(device));
  if (error != DRV_ERROR_NONE)
    return fail(
        error == DRV_ERROR_OUT_OF_MEMORY ? ACL_ERROR_RT_MEMORY_ALLOCATION
                                         : ACL_ERROR_INVALID_PARAM,
        "aclrtReserveMemAddress", "driver error " + std::to_string(error));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr) {
  if (!virPtr)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress",
                "pointer is null");
  drvError_t error = halMemAddressFree(virPtr);
  if (error == DRV_ERROR_BUSY)
    return fail(ACL_ERROR_RT_MEMORY_FREE, "aclrtReleaseMemAddress",
                hexAddress(virPtr) + " still has mappings");
  if (error != DRV_ERROR_NONE)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress",
                hexAddress(virPtr) + " is not a reservation");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                    const aclrtPhysicalMemProp *prop, uint64_t flags) {
  if (!handle || !prop || size == 0 || size % kMemGranularity != 0 ||
      flags != 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical",
                "need a handle, properties, flags 0 and a size that is a "
                "multiple of 2 MiB");
  if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical",
                "only device memory is supported");
  drv_mem_prop driverProp = {};
  driverProp.side = MEM_DEV_SIDE;
  driverProp.devid = prop->location.id;
  driverProp.module_id = APP_MODULE_ID;
  driverProp.pg_type =
      prop->memAttr == ACL_HBM_MEM_NORMAL || prop->memAttr == ACL_DDR_MEM_NORMAL
          ? 0
          : 1;
  drv_mem_handle_t *created = nullptr;
  drvError_t error = halMemCreate(&created, size, &driverProp, 0);
  if (error == DRV_ERROR_OUT_OF_MEMORY)
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocPhysical",
                "out of device memory");
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), "aclrtMallocPhysical",
                "driver error " + std::to_string(error));
  *handle = created;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  drvError_t error = halMemRelease(static_cast<drv_mem_handle_t *>(handle));
  if (error != DRV_ERROR_NONE)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical",
                "handle " + hexAddress(handle) +
                    " does not exist or was already freed");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size,
                                         size_t offset,
                                         aclrtDrvMemHandle handle,
                                         uint64_t flags) {
  if (!virPtr || !handle || flags != 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMapMem",
                "null pointer or handle, or flags not 0");
  drvError_t error = halMemMap(virPtr, size, offset,
                               static_cast<drv_mem_handle_t *>(handle), 0);
  if (error != DRV_ERROR_NONE)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMapMem",
                "cannot map (driver error " + std::to_string(error) + ")");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr) {
  if (halMemUnmap(virPtr) != DRV_ERROR_NONE)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem",
                hexAddress(virPtr) + " is not mapped");
  return ACL_SUCCESS;
}

// A handle's references, as the real driver counts them (hal/driver.h): a
// retain is one more aclrtFreePhysical, and memory released while mapped
// stays until it is unmapped. Shared memory: exported once, from the handle
// that made it; imported in this process only (another's is not simulated).
ACL_FUNC_VISIBILITY aclError
aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle) {
  const char *api = "aclrtMemRetainAllocationHandle";
  if (!virPtr || !handle)
    return fail(ACL_ERROR_INVALID_PARAM, api, "virPtr or handle is null");
  drv_mem_handle_t *retained = nullptr;
  drvError_t error = halMemRetainAllocationHandle(&retained, virPtr);
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), api,
                hexAddress(virPtr) + " is not mapped physical memory");
  *handle = retained;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(
    aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
    uint64_t *shareableHandle) {
  const char *api = "aclrtMemExportToShareableHandle";
  if (!handle || !shareableHandle || handleType != ACL_MEM_HANDLE_TYPE_NONE)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "need a handle, an output and ACL_MEM_HANDLE_TYPE_NONE");
  if (flags & ~ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown flags " + std::to_string(flags));
  drvError_t error = halMemExportToShareableHandle(
      static_cast<drv_mem_handle_t *>(handle), MEM_HANDLE_TYPE_NONE, flags,
      shareableHandle);
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), api,
                "handle " + hexAddress(handle) +
                    " is not physical memory this process made, or it was "
                    "exported before");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(
    uint64_t shareableHandle, int32_t *pid, size_t pidNum) {
  const char *api = "aclrtMemSetPidToShareableHandle";
  if (!pid || pidNum == 0 || pidNum > 65535)
    return fail(ACL_ERROR_INVALID_PARAM, api, "need 1 to 65535 pids");
  drvError_t error = halMemSetPidToShareableHandle(
      shareableHandle, pid, static_cast<uint32_t>(pidNum));
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), api,
                "not a shareable handle this process exported");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(
    uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle) {
  const char *api = "aclrtMemImportFromShareableHandle";
  if (!handle || deviceId < 0)
    return fail(ACL_ERROR_INVALID_PARAM, api, "handle is null, or no device");
  drv_mem_handle_t *imported = nullptr;
  drvError_t error = halMemImportFromShareableHandle(
      shareableHandle, static_cast<uint32_t>(deviceId), &imported);
  if (error == DRV_ERROR_NOT_SUPPORT)
    return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                "not simulated: physical memory of another process (pid " +
                    std::to_string(shareableHandle >> 32) + ")");
  if (error == DRV_ERROR_OPER_NOT_PERMITTED)
    return fail(ACL_ERROR_RT_NO_PERMISSION, api,
                "this process is not allowed to import the handle "
                "(aclrtMemSetPidToShareableHandle)");
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), api,
                "not an exported shareable handle, or not a device");
  *handle = imported;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(
    aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
    size_t *granularity) {
  (void)option;
  if (!prop || !granularity)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity",
                "null pointer");
  *granularity = kMemGranularity;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax,
                                         const void *src, size_t count,
                                         aclrtMemcpyKind kind) {
  if (aclError status =
          checkCopy("aclrtMemcpy", dst, destMax, src, count, kind))
    return status;
  drvError_t error = drvMemcpy(reinterpret_cast<DVdeviceptr>(dst), destMax,
                               reinterpret_cast<DVdeviceptr>(src), count);
  if (error != DRV_ERROR_NONE)
    return fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy",
                "a range lies outside a live allocation");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax,
                                              const void *src, size_t count,
                                              aclrtMemcpyKind kind,
                                              aclrtStream stream) {
  if (aclError status =
          checkCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind))
    return status;
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor("aclrtMemcpyAsync", stream, &status);
  if (!queue)
    return status;
  queue->enqueue([=] {
    return copyError(deviceCopy(reinterpret_cast<DVdeviceptr>(dst), destMax,
                                reinterpret_cast<DVdeviceptr>(src), count));
  });
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount,
                                         int32_t value, size_t count) {
  if (!devPtr || count > maxCount)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset",
                "null pointer or count exceeds maxCount");
  if (drvMemsetD8(reinterpret_cast<DVdeviceptr>(devPtr), maxCount,
                  static_cast<UINT8>(value), count) != DRV_ERROR_NONE)
    return fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset",
                "the range lies outside a live allocation");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount,
                                              int32_t value, size_t count,
                                              aclrtStream stream) {
  if (!devPtr || count > maxCount)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemsetAsync",
                "null pointer or count exceeds maxCount");
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor("aclrtMemsetAsync", stream, &status);
  if (!queue)
    return status;
  queue->enqueue([=] {
    return copyError(deviceSet(reinterpret_cast<DVdeviceptr>(devPtr), maxCount,
                               static_cast<UINT8>(value), count));
  });
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free,
                                             size_t *total) {
  if (!free || !total)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo",
                "null output pointer");
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice("aclrtGetMemInfo");
  bool ddr = attr == ACL_DDR_MEM || attr == ACL_DDR_MEM_HUGE ||
             attr == ACL_DDR_MEM_NORMAL || attr == ACL_DDR_MEM_P2P_HUGE ||
             attr == ACL_DDR_MEM_P2P_NORMAL;
  MemInfo info;
  drvError_t error = halMemGetInfo(
      device, ddr ? MEM_INFO_TYPE_DDR_SIZE : MEM_INFO_TYPE_HBM_SIZE, &info);
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), "aclrtGetMemInfo",
                "driver error " + std::to_string(error));
  *free = info.phy_info.free;
  *total = info.phy_info.total;
  return ACL_SUCCESS;
}

} // extern "C"
