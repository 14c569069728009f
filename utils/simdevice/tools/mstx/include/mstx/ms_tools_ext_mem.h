/*
 * mstx memory pools (simulated toolkit: our own text of the real types and
 * functions). A pool allocator registers the block it carves up as a heap,
 * then each piece it hands out as a region, and unregisters them again.
 */
#ifndef MSSIM_MSTX_TOOLS_EXT_MEM_H_
#define MSSIM_MSTX_TOOLS_EXT_MEM_H_

#include "mstx_detail/mstx_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mstxMemHeap_st mstxMemHeap_t;
typedef mstxMemHeap_t *mstxMemHeapHandle_t;

typedef struct mstxMemRegion_st mstxMemRegion_t;
typedef mstxMemRegion_t *mstxMemRegionHandle_t;

typedef struct mstxMemVirtualRangeDesc_t {
  uint32_t deviceId;
  void const *ptr;
  uint64_t size;
} mstxMemVirtualRangeDesc_t;

typedef enum mstxMemHeapUsageType {
  MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR = 0,
} mstxMemHeapUsageType;

typedef enum mstxMemType {
  MSTX_MEM_TYPE_VIRTUAL_ADDRESS = 0,
} mstxMemType;

typedef struct mstxMemHeapDesc_t {
  mstxMemHeapUsageType usage;
  mstxMemType type;
  void const *typeSpecificDesc; /* mstxMemVirtualRangeDesc_t for addresses */
} mstxMemHeapDesc_t;

typedef struct mstxMemRegionsRegisterBatch_t {
  mstxMemHeapHandle_t heap;
  mstxMemType regionType;
  size_t regionCount;
  void const *regionDescArray; /* mstxMemVirtualRangeDesc_t[regionCount] */
  mstxMemRegionHandle_t *regionHandleArrayOut;
} mstxMemRegionsRegisterBatch_t;

typedef enum mstxMemRegionRefType {
  MSTX_MEM_REGION_REF_TYPE_POINTER = 0,
  MSTX_MEM_REGION_REF_TYPE_HANDLE
} mstxMemRegionRefType;

typedef struct mstxMemRegionRef_t {
  mstxMemRegionRefType refType;
  union {
    void const *pointer;
    mstxMemRegionHandle_t handle;
  };
} mstxMemRegionRef_t;

typedef struct mstxMemRegionsUnregisterBatch_t {
  size_t refCount;
  mstxMemRegionRef_t const *refArray;
} mstxMemRegionsUnregisterBatch_t;

MSTX_DECLSPEC mstxMemHeapHandle_t
mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc);
MSTX_DECLSPEC void mstxMemHeapUnregister(mstxDomainHandle_t domain,
                                         mstxMemHeapHandle_t heap);
MSTX_DECLSPEC void
mstxMemRegionsRegister(mstxDomainHandle_t domain,
                       mstxMemRegionsRegisterBatch_t const *desc);
MSTX_DECLSPEC void
mstxMemRegionsUnregister(mstxDomainHandle_t domain,
                         mstxMemRegionsUnregisterBatch_t const *desc);

#ifdef __cplusplus
}
#endif

#endif

/* The implementation comes with the core header. */
#include "ms_tools_ext.h"
