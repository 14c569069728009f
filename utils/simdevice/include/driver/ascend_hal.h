/*
 * Simulated CANN device: the driver (HAL) interfaces below AscendCL.
 *
 * The ACL library of the simulated device reaches device memory only through
 * these calls, as the real runtime does, so a tool that interposes them sees
 * every device-level allocation the stack makes, including its own.
 */
#ifndef MSSIM_DRIVER_ASCEND_HAL_H
#define MSSIM_DRIVER_ASCEND_HAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLLEXPORT __attribute__((visibility("default")))

typedef enum tagDrvError {
  DRV_ERROR_NONE = 0,
  DRV_ERROR_NO_DEVICE = 1,
  DRV_ERROR_INVALID_DEVICE = 2,
  DRV_ERROR_INVALID_VALUE = 3,
  DRV_ERROR_INVALID_HANDLE = 4,
  DRV_ERROR_INVALID_MALLOC_TYPE = 5,
  DRV_ERROR_OUT_OF_MEMORY = 6,
  DRV_ERROR_INNER_ERR = 7,
  DRV_ERROR_PARA_ERROR = 8,
  DRV_ERROR_UNINIT = 9,
  DRV_ERROR_REPEATED_INIT = 10,
  DRV_ERROR_NOT_EXIST = 11,
  DRV_ERROR_REPEATED_USERD = 12,
  DRV_ERROR_BUSY = 13,
  DRV_ERROR_NO_RESOURCES = 14,
  DRV_ERROR_OPER_NOT_PERMITTED = 46,
  DRV_ERROR_NOT_SUPPORT = 0xfffe
} drvError_t;

typedef unsigned char UINT8;
typedef unsigned int UINT32;
typedef unsigned long long UINT64;
typedef UINT32 DVdevice;
typedef UINT64 DVdeviceptr;
typedef drvError_t DVresult;

/*
 * halMemAlloc flag layout:
 *   bit 0-9   device id
 *   bit 10-13 virtual memory type (SVM, DEV, HOST, DVPP, ...)
 *   bit 14-16 physical memory type (DDR, HBM)
 *   bit 17-18 page size (normal, huge)
 *   bit 19    physical continuity
 *   bit 20-24 alignment (2^n)
 *   bit 25-40 advice
 *   bit 56-63 module id of the caller
 */
#define MEM_DEVID_WIDTH 10
#define MEM_DEVID_MASK ((1ULL << MEM_DEVID_WIDTH) - 1)
#define MEM_VIRT_BIT 10
#define MEM_VIRT_WIDTH 4
#define MEM_SVM_VAL 0x0
#define MEM_DEV_VAL 0x1
#define MEM_HOST_VAL 0x2
#define MEM_DVPP_VAL 0x3
#define MEM_HOST_AGENT_VAL 0x4
#define MEM_RESERVE_VAL 0x5
#define MEM_MAX_VAL 0x6
#define MEM_SVM ((unsigned long long)MEM_SVM_VAL << MEM_VIRT_BIT)
#define MEM_DEV ((unsigned long long)MEM_DEV_VAL << MEM_VIRT_BIT)
#define MEM_HOST ((unsigned long long)MEM_HOST_VAL << MEM_VIRT_BIT)
#define MEM_DVPP ((unsigned long long)MEM_DVPP_VAL << MEM_VIRT_BIT)
#define MEM_HOST_AGENT ((unsigned long long)MEM_HOST_AGENT_VAL << MEM_VIRT_BIT)
#define MEM_RESERVE ((unsigned long long)MEM_RESERVE_VAL << MEM_VIRT_BIT)
#define MEM_PHY_BIT 14
#define MEM_TYPE_DDR (0x0ULL << MEM_PHY_BIT)
#define MEM_TYPE_HBM (0x1ULL << MEM_PHY_BIT)
#define MEM_PAGE_BIT 17
#define MEM_PAGE_NORMAL (0x0ULL << MEM_PAGE_BIT)
#define MEM_PAGE_HUGE (0x1ULL << MEM_PAGE_BIT)
#define MEM_MODULE_ID_BIT 56
#define MEM_MODULE_ID_WIDTH 8
#define MEM_MODULE_ID_MASK ((1UL << MEM_MODULE_ID_WIDTH) - 1)

/* Module ids carried in the top byte of the flag (those of the stack the
 * simulation names; enumerators, as in the real header). */
enum {
  HCCL_HAL_MODULE_ID = 3,
  DVPP_MODULE_ID = 6,
  RUNTIME_MODULE_ID = 7,
  APP_MODULE_ID = 33,
  GE_MODULE_ID = 45
};

/* Physical memory for the virtual memory management interfaces. */
typedef struct drv_mem_handle drv_mem_handle_t;

typedef enum {
  MEM_HANDLE_TYPE_NONE = 0x0,
  MEM_HANDLE_TYPE_FABRIC = 0x1,
  MEM_HANDLE_TYPE_MAX = 0x2
} drv_mem_handle_type;
enum drv_mem_side {
  MEM_HOST_SIDE = 0,
  MEM_DEV_SIDE,
  MEM_HOST_NUMA_SIDE,
  MEM_MAX_SIDE
};

struct drv_mem_prop {
  uint32_t side;  /* enum drv_mem_side */
  uint32_t devid; /* device the memory lives on */
  uint32_t module_id;
  uint32_t pg_type; /* 0 normal pages, 1 huge pages */
  uint32_t mem_type;
  uint64_t reserve;
};

/* What halHostRegister maps (its flag). */
enum drvRegisterTpye {
  HOST_MEM_MAP_DEV = 0,
  HOST_SVM_MAP_DEV,
  DEV_SVM_MAP_HOST,
  HOST_MEM_MAP_DEV_PCIE_TH,
  DEV_MEM_MAP_HOST,
  HOST_MEM_MAP_DMA,
  HOST_REGISTER_MAX_TPYE
};

/* halMemGetInfo types. */
#define MEM_INFO_TYPE_DDR_SIZE 0x1
#define MEM_INFO_TYPE_HBM_SIZE 0x2

struct MemPhyInfo {
  unsigned long total;
  unsigned long free;
  unsigned long huge_total;
  unsigned long huge_free;
};

struct MemInfo {
  union {
    struct MemPhyInfo phy_info;
    uint8_t reserved[128];
  };
};

DLLEXPORT drvError_t drvGetDevNum(uint32_t *num_dev);

DLLEXPORT drvError_t halMemAlloc(void **pp, unsigned long long size,
                                 unsigned long long flag);
DLLEXPORT drvError_t halMemFree(void *pp);
DLLEXPORT DVresult halMemGetInfo(DVdevice device, unsigned int type,
                                 struct MemInfo *info);

DLLEXPORT drvError_t halMemAddressReserve(void **ptr, size_t size,
                                          size_t alignment, void *addr,
                                          uint64_t flag);
DLLEXPORT drvError_t halMemAddressFree(void *ptr);
DLLEXPORT drvError_t halMemCreate(drv_mem_handle_t **handle, size_t size,
                                  const struct drv_mem_prop *prop,
                                  uint64_t flag);
DLLEXPORT drvError_t halMemRelease(drv_mem_handle_t *handle);
DLLEXPORT drvError_t halMemMap(void *ptr, size_t size, size_t offset,
                               drv_mem_handle_t *handle, uint64_t flag);
DLLEXPORT drvError_t halMemUnmap(void *ptr);
DLLEXPORT drvError_t halMemRetainAllocationHandle(drv_mem_handle_t **handle,
                                                  void *ptr);
DLLEXPORT drvError_t halMemExportToShareableHandle(
    drv_mem_handle_t *handle, drv_mem_handle_type handle_type, uint64_t flags,
    uint64_t *shareable_handle);
DLLEXPORT drvError_t halMemImportFromShareableHandle(uint64_t shareable_handle,
                                                     uint32_t devid,
                                                     drv_mem_handle_t **handle);
DLLEXPORT drvError_t halMemSetPidToShareableHandle(uint64_t shareable_handle,
                                                   int pid[], uint32_t pid_num);

DLLEXPORT drvError_t halHostRegister(void *srcPtr, UINT64 size, UINT32 flag,
                                     UINT32 devid, void **dstPtr);
DLLEXPORT drvError_t halHostUnregister(void *srcPtr, UINT32 devid);

/* Pointer attributes (drvMemGetAttribute). */
#define DV_MEM_LOCK_HOST 0x0008
#define DV_MEM_LOCK_DEV 0x0010
#define DV_MEM_LOCK_DEV_DVPP 0x0020
#define DV_MEM_SVM_DEVICE                                                      \
  0x0004 /* a mapped virtual range, registered host memory */

struct DVattribute {
  UINT32 memType; /* one of DV_MEM_*, 0 for memory the driver does not know */
  UINT32 resv1;
  UINT32 resv2;
  UINT32 devId;
  UINT32 pageSize;
  UINT32 resv3;
};

DLLEXPORT DVresult drvMemGetAttribute(DVdeviceptr vptr,
                                      struct DVattribute *attr);

DLLEXPORT DVresult drvMemcpy(DVdeviceptr dst, size_t destMax, DVdeviceptr src,
                             size_t byteCount);
DLLEXPORT DVresult drvMemsetD8(DVdeviceptr dst, size_t destMax, UINT8 value,
                               size_t num);

/* 2-D copies: height rows of width bytes, each side's rows its pitch apart. */
enum DEVMM_MEMCPY2D_TYPE {
  DEVMM_MEMCPY2D_SYNC = 0,
  DEVMM_MEMCPY2D_ASYNC_CONVERT = 1, /* into DMA descriptors: not simulated */
  DEVMM_MEMCPY2D_ASYNC_DESTROY = 2, /* not simulated */
  DEVMM_MEMCPY2D_TYPE_MAX
};

struct DMA_ADDR; /* the asynchronous forms' descriptors: not simulated */

struct drvMem2D {
  unsigned long long *dst;
  unsigned long long dpitch;
  unsigned long long *src;
  unsigned long long spitch;
  unsigned long long width;
  unsigned long long height;
  unsigned long long fixed_size; /* the asynchronous forms' */
  unsigned int direction;
  unsigned int resv1;
  unsigned long long resv2;
};

struct drvMem2DAsync {
  struct drvMem2D copy2dInfo;
  struct DMA_ADDR *dmaAddr;
};

struct MEMCPY2D {
  unsigned int type; /* DEVMM_MEMCPY2D_* */
  unsigned int resv;
  union {
    struct drvMem2D copy2d;
    struct drvMem2DAsync copy2dAsync;
  };
};

DLLEXPORT drvError_t halMemcpy2D(struct MEMCPY2D *pCopy);

#ifdef __cplusplus
}
#endif

#endif
