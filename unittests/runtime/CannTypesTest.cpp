//===- CannTypesTest.cpp - the runtime's own CANN declarations ------------===//
//
// The runtime is built from declarations of its own (cann_types.h,
// mstx_types.h, and cann_api.h's declarations made from the catalog), never
// from a toolkit's headers. Here they meet the simulated toolkit's headers
// -- our copies of the real declarations, which declare every catalog API --
// and must agree:
//   * every interposed catalog function, declared again from its catalog
//     signature after the toolkit declared it: any difference in a
//     parameter's or the result's type does not compile;
//   * every type, value and layout of our headers, namespaced in `own`
//     (static_asserts); a macro of ours that differs from the toolkit's is
//     a redefinition, an error under this test's -Werror.
//
//===----------------------------------------------------------------------===//
// The catalog's "headers", which declare its functions in a toolkit.
#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/dvpp/hi_dvpp.h"
#include "acl/ops/acl_cblas.h"
#include "acl/ops/acl_dvpp.h"
#include "acl/ops/acl_fv.h"
#include "aclnn/aclnn_base.h"
#include "driver/ascend_hal.h"
#include "hccl/hccl.h"
#include "msledger/msledger.h"
// mstx's declarations alone, not its implementation.
#define MSTX_NO_IMPL
#include "mstx/ms_tools_ext.h"
#include "mstx/ms_tools_ext_mem.h"

#include "catalog.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
#define MSLEDGER_DECLARATION(name, result, parameters) result name parameters;
#include "catalog_table.inc"
}

namespace own {
#include "cann_types.h"
#include "mstx_types.h"
} // namespace own

namespace {

template <typename Ours, typename Theirs>
constexpr bool kSameType = std::is_same_v<Ours, Theirs>;

/// An enum declared by its underlying type alone is passed as the real one.
template <typename Ours, typename Theirs>
constexpr bool kSameEnum = std::is_same_v<std::underlying_type_t<Ours>,
                                          std::underlying_type_t<Theirs>>;

#define SAME_VALUE(name)                                                       \
  static_assert(static_cast<long long>(own::name) ==                           \
                    static_cast<long long>(::name),                            \
                #name)
#define SAME_SIZE(type)                                                        \
  static_assert(sizeof(own::type) == sizeof(::type) &&                         \
                    alignof(own::type) == alignof(::type),                     \
                #type)
#define SAME_OFFSET(type, member)                                              \
  static_assert(offsetof(own::type, member) == offsetof(::type, member),       \
                #type "." #member)

// AscendCL.
static_assert(kSameType<own::aclError, ::aclError>);
static_assert(kSameType<own::aclnnStatus, ::aclnnStatus>);
SAME_VALUE(ACL_SUCCESS);
SAME_VALUE(ACL_ERROR_API_NOT_SUPPORT);
SAME_VALUE(ACL_ERROR_FEATURE_UNSUPPORTED);
static_assert(kSameType<own::aclrtStream, ::aclrtStream>);
static_assert(kSameType<own::aclrtContext, ::aclrtContext>);
static_assert(kSameType<own::aclrtEvent, ::aclrtEvent>);
static_assert(kSameType<own::aclrtNotify, ::aclrtNotify>);
static_assert(kSameType<own::aclrtDrvMemHandle, ::aclrtDrvMemHandle>);
static_assert(kSameEnum<own::aclDataType, ::aclDataType>);
static_assert(kSameEnum<own::aclFormat, ::aclFormat>);
static_assert(kSameType<own::aclmdlRI, ::aclmdlRI>);
static_assert(kSameEnum<own::aclTransType, ::aclTransType>);
static_assert(kSameEnum<own::aclComputeType, ::aclComputeType>);
static_assert(kSameType<own::aclrtBinary, ::aclrtBinary>);
static_assert(kSameType<own::aclrtBinHandle, ::aclrtBinHandle>);
static_assert(kSameType<own::aclrtFuncHandle, ::aclrtFuncHandle>);
static_assert(kSameType<own::aclrtArgsHandle, ::aclrtArgsHandle>);
static_assert(kSameType<own::aclrtLabel, ::aclrtLabel>);
static_assert(kSameType<own::aclrtLabelList, ::aclrtLabelList>);
static_assert(kSameType<own::aclrtCntNotify, ::aclrtCntNotify>);
static_assert(kSameType<own::aclrtAllocatorDesc, ::aclrtAllocatorDesc>);
static_assert(kSameType<own::aclrtMbuf, ::aclrtMbuf>);
static_assert(kSameEnum<own::aclprofAicoreMetrics, ::aclprofAicoreMetrics>);
static_assert(kSameEnum<own::acltdtTensorType, ::acltdtTensorType>);
static_assert(kSameType<own::acltdtBuf, ::acltdtBuf>);
static_assert(kSameEnum<own::aclrtMemMallocPolicy, ::aclrtMemMallocPolicy>);
static_assert(kSameEnum<own::aclrtHostRegisterType, ::aclrtHostRegisterType>);
static_assert(kSameEnum<own::aclrtMemcpyKind, ::aclrtMemcpyKind>);
SAME_VALUE(ACL_MEMCPY_HOST_TO_HOST);
SAME_VALUE(ACL_MEMCPY_HOST_TO_DEVICE);
SAME_VALUE(ACL_MEMCPY_DEVICE_TO_HOST);
SAME_VALUE(ACL_MEMCPY_DEVICE_TO_DEVICE);
SAME_VALUE(ACL_MEMCPY_DEFAULT);
SAME_VALUE(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE);
SAME_VALUE(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE);
SAME_VALUE(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE);
static_assert(kSameEnum<own::aclrtMemAttr, ::aclrtMemAttr>);
static_assert(kSameEnum<own::aclrtMemLocationType, ::aclrtMemLocationType>);
static_assert(kSameEnum<own::aclrtMemAllocationType, ::aclrtMemAllocationType>);
static_assert(kSameEnum<own::aclrtMemHandleType, ::aclrtMemHandleType>);
SAME_SIZE(aclrtMemLocation);
SAME_OFFSET(aclrtMemLocation, id);
SAME_OFFSET(aclrtMemLocation, type);
SAME_SIZE(aclrtIpcEventHandle);
SAME_OFFSET(aclrtIpcEventHandle, reserved);
SAME_SIZE(aclrtPhysicalMemProp);
SAME_OFFSET(aclrtPhysicalMemProp, handleType);
SAME_OFFSET(aclrtPhysicalMemProp, allocationType);
SAME_OFFSET(aclrtPhysicalMemProp, memAttr);
SAME_OFFSET(aclrtPhysicalMemProp, location);
SAME_OFFSET(aclrtPhysicalMemProp, reserve);

// DVPP's hi_mpi interfaces.
static_assert(kSameType<own::hi_s32, ::hi_s32>);
static_assert(kSameType<own::hi_u32, ::hi_u32>);
static_assert(kSameType<own::hi_u64, ::hi_u64>);
static_assert(kSameType<own::hi_vpc_chn, ::hi_vpc_chn>);
static_assert(kSameType<own::hi_vdec_chn, ::hi_vdec_chn>);
static_assert(kSameType<own::hi_venc_chn, ::hi_venc_chn>);
static_assert(kSameType<own::hi_pngd_chn, ::hi_pngd_chn>);
static_assert(kSameType<own::hi_char, ::hi_char>);
static_assert(kSameType<own::hi_vb_pool, ::hi_vb_pool>);
static_assert(kSameType<own::hi_vb_blk, ::hi_vb_blk>);

// HCCL.
static_assert(kSameEnum<own::HcclResult, ::HcclResult>);
SAME_VALUE(HCCL_SUCCESS);
SAME_VALUE(HCCL_E_NOT_SUPPORT);
static_assert(kSameType<own::HcclComm, ::HcclComm>);
static_assert(kSameType<own::HcclCommSymWindow, ::HcclCommSymWindow>);

// The driver.
static_assert(kSameEnum<own::drvError_t, ::drvError_t>);
SAME_VALUE(DRV_ERROR_NONE);
SAME_VALUE(DRV_ERROR_NOT_SUPPORT);
static_assert(kSameType<own::UINT8, ::UINT8>);
static_assert(kSameType<own::UINT32, ::UINT32>);
static_assert(kSameType<own::UINT64, ::UINT64>);
static_assert(kSameType<own::DVdeviceptr, ::DVdeviceptr>);
SAME_SIZE(drv_mem_prop);
SAME_OFFSET(drv_mem_prop, side);
SAME_OFFSET(drv_mem_prop, devid);
SAME_OFFSET(drv_mem_prop, module_id);
SAME_OFFSET(drv_mem_prop, pg_type);
SAME_OFFSET(drv_mem_prop, mem_type);
SAME_OFFSET(drv_mem_prop, reserve);
SAME_SIZE(drvMem2D);
SAME_OFFSET(drvMem2D, dst);
SAME_OFFSET(drvMem2D, dpitch);
SAME_OFFSET(drvMem2D, src);
SAME_OFFSET(drvMem2D, spitch);
SAME_OFFSET(drvMem2D, width);
SAME_OFFSET(drvMem2D, height);
SAME_OFFSET(drvMem2D, fixed_size);
SAME_OFFSET(drvMem2D, direction);
SAME_OFFSET(drvMem2D, resv1);
SAME_OFFSET(drvMem2D, resv2);
SAME_SIZE(drvMem2DAsync);
SAME_OFFSET(drvMem2DAsync, copy2dInfo);
SAME_OFFSET(drvMem2DAsync, dmaAddr);
SAME_SIZE(MEMCPY2D);
SAME_OFFSET(MEMCPY2D, type);
SAME_OFFSET(MEMCPY2D, resv);
SAME_OFFSET(MEMCPY2D, copy2d);
SAME_OFFSET(MEMCPY2D, copy2dAsync);

// mstx: what the application passes, and the injection protocol.
static_assert(kSameType<own::mstxRangeId, ::mstxRangeId>);
SAME_SIZE(mstxMemVirtualRangeDesc_t);
SAME_OFFSET(mstxMemVirtualRangeDesc_t, deviceId);
SAME_OFFSET(mstxMemVirtualRangeDesc_t, ptr);
SAME_OFFSET(mstxMemVirtualRangeDesc_t, size);
static_assert(kSameEnum<own::mstxMemHeapUsageType, ::mstxMemHeapUsageType>);
SAME_VALUE(MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR);
static_assert(kSameEnum<own::mstxMemType, ::mstxMemType>);
SAME_VALUE(MSTX_MEM_TYPE_VIRTUAL_ADDRESS);
SAME_SIZE(mstxMemHeapDesc_t);
SAME_OFFSET(mstxMemHeapDesc_t, usage);
SAME_OFFSET(mstxMemHeapDesc_t, type);
SAME_OFFSET(mstxMemHeapDesc_t, typeSpecificDesc);
SAME_SIZE(mstxMemRegionsRegisterBatch_t);
SAME_OFFSET(mstxMemRegionsRegisterBatch_t, heap);
SAME_OFFSET(mstxMemRegionsRegisterBatch_t, regionType);
SAME_OFFSET(mstxMemRegionsRegisterBatch_t, regionCount);
SAME_OFFSET(mstxMemRegionsRegisterBatch_t, regionDescArray);
SAME_OFFSET(mstxMemRegionsRegisterBatch_t, regionHandleArrayOut);
static_assert(kSameEnum<own::mstxMemRegionRefType, ::mstxMemRegionRefType>);
SAME_VALUE(MSTX_MEM_REGION_REF_TYPE_POINTER);
SAME_VALUE(MSTX_MEM_REGION_REF_TYPE_HANDLE);
SAME_SIZE(mstxMemRegionRef_t);
SAME_OFFSET(mstxMemRegionRef_t, refType);
SAME_OFFSET(mstxMemRegionRef_t, pointer);
SAME_OFFSET(mstxMemRegionRef_t, handle);
SAME_SIZE(mstxMemRegionsUnregisterBatch_t);
SAME_OFFSET(mstxMemRegionsUnregisterBatch_t, refCount);
SAME_OFFSET(mstxMemRegionsUnregisterBatch_t, refArray);
static_assert(kSameEnum<own::mstxFuncModule, ::mstxFuncModule>);
SAME_VALUE(MSTX_API_MODULE_CORE);
SAME_VALUE(MSTX_API_MODULE_CORE_DOMAIN);
SAME_VALUE(MSTX_API_MODULE_CORE_MEM);
static_assert(kSameEnum<own::mstxImplCoreFuncId, ::mstxImplCoreFuncId>);
SAME_VALUE(MSTX_API_CORE_MARK_A);
SAME_VALUE(MSTX_API_CORE_RANGE_START_A);
SAME_VALUE(MSTX_API_CORE_RANGE_END);
SAME_VALUE(MSTX_API_CORE_GET_TOOL_ID);
static_assert(
    kSameEnum<own::mstxImplCoreDomainFuncId, ::mstxImplCoreDomainFuncId>);
SAME_VALUE(MSTX_API_CORE2_DOMAIN_CREATE_A);
SAME_VALUE(MSTX_API_CORE2_DOMAIN_DESTROY);
SAME_VALUE(MSTX_API_CORE2_DOMAIN_MARK_A);
SAME_VALUE(MSTX_API_CORE2_DOMAIN_RANGE_START_A);
SAME_VALUE(MSTX_API_CORE2_DOMAIN_RANGE_END);
static_assert(kSameEnum<own::mstxImplCoreMemFuncId, ::mstxImplCoreMemFuncId>);
SAME_VALUE(MSTX_API_CORE_MEMHEAP_REGISTER);
SAME_VALUE(MSTX_API_CORE_MEMHEAP_UNREGISTER);
SAME_VALUE(MSTX_API_CORE_MEM_REGIONS_REGISTER);
SAME_VALUE(MSTX_API_CORE_MEM_REGIONS_UNREGISTER);
static_assert(kSameType<own::mstxFuncPointer, ::mstxFuncPointer>);
static_assert(kSameType<own::mstxFuncTable, ::mstxFuncTable>);
static_assert(kSameType<own::mstxGetModuleFuncTableFunc,
                        int (*)(own::mstxFuncModule, own::mstxFuncTable *,
                                unsigned int *)>);
static_assert(
    kSameType<::mstxGetModuleFuncTableFunc,
              int (*)(::mstxFuncModule, ::mstxFuncTable *, unsigned int *)>);
static_assert(MSTX_SUCCESS == 0 && MSTX_FAIL == 1 &&
              MSTX_TOOL_MSSANITIZER_ID == 0x1002);

/// The functions cann_api.h declares, from catalog_table.inc's rows.
const char *const kDeclared[] = {
#define MSLEDGER_DECLARATION(name, result, parameters) #name,
#include "catalog_table.inc"
};

} // namespace

TEST(CannTypes, EveryInterposedFunctionIsDeclared) {
  std::string error;
  std::optional<msledger::Catalog> catalog =
      msledger::Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  std::vector<std::string> interposed,
      declared(std::begin(kDeclared), std::end(kDeclared));
  for (const msledger::Function &function : catalog->functions())
    if (!function.recordedByCallee &&
        function.operatorPart == msledger::OperatorPart::None)
      interposed.push_back(function.name);
  EXPECT_EQ(declared, interposed);
}

TEST(CannTypes, TheCatalogsHeadersAreTheOnesCheckedAgainst) {
  // What this file includes to compare: the catalog's "headers", which
  // declare its functions in a toolkit (mstx's aside, recorded by callee).
  std::string error;
  std::optional<msledger::Catalog> catalog =
      msledger::Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->headers(),
            (std::vector<std::string>{
                "acl/acl.h", "acl/ops/acl_dvpp.h", "acl/ops/acl_cblas.h",
                "acl/acl_op_compiler.h", "acl/acl_prof.h", "acl/acl_tdt.h",
                "acl/acl_tdt_queue.h", "acl/ops/acl_fv.h", "acl/dvpp/hi_dvpp.h",
                "driver/ascend_hal.h", "aclnn/aclnn_base.h", "hccl/hccl.h",
                "msledger/msledger.h"}));
}
