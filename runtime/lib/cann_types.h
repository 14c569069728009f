//===- cann_types.h - CANN's types, as msledger uses them -------*- C++ -*-===//
//
// Contract: the CANN types and constants the runtime is built from, our own
// declarations, so that no runtime target includes a toolkit's headers (or
// the simulated toolkit's, which the tests run on): every type a catalog
// signature names (cann_api.h declares the catalog's functions with them),
// and the values the runtime itself uses. The facts are the real headers'
// (AscendCL's acl_base.h, acl_rt.h, acl/ops/acl_dvpp.h, acl/dvpp/hi_dvpp*.h,
// aclnn's aclnn/acl_meta.h, HCCL's hccl/hccl_types.h, the driver's
// ascend_hal.h), the same in every
// release the catalog covers:
//
//   * handles and descriptions passed by pointer are opaque here: only the
//     pointer crosses msledger;
//   * enums passed by value and never looked into are declared by their
//     underlying type alone (the type the compiler gives the real enum:
//     int with a negative enumerator, else unsigned int); those whose values
//     the runtime reads (aclrtMemcpyKind, drvError_t) carry them;
//   * structs whose members the interposers read (aclrtPhysicalMemProp's
//     location.id, drv_mem_prop's devid, MEMCPY2D's copy) are laid out
//     whole, member for member.
//
// unittests/runtime/CannTypesTest.cpp compiles these next to the simulated
// toolkit's headers (our copies of the real declarations) and checks that
// each type, value and layout is the same, and that every catalog function
// declared with them is declared the same way there. Names that the real
// headers define as macros (hi_void) are macros here too.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_CANN_TYPES_H
#define MSLEDGER_RUNTIME_CANN_TYPES_H

#include <cstddef>
#include <cstdint>

// AscendCL (acl_base.h, acl_rt.h, acl_mdl.h, acl_op.h).
typedef int aclError;
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;

typedef void *aclrtStream;
typedef void *aclrtContext;
typedef void *aclrtEvent;
typedef void *aclrtNotify;
typedef void *aclrtDrvMemHandle;

typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclTensorDesc aclTensorDesc;
typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclopAttr aclopAttr;
typedef struct aclrtStreamConfigHandle aclrtStreamConfigHandle;
typedef struct aclrtMallocConfig aclrtMallocConfig;

enum aclDataType : int {};
enum aclFormat : int {};

// Models and operators (acl_mdl.h, acl_op.h, acl_op_compiler.h,
// acl/ops/acl_cblas.h).
typedef struct aclmdlAIPP aclmdlAIPP;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
typedef struct aclmdlExecConfigHandle aclmdlExecConfigHandle;
typedef void *aclmdlRI;
typedef struct aclopHandle aclopHandle;
typedef struct aclGraphDumpOption aclGraphDumpOption;
enum aclTransType : unsigned {};
enum aclComputeType : unsigned {};

// Runtime binaries, labels, notifies, allocators, groups, buffers (acl_rt.h,
// acl_rt_allocator.h).
typedef void *aclrtBinary;
typedef void *aclrtBinHandle;
typedef struct aclrtBinaryLoadOptions aclrtBinaryLoadOptions;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtCntNotify;
typedef void *aclrtAllocatorDesc;
typedef struct tagRtGroupInfo aclrtGroupInfo;
typedef void *aclrtMbuf;

// Profiling (acl/acl_prof.h). aclprofAicoreMetrics is an anonymous enum
// there.
typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
enum aclprofAicoreMetrics : unsigned {};

// Tensor data transfer (acl/acl_tdt.h, acl/acl_tdt_queue.h).
enum acltdtTensorType : int {};
typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;
typedef struct tagMemQueueAttr acltdtQueueAttr;
typedef struct acltdtQueueRoute acltdtQueueRoute;
typedef struct acltdtQueueRouteList acltdtQueueRouteList;
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;
typedef void *acltdtBuf;

// Feature vector search (acl/ops/acl_fv.h).
typedef struct aclfvInitPara aclfvInitPara;
typedef struct aclfvFeatureInfo aclfvFeatureInfo;
typedef struct aclfvRepoRange aclfvRepoRange;
typedef struct aclfvQueryTable aclfvQueryTable;
typedef struct aclfvSearchInput aclfvSearchInput;
typedef struct aclfvSearchResult aclfvSearchResult;

// aclnn's framework (aclnn/acl_meta.h).
typedef int32_t aclnnStatus;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef struct aclOpExecutor aclOpExecutor;
enum aclrtMemMallocPolicy : unsigned {};
enum aclrtHostRegisterType : unsigned {};

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

enum aclrtMemAttr : unsigned {};
enum aclrtMemLocationType : unsigned {};
enum aclrtMemAllocationType : unsigned {};
enum aclrtMemHandleType : unsigned {};
enum aclrtMemSharedHandleType : unsigned {};

typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location;
  uint64_t reserve;
} aclrtPhysicalMemProp;

// Passed by value (aclrtIpcOpenEventHandle): the whole layout matters.
typedef struct aclrtIpcEventHandle {
  char reserved[64]; // ACL_IPC_EVENT_HANDLE_SIZE
} aclrtIpcEventHandle;

// DVPP (acl/ops/acl_dvpp.h) and its hi_mpi interfaces (acl/dvpp/hi_dvpp*.h).
typedef struct acldvppChannelDesc acldvppChannelDesc;
typedef struct acldvppPicDesc acldvppPicDesc;
typedef struct acldvppResizeConfig acldvppResizeConfig;
typedef struct acldvppRoiConfig acldvppRoiConfig;
typedef struct acldvppStreamDesc acldvppStreamDesc;
typedef struct aclvdecChannelDesc aclvdecChannelDesc;
typedef struct aclvencChannelDesc aclvencChannelDesc;
typedef struct acldvppBatchPicDesc acldvppBatchPicDesc;
typedef struct acldvppBorderConfig acldvppBorderConfig;
typedef struct acldvppHist acldvppHist;
typedef struct acldvppJpegeConfig acldvppJpegeConfig;
typedef struct acldvppLutMap acldvppLutMap;
typedef struct aclvdecFrameConfig aclvdecFrameConfig;
typedef struct aclvencFrameConfig aclvencFrameConfig;

typedef int hi_s32;
typedef unsigned int hi_u32;
typedef unsigned long long hi_u64;
typedef char hi_char;
#define hi_void void
typedef hi_u32 hi_vb_pool;
typedef hi_u32 hi_vb_blk;
typedef hi_s32 hi_vpc_chn;
typedef hi_s32 hi_vdec_chn;
typedef hi_s32 hi_venc_chn;
typedef hi_s32 hi_pngd_chn;
// Anonymous structs in the real headers: a tag of ours.
typedef struct msledger_hi_vpc_chn_attr hi_vpc_chn_attr;
typedef struct msledger_hi_vdec_chn_attr hi_vdec_chn_attr;
typedef struct msledger_hi_venc_chn_attr hi_venc_chn_attr;
typedef struct msledger_hi_pngd_chn_attr hi_pngd_chn_attr;
typedef struct msledger_hi_vb_pool_config hi_vb_pool_config;

// HCCL (hccl/hccl.h, hccl/hccl_types.h). HcclResult is an anonymous enum
// there: ours has its underlying type and the values the runtime uses.
enum HcclResult : unsigned { HCCL_SUCCESS = 0, HCCL_E_NOT_SUPPORT = 5 };
typedef void *HcclComm;
typedef struct HcclRootInfoDef HcclRootInfo;
typedef struct HcclCommConfigDef HcclCommConfig;
typedef void *HcclCommSymWindow;

// The driver (driver/ascend_hal.h).
typedef enum tagDrvError {
  DRV_ERROR_NONE = 0,
  DRV_ERROR_NOT_SUPPORT = 0xfffe
} drvError_t;

typedef unsigned char UINT8;
typedef unsigned int UINT32;
typedef unsigned long long UINT64;
typedef UINT64 DVdeviceptr;

typedef struct drv_mem_handle drv_mem_handle_t;

struct drv_mem_prop {
  uint32_t side;
  uint32_t devid;
  uint32_t module_id;
  uint32_t pg_type;
  uint32_t mem_type;
  uint64_t reserve;
};

struct DMA_ADDR;

struct drvMem2D {
  unsigned long long *dst;
  unsigned long long dpitch;
  unsigned long long *src;
  unsigned long long spitch;
  unsigned long long width;
  unsigned long long height;
  unsigned long long fixed_size;
  unsigned int direction;
  unsigned int resv1;
  unsigned long long resv2;
};

struct drvMem2DAsync {
  struct drvMem2D copy2dInfo;
  struct DMA_ADDR *dmaAddr;
};

struct MEMCPY2D {
  unsigned int type;
  unsigned int resv;
  union {
    struct drvMem2D copy2d;
    struct drvMem2DAsync copy2dAsync;
  };
};

#endif
