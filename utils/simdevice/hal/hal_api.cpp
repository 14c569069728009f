//===- hal_api.cpp - C entry points of libascend_hal.so -------------------===//
//
// Thin C wrappers over mssim::Driver; see driver.h for the behaviour.
//
//===----------------------------------------------------------------------===//
#include "driver.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

using mssim::Driver;

extern "C" {

DLLEXPORT drvError_t drvGetDevNum(uint32_t *num_dev) {
  return Driver::instance().deviceCount(num_dev);
}

DLLEXPORT drvError_t halMemAlloc(void **pp, unsigned long long size,
                                 unsigned long long flag) {
  return Driver::instance().memAlloc(pp, size, flag);
}

DLLEXPORT drvError_t halMemFree(void *pp) {
  return Driver::instance().memFree(pp);
}

DLLEXPORT drvError_t halMemGetInfo(DVdevice device, unsigned int type,
                                   struct MemInfo *info) {
  return Driver::instance().memGetInfo(device, type, info);
}

DLLEXPORT drvError_t halMemAddressReserve(void **ptr, size_t size,
                                          size_t alignment, void *addr,
                                          uint64_t flag) {
  return Driver::instance().addressReserve(ptr, size, alignment, addr, flag);
}

DLLEXPORT drvError_t halMemAddressFree(void *ptr) {
  return Driver::instance().addressFree(ptr);
}

DLLEXPORT drvError_t halMemCreate(drv_mem_handle_t **handle, size_t size,
                                  const struct drv_mem_prop *prop,
                                  uint64_t flag) {
  return Driver::instance().memCreate(handle, size, prop, flag);
}

DLLEXPORT drvError_t halMemRelease(drv_mem_handle_t *handle) {
  return Driver::instance().memRelease(handle);
}

DLLEXPORT drvError_t halMemMap(void *ptr, size_t size, size_t offset,
                               drv_mem_handle_t *handle, uint64_t flag) {
  return Driver::instance().memMap(ptr, size, offset, handle, flag);
}

DLLEXPORT drvError_t halMemUnmap(void *ptr) {
  return Driver::instance().memUnmap(ptr);
}

DLLEXPORT drvError_t halMemRetainAllocationHandle(drv_mem_handle_t **handle,
                                                  void *ptr) {
  return Driver::instance().memRetain(handle, ptr);
}

DLLEXPORT drvError_t halMemExportToShareableHandle(
    drv_mem_handle_t *handle, drv_mem_handle_type handle_type, uint64_t flags,
    uint64_t *shareable_handle) {
  return Driver::instance().memExport(handle, handle_type, flags,
                                      shareable_handle);
}

DLLEXPORT drvError_t halMemImportFromShareableHandle(
    uint64_t shareable_handle, uint32_t devid, drv_mem_handle_t **handle) {
  return Driver::instance().memImport(shareable_handle, devid, handle);
}

DLLEXPORT drvError_t halMemSetPidToShareableHandle(uint64_t shareable_handle,
                                                   int pid[],
                                                   uint32_t pid_num) {
  return Driver::instance().memSetPid(shareable_handle, pid, pid_num);
}

DLLEXPORT drvError_t halHostRegister(void *srcPtr, UINT64 size, UINT32 flag,
                                     UINT32 devid, void **dstPtr) {
  return Driver::instance().hostRegister(srcPtr, size, flag, devid, dstPtr);
}

DLLEXPORT drvError_t halHostUnregister(void *srcPtr, UINT32 devid) {
  return Driver::instance().hostUnregister(srcPtr, devid);
}

DLLEXPORT drvError_t drvMemGetAttribute(DVdeviceptr vptr,
                                        struct DVattribute *attr) {
  return Driver::instance().memAttribute(vptr, attr);
}

DLLEXPORT drvError_t drvMemcpy(DVdeviceptr dst, size_t destMax, DVdeviceptr src,
                               size_t byteCount) {
  return Driver::instance().memcpy(dst, destMax, src, byteCount);
}

DLLEXPORT drvError_t drvMemsetD8(DVdeviceptr dst, size_t destMax, UINT8 value,
                                 size_t num) {
  return Driver::instance().memset(dst, destMax, value, num);
}

DLLEXPORT drvError_t halMemcpy2D(struct MEMCPY2D *pCopy) {
  if (!pCopy || pCopy->type >= DEVMM_MEMCPY2D_TYPE_MAX)
    return DRV_ERROR_INVALID_VALUE;
  if (pCopy->type != DEVMM_MEMCPY2D_SYNC) {
    // DMA descriptors for a later asynchronous copy: nothing here to run
    // them.
    static std::atomic<bool> said{false};
    const char *quiet = getenv("MSSIM_QUIET_UNSIMULATED");
    if (!said.exchange(true) && !(quiet && strcmp(quiet, "1") == 0))
      fprintf(stderr,
              "mssim: halMemcpy2D of type %u is not simulated: only "
              "DEVMM_MEMCPY2D_SYNC copies (utils/simdevice/README.md)\n",
              pCopy->type);
    return DRV_ERROR_NOT_SUPPORT;
  }
  const struct drvMem2D &copy = pCopy->copy2d;
  if (!copy.dst || !copy.src || copy.width == 0 || copy.height == 0 ||
      copy.width > copy.dpitch || copy.width > copy.spitch)
    return DRV_ERROR_INVALID_VALUE;
  uint64_t dst = reinterpret_cast<uint64_t>(copy.dst);
  uint64_t src = reinterpret_cast<uint64_t>(copy.src);
  // The last row's end, without wrapping: row * pitch must not come round.
  for (auto [base, pitch] :
       {std::make_pair(dst, copy.dpitch), std::make_pair(src, copy.spitch)}) {
    unsigned long long span = 0;
    if (__builtin_mul_overflow(copy.height - 1, pitch, &span) ||
        __builtin_add_overflow(span, copy.width, &span) ||
        span > UINT64_MAX - base)
      return DRV_ERROR_INVALID_VALUE;
  }
  for (unsigned long long row = 0; row < copy.height; ++row)
    if (drvError_t error =
            Driver::instance().memcpy(dst + row * copy.dpitch, copy.width,
                                      src + row * copy.spitch, copy.width))
      return error;
  return DRV_ERROR_NONE;
}

} // extern "C"

// The npu-smi record goes when the process exits normally; one left by a
// killed process is removed by the next reader.
__attribute__((destructor)) static void unpublishAtExit() {
  if (Driver *driver = Driver::existing())
    driver->unpublish();
}
