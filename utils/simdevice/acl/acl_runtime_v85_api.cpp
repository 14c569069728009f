//===- acl_runtime_v85_api.cpp - What the 8.5 runtime adds, simulated -----===//
//
// The part of the 8.5 runtime interface an application's resources and
// control flow depend on: streams made from a configuration handle
// (aclrtCreateStreamV2), notifies (a flag one stream sets and another waits
// for and clears), the queries an application makes of a pointer, a device,
// a stream and the installed packages. Checks and error codes as the real
// runtime's: an unknown handle is ACL_ERROR_INVALID_PARAM, no device set
// ACL_ERROR_RT_CONTEXT_NULL, a notify wait that times out fails its stream
// with ACL_ERROR_RT_WAIT_TIMEOUT.
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <thread>

using namespace mssim;

namespace {

/// What a notify is: a flag set by a record, cleared by the wait that saw it.
struct NotifyObject {
  std::mutex Mutex;
  std::condition_variable Changed;
  bool Set = false;
  uint32_t id = 0;
};

std::atomic<uint32_t> nextNotifyId{0};

NotifyObject *liveNotify(const char *api, aclrtNotify notify) {
  if (Runtime::instance().isLive(notify, HandleKind::Notify))
    return static_cast<NotifyObject *>(notify);
  fail(ACL_ERROR_INVALID_PARAM, api,
       "notify " + hexAddress(notify) +
           " does not exist or was already destroyed");
  return nullptr;
}

/// The version the simulated packages report: that of the headers.
constexpr const char *kCannVersion = "8.5.0";

void setVersion(char *field, size_t size, const char *text) {
  strncpy(field, text, size - 1);
  field[size - 1] = '\0';
}

bool knownPackage(const char *name) {
  static const char *const packages[] = {"cann",       "runtime", "compiler",
                                         "hccl",       "toolkit", "opp",
                                         "opp_kernel", "driver"};
  for (const char *package : packages)
    if (name && strcmp(name, package) == 0)
      return true;
  return false;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *
aclrtCreateStreamConfigHandle(void) {
  return trackHandle(new aclrtStreamConfigHandle{nullptr, 0, 0, 0},
                     HandleKind::StreamConfig);
}

ACL_FUNC_VISIBILITY aclError
aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle) {
  return destroyHandle("aclrtDestroyStreamConfigHandle", handle,
                       HandleKind::StreamConfig);
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(
    aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
    const void *attrValue, size_t valueSize) {
  const char *api = "aclrtSetStreamConfigOpt";
  if (!Runtime::instance().isLive(handle, HandleKind::StreamConfig) ||
      !attrValue)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown configuration handle or null value");
  switch (attr) {
  case ACL_RT_STREAM_WORK_ADDR_PTR:
    if (valueSize != sizeof(void *))
      break;
    memcpy(&handle->workptr, attrValue, sizeof(void *));
    return ACL_SUCCESS;
  case ACL_RT_STREAM_WORK_SIZE:
  case ACL_RT_STREAM_FLAG:
    if (valueSize != sizeof(size_t))
      break;
    memcpy(attr == ACL_RT_STREAM_FLAG ? &handle->flag : &handle->workSize,
           attrValue, sizeof(size_t));
    return ACL_SUCCESS;
  case ACL_RT_STREAM_PRIORITY:
    if (valueSize != sizeof(uint32_t))
      break;
    memcpy(&handle->priority, attrValue, sizeof(uint32_t));
    return ACL_SUCCESS;
  }
  return fail(ACL_ERROR_INVALID_PARAM, api,
              "unknown attribute, or a value of the wrong size");
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(
    aclrtStream *stream, const aclrtStreamConfigHandle *handle) {
  if (handle && !Runtime::instance().isLive(handle, HandleKind::StreamConfig))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2",
                "unknown configuration handle");
  return createStreamFor("aclrtCreateStreamV2", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify,
                                               uint64_t flag) {
  (void)flag;
  if (!notify)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify",
                "null output pointer");
  if (currentDevice() < 0)
    return noCurrentDevice("aclrtCreateNotify");
  auto *created = new NotifyObject;
  created->id = nextNotifyId++;
  *notify = trackHandle(created, HandleKind::Notify);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify) {
  return destroyHandle("aclrtDestroyNotify",
                       static_cast<NotifyObject *>(notify), HandleKind::Notify);
}

ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify,
                                              uint32_t *notifyId) {
  NotifyObject *object = liveNotify("aclrtGetNotifyId", notify);
  if (!object)
    return ACL_ERROR_INVALID_PARAM;
  if (!notifyId)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetNotifyId", "null id");
  *notifyId = object->id;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify,
                                               aclrtStream stream) {
  NotifyObject *object = liveNotify("aclrtRecordNotify", notify);
  if (!object)
    return ACL_ERROR_INVALID_PARAM;
  return enqueueTask("aclrtRecordNotify", stream, [object] {
    std::lock_guard<std::mutex> lock(object->Mutex);
    object->Set = true;
    object->Changed.notify_all();
    return ACL_SUCCESS;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify,
                                                     aclrtStream stream,
                                                     uint32_t timeout) {
  NotifyObject *object = liveNotify("aclrtWaitAndResetNotify", notify);
  if (!object)
    return ACL_ERROR_INVALID_PARAM;
  // The stream waits (0: for ever) for the flag, then clears it.
  return enqueueTask("aclrtWaitAndResetNotify", stream, [object, timeout] {
    std::unique_lock<std::mutex> lock(object->Mutex);
    auto set = [object] { return object->Set; };
    if (timeout == 0)
      object->Changed.wait(lock, set);
    else if (!object->Changed.wait_for(lock, std::chrono::milliseconds(timeout),
                                       set))
      return ACL_ERROR_RT_WAIT_TIMEOUT;
    object->Set = false;
    return ACL_SUCCESS;
  });
}

ACL_FUNC_VISIBILITY aclError
aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes) {
  if (!ptr || !attributes)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes",
                "null pointer");
  memset(attributes, 0, sizeof *attributes);
  DVattribute attr;
  if (drvMemGetAttribute(reinterpret_cast<DVdeviceptr>(ptr), &attr) !=
          DRV_ERROR_NONE ||
      attr.memType == 0) { // memory neither the driver nor ACL gave
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    attributes->pageSize = 4096;
    return ACL_SUCCESS;
  }
  bool device = attr.memType == DV_MEM_LOCK_DEV ||
                attr.memType == DV_MEM_LOCK_DEV_DVPP ||
                attr.memType == DV_MEM_SVM_DEVICE;
  attributes->location.type =
      device ? ACL_MEM_LOCATION_TYPE_DEVICE : ACL_MEM_LOCATION_TYPE_HOST;
  attributes->location.id = device ? attr.devId : 0;
  attributes->pageSize = attr.pageSize ? attr.pageSize : 4096;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId,
                                                aclrtDevAttr attr,
                                                int64_t *value) {
  const char *api = "aclrtGetDeviceInfo";
  uint32_t count = 0;
  drvGetDevNum(&count);
  if (deviceId >= count)
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, api,
                "device " + std::to_string(deviceId) + " does not exist");
  if (!value)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null value");
  switch (attr) {
  case ACL_DEV_ATTR_AICPU_CORE_NUM:
    *value = 6;
    return ACL_SUCCESS;
  case ACL_DEV_ATTR_AICORE_CORE_NUM:
  case ACL_DEV_ATTR_CUBE_CORE_NUM:
    *value = 24;
    return ACL_SUCCESS;
  case ACL_DEV_ATTR_VECTOR_CORE_NUM:
    *value = 48;
    return ACL_SUCCESS;
  case ACL_DEV_ATTR_L2_CACHE_SIZE:
    *value = 192ll << 20;
    return ACL_SUCCESS;
  case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: {
    MemInfo info;
    if (halMemGetInfo(deviceId, MEM_INFO_TYPE_HBM_SIZE, &info) !=
        DRV_ERROR_NONE)
      return fail(ACL_ERROR_RT_INVALID_DEVICEID, api,
                  "cannot query the device's memory");
    *value = static_cast<int64_t>(info.phy_info.total);
    return ACL_SUCCESS;
  }
  case ACL_DEV_ATTR_PHY_CHIP_ID:
  case ACL_DEV_ATTR_SMP_ID:
    *value = deviceId;
    return ACL_SUCCESS;
  case ACL_DEV_ATTR_IS_VIRTUAL:
    *value = 0;
    return ACL_SUCCESS;
  default:
    return fail(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                "attribute " + std::to_string(attr) + " is not simulated");
  }
}

ACL_FUNC_VISIBILITY aclError
aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version) {
  if (!version || name < ACL_PKG_NAME_CANN || name > ACL_PKG_NAME_DRIVER)
    return fail(ACL_ERROR_INVALID_PARAM, "aclsysGetCANNVersion",
                "unknown package or null output");
  memset(version, 0, sizeof *version);
  setVersion(version->version, sizeof version->version, kCannVersion);
  setVersion(version->majorVersion, sizeof version->majorVersion, "8");
  setVersion(version->minorVersion, sizeof version->minorVersion, "5");
  setVersion(version->releaseVersion, sizeof version->releaseVersion, "0");
  setVersion(version->patchVersion, sizeof version->patchVersion, "0");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName,
                                                 char *versionStr) {
  if (!versionStr || !knownPackage(pkgName))
    return fail(ACL_ERROR_INVALID_PARAM, "aclsysGetVersionStr",
                "unknown package or null output");
  setVersion(versionStr, ACL_PKG_VERSION_MAX_SIZE, kCannVersion);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName,
                                                 int32_t *versionNum) {
  if (!versionNum || !knownPackage(pkgName))
    return fail(ACL_ERROR_INVALID_PARAM, "aclsysGetVersionNum",
                "unknown package or null output");
  *versionNum = 8 * 10000000 + 5 * 100000; // major, minor, release, patch
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream,
                                              int32_t *streamId) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  StreamObject *object = rt.lookupStream(stream);
  if (!object || !streamId)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId",
                "unknown stream or null id");
  *streamId = object->id;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtCtxGetCurrentDefaultStream(aclrtStream *stream) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  ContextObject *context = rt.current();
  if (!stream)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCtxGetCurrentDefaultStream",
                "null output pointer");
  if (!context)
    return noCurrentDevice("aclrtCtxGetCurrentDefaultStream");
  *stream = context->defaultStream;
  return ACL_SUCCESS;
}

} // extern "C"
