//===- acl_fv_api.cpp - libacl_retr.so: feature vector search descriptions ===//
//
// Contract: the descriptions of acl/ops/acl_fv.h as the real library makes
// them (utils/simdevice/README.md, "TDT channels, queues and feature vector
// search"):
//
// - Each aclfvCreate* checks its arguments as the real one does (the same
//   bounds) and returns null for what it refuses. The init parameters, the
//   feature info, the repo range, the search input and the search result
//   each also take device memory for their parameter block with aclrtMalloc
//   (ACL_MEM_MALLOC_NORMAL_ONLY) on the current device, as the real library
//   does, so they need a device set and an application's interposers see
//   that allocation; the query table is a host object only.
// - Each aclfvDestroy* releases what its create took (aclrtFree, whose
//   failure it ignores, as the real one does); a null description is
//   ACL_SUCCESS, as in the real library; an unknown or already destroyed one
//   is ACL_ERROR_INVALID_PARAM (where the real library would touch freed
//   memory) and is left alone.
// - A search input copies its query table's and repo range's values; it does
//   not keep them.
// - aclfvInit, aclfvRelease, adding, deleting, modifying and searching run
//   kernels on the device's AI CPU whose algorithm is not public: not
//   simulated (generated stand-ins).
//
//===----------------------------------------------------------------------===//
#include "acl/ops/acl_fv.h"
#include "runtime.h"

#include <mutex>
#include <string>
#include <unordered_map>

using namespace mssim;

namespace {

/// The parameter blocks the descriptions keep on the device: the fields
/// the real ones pass to the device, laid out by this simulation (the real
/// layout is the AI CPU kernels', not public). Their sizes are what each
/// create takes with aclrtMalloc.
struct InitBlock {
  uint64_t fsNum;
  uint32_t maxTopNumFor1N, maxTopNumForNM;
  uint64_t retCode;
};
struct FeatureBlock {
  uint32_t id0, id1, offset, featureLen, featureCount;
  uint8_t *featureData;
  uint32_t featureDataLen;
};
struct RangeBlock {
  uint32_t id0Min, id0Max, id1Min, id1Max;
};
struct TableBlock {
  uint32_t queryCnt, tableLen;
  uint8_t *tableData;
  uint32_t tableDataLen;
};
struct SearchBlock {
  TableBlock queryTable;
  RangeBlock repoRange;
  uint32_t topK;
};
struct ResultBlock {
  uint32_t queryCnt;
  uint32_t *resultNum;
  uint32_t resultNumDataLen;
  uint32_t *id0, *id1, *resultOffset;
  float *resultDistance;
  uint32_t dataLen;
};

/// The real library's bounds.
constexpr uint64_t kMaxFeatureNum = 600000000;
constexpr uint32_t kFeatureLength = 36;
constexpr uint32_t kMaxRepoId = 1023;
constexpr uint32_t kQueryTableLength = 32768;
constexpr uint32_t kMaxFeatureCount = 10000000;
constexpr uint32_t kMaxQueryCount = 1024;
constexpr uint32_t kMaxTopK = 4800;

} // namespace

struct aclfvInitPara {
  InitBlock block{};
  void *device = nullptr;
};
struct aclfvFeatureInfo {
  FeatureBlock block{};
  void *device = nullptr;
};
struct aclfvRepoRange {
  RangeBlock block{};
  void *device = nullptr;
};
struct aclfvQueryTable {
  TableBlock block{};
};
struct aclfvSearchInput {
  SearchBlock block{};
  void *device = nullptr;
};
struct aclfvSearchResult {
  ResultBlock block{};
  void *device = nullptr;
};

namespace {

using Kind = HandleKind;

/// Whether `handle` is a live object of `kind` (the runtime's registry of
/// handles, which every library of the toolkit shares).
bool isLive(const void *handle, Kind kind) {
  return handle && Runtime::instance().isLive(handle, kind);
}

template <typename T> T *refuse(const char *api, const std::string &why) {
  fail(ACL_ERROR_INVALID_PARAM, api, why);
  return nullptr;
}

/// Takes the device memory of `object`'s parameter block and registers it;
/// null (and `object` deleted) if the device has none to give.
template <typename T> T *withDeviceBlock(T *object, Kind kind) {
  if (aclrtMalloc(&object->device, sizeof object->block,
                  ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS) {
    delete object;
    return nullptr;
  }
  return trackHandle(object, kind);
}

template <typename T> aclError destroy(const char *api, T *object, Kind kind) {
  if (!object)
    return ACL_SUCCESS; // as the real library
  if (!Runtime::instance().removeHandle(object, kind))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(object) + " does not exist or was already destroyed");
  return ACL_SUCCESS;
}

template <typename T> void releaseDeviceBlock(T *object) {
  (void)aclrtFree(object->device); // a failure is ignored, as the real one's
  delete object;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclfvInitPara *aclfvCreateInitPara(uint64_t fsNum) {
  if (fsNum == 0 || fsNum > kMaxFeatureNum)
    return refuse<aclfvInitPara>("aclfvCreateInitPara",
                                 "fsNum is 0 or more than " +
                                     std::to_string(kMaxFeatureNum));
  auto *para = new aclfvInitPara;
  para->block.fsNum = fsNum;
  return withDeviceBlock(para, Kind::FvInitPara);
}

ACL_FUNC_VISIBILITY aclError aclfvDestroyInitPara(aclfvInitPara *initPara) {
  aclError status = destroy("aclfvDestroyInitPara", initPara, Kind::FvInitPara);
  if (status == ACL_SUCCESS && initPara)
    releaseDeviceBlock(initPara);
  return status;
}

ACL_FUNC_VISIBILITY aclError aclfvSet1NTopNum(aclfvInitPara *initPara,
                                              uint32_t maxTopNumFor1N) {
  if (!isLive(initPara, Kind::FvInitPara))
    return fail(ACL_ERROR_INVALID_PARAM, "aclfvSet1NTopNum",
                "unknown init parameters");
  if (maxTopNumFor1N < 2 || maxTopNumFor1N > kMaxTopK)
    return fail(ACL_ERROR_INVALID_PARAM, "aclfvSet1NTopNum",
                "maxTopNumFor1N is out of [2, 4800]");
  initPara->block.maxTopNumFor1N = maxTopNumFor1N;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclfvSetNMTopNum(aclfvInitPara *initPara,
                                              uint32_t maxTopNumForNM) {
  if (!isLive(initPara, Kind::FvInitPara))
    return fail(ACL_ERROR_INVALID_PARAM, "aclfvSetNMTopNum",
                "unknown init parameters");
  if (maxTopNumForNM < 500 || maxTopNumForNM > kMaxTopK)
    return fail(ACL_ERROR_INVALID_PARAM, "aclfvSetNMTopNum",
                "maxTopNumForNM is out of [500, 4800]");
  initPara->block.maxTopNumForNM = maxTopNumForNM;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclfvFeatureInfo *
aclfvCreateFeatureInfo(uint32_t id0, uint32_t id1, uint32_t offset,
                       uint32_t featureLen, uint32_t featureCount,
                       uint8_t *featureData, uint32_t featureDataLen) {
  const char *api = "aclfvCreateFeatureInfo";
  if (!featureData)
    return refuse<aclfvFeatureInfo>(api, "featureData is null");
  if (id0 > kMaxRepoId || id1 > kMaxRepoId)
    return refuse<aclfvFeatureInfo>(api, "id0 or id1 is out of [0, 1023]");
  if (featureLen != kFeatureLength)
    return refuse<aclfvFeatureInfo>(api, "featureLen is not 36");
  if (featureCount > kMaxFeatureCount)
    return refuse<aclfvFeatureInfo>(api, "featureCount is over 10000000");
  if (featureDataLen != featureLen * featureCount)
    return refuse<aclfvFeatureInfo>(
        api, "featureDataLen is not featureLen * featureCount");
  auto *info = new aclfvFeatureInfo;
  info->block = {id0,          id1,         offset,        featureLen,
                 featureCount, featureData, featureDataLen};
  return withDeviceBlock(info, Kind::FvFeatureInfo);
}

ACL_FUNC_VISIBILITY aclError
aclfvDestroyFeatureInfo(aclfvFeatureInfo *featureInfo) {
  aclError status =
      destroy("aclfvDestroyFeatureInfo", featureInfo, Kind::FvFeatureInfo);
  if (status == ACL_SUCCESS && featureInfo)
    releaseDeviceBlock(featureInfo);
  return status;
}

ACL_FUNC_VISIBILITY aclfvRepoRange *aclfvCreateRepoRange(uint32_t id0Min,
                                                         uint32_t id0Max,
                                                         uint32_t id1Min,
                                                         uint32_t id1Max) {
  const char *api = "aclfvCreateRepoRange";
  if (id0Min > id0Max || id0Max > kMaxRepoId)
    return refuse<aclfvRepoRange>(api, "[id0Min, id0Max] is not in [0, 1023]");
  if (id1Min > id1Max || id1Max > kMaxRepoId)
    return refuse<aclfvRepoRange>(api, "[id1Min, id1Max] is not in [0, 1023]");
  auto *range = new aclfvRepoRange;
  range->block = {id0Min, id0Max, id1Min, id1Max};
  return withDeviceBlock(range, Kind::FvRepoRange);
}

ACL_FUNC_VISIBILITY aclError aclfvDestroyRepoRange(aclfvRepoRange *repoRange) {
  aclError status =
      destroy("aclfvDestroyRepoRange", repoRange, Kind::FvRepoRange);
  if (status == ACL_SUCCESS && repoRange)
    releaseDeviceBlock(repoRange);
  return status;
}

ACL_FUNC_VISIBILITY aclfvQueryTable *
aclfvCreateQueryTable(uint32_t queryCnt, uint32_t tableLen, uint8_t *tableData,
                      uint32_t tableDataLen) {
  const char *api = "aclfvCreateQueryTable";
  if (!tableData)
    return refuse<aclfvQueryTable>(api, "tableData is null");
  if (tableLen != kQueryTableLength)
    return refuse<aclfvQueryTable>(api, "tableLen is not 32768");
  if (queryCnt > kMaxQueryCount)
    return refuse<aclfvQueryTable>(api, "queryCnt is over 1024");
  if (tableDataLen != queryCnt * tableLen)
    return refuse<aclfvQueryTable>(api,
                                   "tableDataLen is not queryCnt * tableLen");
  auto *table = new aclfvQueryTable;
  table->block = {queryCnt, tableLen, tableData, tableDataLen};
  return trackHandle(table, Kind::FvQueryTable);
}

ACL_FUNC_VISIBILITY aclError
aclfvDestroyQueryTable(aclfvQueryTable *queryTable) {
  aclError status =
      destroy("aclfvDestroyQueryTable", queryTable, Kind::FvQueryTable);
  if (status == ACL_SUCCESS)
    delete queryTable; // host only
  return status;
}

ACL_FUNC_VISIBILITY aclfvSearchInput *
aclfvCreateSearchInput(aclfvQueryTable *queryTable, aclfvRepoRange *repoRange,
                       uint32_t topk) {
  const char *api = "aclfvCreateSearchInput";
  if (!isLive(queryTable, Kind::FvQueryTable))
    return refuse<aclfvSearchInput>(api, "unknown or null query table");
  if (!isLive(repoRange, Kind::FvRepoRange))
    return refuse<aclfvSearchInput>(api, "unknown or null repo range");
  if (topk > kMaxTopK)
    return refuse<aclfvSearchInput>(api, "topk is over 4800");
  auto *input = new aclfvSearchInput;
  input->block = {queryTable->block, repoRange->block, topk};
  return withDeviceBlock(input, Kind::FvSearchInput);
}

ACL_FUNC_VISIBILITY aclError
aclfvDestroySearchInput(aclfvSearchInput *searchInput) {
  aclError status =
      destroy("aclfvDestroySearchInput", searchInput, Kind::FvSearchInput);
  if (status == ACL_SUCCESS && searchInput)
    releaseDeviceBlock(searchInput);
  return status;
}

ACL_FUNC_VISIBILITY aclfvSearchResult *
aclfvCreateSearchResult(uint32_t queryCnt, uint32_t *resultNum,
                        uint32_t resultNumDataLen, uint32_t *id0, uint32_t *id1,
                        uint32_t *resultOffset, float *resultDistance,
                        uint32_t dataLen) {
  const char *api = "aclfvCreateSearchResult";
  if (!resultNum || !id0 || !id1 || !resultOffset || !resultDistance)
    return refuse<aclfvSearchResult>(
        api, "resultNum, id0, id1, resultOffset or resultDistance is null");
  if (queryCnt > kMaxQueryCount)
    return refuse<aclfvSearchResult>(api, "queryCnt is over 1024");
  if (resultNumDataLen != queryCnt * sizeof(uint32_t))
    return refuse<aclfvSearchResult>(
        api, "resultNumDataLen is not queryCnt * sizeof(uint32_t)");
  auto *result = new aclfvSearchResult;
  result->block = {queryCnt, resultNum,    resultNumDataLen, id0,
                   id1,      resultOffset, resultDistance,   dataLen};
  return withDeviceBlock(result, Kind::FvSearchResult);
}

ACL_FUNC_VISIBILITY aclError
aclfvDestroySearchResult(aclfvSearchResult *searchResult) {
  aclError status =
      destroy("aclfvDestroySearchResult", searchResult, Kind::FvSearchResult);
  if (status == ACL_SUCCESS && searchResult)
    releaseDeviceBlock(searchResult);
  return status;
}

} // extern "C"
