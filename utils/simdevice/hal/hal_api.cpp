//===- hal_api.cpp - C entry points of libascend_hal.so -------------------===//
//
// Thin C wrappers over mssim::Driver; see driver.h for the behaviour.
//
//===----------------------------------------------------------------------===//
#include "driver.h"

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

} // extern "C"

// The npu-smi record goes when the process exits normally; one left by a
// killed process is removed by the next reader.
__attribute__((destructor)) static void unpublishAtExit() {
  if (Driver *driver = Driver::existing())
    driver->unpublish();
}
