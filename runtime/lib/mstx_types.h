//===- mstx_types.h - mstx's types, as msledger needs them ------*- C++ -*-===//
//
// Contract: what msledger's mstx injection library (mstx_injection.cpp)
// needs of mstx, our own declarations: the memory-pool descriptors the
// application passes, the handles, and the injection protocol -- the
// modules of mstx's function table, each one's slots and the function
// InitInjectionMstx is handed to find them. The facts are the real headers'
// (a toolkit's tools/mstx/include/mstx/: ms_tools_ext.h,
// ms_tools_ext_mem.h and the function table of mstx_detail/), which the
// application compiles into itself: values and layouts are fixed by them,
// member for member. unittests/runtime/CannTypesTest.cpp checks each
// against the simulated toolkit's copies. Names the real headers define as
// macros are macros here too.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_MSTX_TYPES_H
#define MSLEDGER_RUNTIME_MSTX_TYPES_H

#include "cann_types.h"

#include <cstddef>
#include <cstdint>

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1
#define MSTX_TOOL_MSSANITIZER_ID 0x1002

typedef uint64_t mstxRangeId;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

// Memory pools (ms_tools_ext_mem.h).
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
  void const *typeSpecificDesc; // mstxMemVirtualRangeDesc_t for addresses
} mstxMemHeapDesc_t;

typedef struct mstxMemRegionsRegisterBatch_t {
  mstxMemHeapHandle_t heap;
  mstxMemType regionType;
  size_t regionCount;
  void const *regionDescArray; // mstxMemVirtualRangeDesc_t[regionCount]
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

// The function table an injection library fills: the modules, and the
// slots of each that msledger fills (slot 0 is never used; the real enums
// have more enumerators, of the same underlying type).
typedef enum mstxFuncModule {
  MSTX_API_MODULE_CORE = 1,
  MSTX_API_MODULE_CORE_DOMAIN = 2,
  MSTX_API_MODULE_CORE_MEM = 3
} mstxFuncModule;

typedef enum mstxImplCoreFuncId {
  MSTX_API_CORE_MARK_A = 1,
  MSTX_API_CORE_RANGE_START_A = 2,
  MSTX_API_CORE_RANGE_END = 3,
  MSTX_API_CORE_GET_TOOL_ID = 4
} mstxImplCoreFuncId;

typedef enum mstxImplCoreDomainFuncId {
  MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
  MSTX_API_CORE2_DOMAIN_DESTROY = 2,
  MSTX_API_CORE2_DOMAIN_MARK_A = 3,
  MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
  MSTX_API_CORE2_DOMAIN_RANGE_END = 5
} mstxImplCoreDomainFuncId;

typedef enum mstxImplCoreMemFuncId {
  MSTX_API_CORE_MEMHEAP_REGISTER = 1,
  MSTX_API_CORE_MEMHEAP_UNREGISTER = 2,
  MSTX_API_CORE_MEM_REGIONS_REGISTER = 3,
  MSTX_API_CORE_MEM_REGIONS_UNREGISTER = 4
} mstxImplCoreMemFuncId;

typedef void (*mstxFuncPointer)(void);
typedef mstxFuncPointer **mstxFuncTable;

/// What the application hands the injection library: for a module, its
/// table of slots (each the address of one function pointer) and how many
/// slots follow slot 0.
typedef int (*mstxGetModuleFuncTableFunc)(mstxFuncModule module,
                                          mstxFuncTable *outTable,
                                          unsigned int *outSize);

#endif
