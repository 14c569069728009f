//===- acl_tdt_queue_api.cpp - libacl_tdt_queue.so: queues on a device ----===//
//
// Contract: acl/acl_tdt_queue.h as the real library behaves in a host
// process (aclrtGetRunMode: ACL_HOST), for what a leak checker and the
// application can tell (utils/simdevice/README.md, "TDT channels, queues and
// feature vector search"):
//
// - acltdtCreateQueue makes a memory queue on the thread's current device
//   (mem_queue.h), its id through *qid; acltdtDestroyQueue(qid) destroys the
//   current device's queue of that id. The queue goes with its device
//   (aclrtResetDevice, aclFinalize); its id names nothing after that.
// - acltdtEnqueueData and acltdtDequeueData copy bytes (and the user-data
//   area) in and out of a queue, first in, first out, waiting up to their
//   timeout for room or for a message.
// - The buffer functions (acltdtAllocBuf, acltdtFreeBuf, acltdtEnqueue,
//   acltdtDequeue, the buffer data, user data and chain functions,
//   acltdtCopyBufRef) and acltdtGrantQueue / acltdtAttachQueue work only on
//   the device's own CPUs: in a host process the real library refuses them
//   with ACL_ERROR_FEATURE_UNSUPPORTED after its argument checks, and so does
//   this one. No buffer is ever made here.
// - Queue attributes, routes, route lists and route query infos are host
//   objects, checked against a registry of live handles: an unknown or
//   destroyed one is ACL_ERROR_INVALID_PARAM, never dereferenced. A route
//   list holds copies of the routes added to it.
// - Binding, unbinding and querying routes is the device's queue
//   scheduler's work: not simulated (generated stand-ins).
//
//===----------------------------------------------------------------------===//
#include "acl/acl_tdt_queue.h"
#include "mem_queue.h"
#include "runtime.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace mssim;

struct tagMemQueueAttr {
  char name[kQueueNameMax] = {};
  uint32_t depth = 8; // the real library's default depth
};

struct acltdtQueueRoute {
  uint32_t srcId = 0;
  uint32_t dstId = 0;
  int32_t status = ACL_TDT_QUEUE_ROUTE_UNBIND;
};

struct acltdtQueueRouteList {
  std::vector<acltdtQueueRoute> routes;
};

struct acltdtQueueRouteQueryInfo {
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  uint32_t srcId = 0;
  uint32_t dstId = 0;
  bool modeSet = false, srcSet = false, dstSet = false;
};

namespace {

using Kind = HandleKind;

/// Whether `handle` is a live object of `kind` (the runtime's registry of
/// handles, which every library of the toolkit shares).
bool isLive(const void *handle, Kind kind) {
  return handle && Runtime::instance().isLive(handle, kind);
}

template <typename T> T *track(T *object, Kind kind) {
  return trackHandle(object, kind);
}

template <typename T>
aclError destroy(const char *api, const T *object, Kind kind,
                 const char *what) {
  if (!object || !Runtime::instance().removeHandle(object, kind))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                object ? std::string(what) + " " + hexAddress(object) +
                             " does not exist or was already destroyed"
                       : std::string(what) + " is null");
  delete object;
  return ACL_SUCCESS;
}

aclError unknown(const char *api, const void *handle, const char *what) {
  return fail(ACL_ERROR_INVALID_PARAM, api,
              handle ? std::string(what) + " " + hexAddress(handle) +
                           " does not exist or was already destroyed"
                     : std::string(what) + " is null");
}

/// The real library's parameter copy: `srcLen` bytes of `src` into `dst`
/// of `dstLen`, refused if they do not fit; *copied = srcLen.
aclError copyParam(const char *api, const void *src, size_t srcLen, void *dst,
                   size_t dstLen, size_t *copied = nullptr) {
  if (!src || !dst)
    return fail(ACL_ERROR_INVALID_PARAM, api, "a null parameter");
  if (srcLen > dstLen)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::to_string(srcLen) + " bytes do not fit in " +
                    std::to_string(dstLen));
  memcpy(dst, src, srcLen);
  if (copied)
    *copied = srcLen;
  return ACL_SUCCESS;
}

/// The thread's current device, or -1 with ACL_ERROR_RT_CONTEXT_NULL in
/// *status: the queue functions act on it, as the real ones (rtGetDevice).
int32_t deviceFor(const char *api, aclError *status) {
  int32_t device = currentDevice();
  if (device < 0)
    *status = noCurrentDevice(api);
  return device;
}

aclError onDeviceOnly(const char *api) {
  return fail(ACL_ERROR_FEATURE_UNSUPPORTED, api,
              "buffers and queue sharing work only on the device's CPUs, "
              "not in a host process");
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr *attr,
                                               uint32_t *qid) {
  const char *api = "acltdtCreateQueue";
  if (!qid)
    return fail(ACL_ERROR_INVALID_PARAM, api, "qid is null");
  aclError status = ACL_SUCCESS;
  int32_t device = deviceFor(api, &status);
  if (device < 0)
    return status;
  tagMemQueueAttr defaults;
  if (attr && !isLive(attr, Kind::TdtQueueAttr))
    return unknown(api, attr, "queue attribute");
  const tagMemQueueAttr &use = attr ? *attr : defaults;
  return createQueue(api, device,
                     std::string(use.name, strnlen(use.name, kQueueNameMax)),
                     use.depth, qid);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid) {
  const char *api = "acltdtDestroyQueue";
  aclError status = ACL_SUCCESS;
  int32_t device = deviceFor(api, &status);
  if (device < 0)
    return status;
  return destroyQueue(api, device, qid);
}

ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t, acltdtBuf, int32_t) {
  return onDeviceOnly("acltdtEnqueue");
}

ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t, acltdtBuf *, int32_t) {
  return onDeviceOnly("acltdtDequeue");
}

ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void *data,
                                               size_t dataSize,
                                               const void *userData,
                                               size_t userDataSize,
                                               int32_t timeout, uint32_t) {
  const char *api = "acltdtEnqueueData";
  if (!data)
    return fail(ACL_ERROR_INVALID_PARAM, api, "data is null");
  if (!dataSize)
    return fail(ACL_ERROR_INVALID_PARAM, api, "dataSize is 0");
  if (userDataSize && !userData)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "userData is null but userDataSize is not 0");
  aclError status = ACL_SUCCESS;
  int32_t device = deviceFor(api, &status);
  if (device < 0)
    return status;
  QueueMessage message;
  const auto *bytes = static_cast<const uint8_t *>(data);
  message.data.assign(bytes, bytes + dataSize);
  if (userDataSize) {
    const auto *user = static_cast<const uint8_t *>(userData);
    message.userData.assign(user, user + userDataSize);
  }
  return enqueueMessage(api, device, qid, std::move(message), timeout);
}

ACL_FUNC_VISIBILITY aclError acltdtDequeueData(
    uint32_t qid, void *data, size_t dataSize, size_t *retDataSize,
    void *userData, size_t userDataSize, int32_t timeout) {
  const char *api = "acltdtDequeueData";
  if (!data || !retDataSize)
    return fail(ACL_ERROR_INVALID_PARAM, api, "data or retDataSize is null");
  if (!dataSize)
    return fail(ACL_ERROR_INVALID_PARAM, api, "dataSize is 0");
  if (userDataSize && !userData)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "userData is null but userDataSize is not 0");
  aclError status = ACL_SUCCESS;
  int32_t device = deviceFor(api, &status);
  if (device < 0)
    return status;
  QueueMessage message;
  size_t limit = dataSize;
  status = dequeueMessage(api, device, qid, &message, timeout, &limit);
  if (status != ACL_SUCCESS) {
    if (limit != dataSize)
      *retDataSize = limit; // the size of the message left in the queue
    return status;
  }
  memcpy(data, message.data.data(), message.data.size());
  *retDataSize = message.data.size();
  if (userDataSize)
    memcpy(userData, message.userData.data(),
           std::min(userDataSize, message.userData.size()));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t, int32_t, uint32_t,
                                              int32_t) {
  return onDeviceOnly("acltdtGrantQueue");
}

ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t, int32_t, uint32_t *) {
  return onDeviceOnly("acltdtAttachQueue");
}

ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t, uint32_t type,
                                            acltdtBuf *buf) {
  const char *api = "acltdtAllocBuf";
  if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "type is " + std::to_string(type) + ", not 0 or 1");
  if (!buf)
    return fail(ACL_ERROR_INVALID_PARAM, api, "buf is null");
  return onDeviceOnly(api);
}

ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf) {
  return onDeviceOnly("acltdtFreeBuf");
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf, void **,
                                              size_t *) {
  return onDeviceOnly("acltdtGetBufData");
}

ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf, size_t) {
  return onDeviceOnly("acltdtSetBufDataLen");
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf, size_t *) {
  return onDeviceOnly("acltdtGetBufDataLen");
}

ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf, acltdtBuf) {
  return onDeviceOnly("acltdtAppendBufChain");
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf, uint32_t *) {
  return onDeviceOnly("acltdtGetBufChainNum");
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf, uint32_t,
                                                   acltdtBuf *) {
  return onDeviceOnly("acltdtGetBufFromChain");
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf, void *,
                                                  size_t, size_t) {
  return onDeviceOnly("acltdtGetBufUserData");
}

ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf, const void *,
                                                  size_t, size_t) {
  return onDeviceOnly("acltdtSetBufUserData");
}

ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf, acltdtBuf *) {
  return onDeviceOnly("acltdtCopyBufRef");
}

ACL_FUNC_VISIBILITY acltdtQueueAttr *acltdtCreateQueueAttr() {
  return track(new tagMemQueueAttr, Kind::TdtQueueAttr);
}

ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueAttr(const acltdtQueueAttr *attr) {
  return destroy("acltdtDestroyQueueAttr", attr, Kind::TdtQueueAttr, "queue attribute");
}

ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr *attr,
                                                acltdtQueueAttrType type,
                                                size_t len, const void *param) {
  const char *api = "acltdtSetQueueAttr";
  if (!isLive(attr, Kind::TdtQueueAttr))
    return unknown(api, attr, "queue attribute");
  if (!param)
    return fail(ACL_ERROR_INVALID_PARAM, api, "param is null");
  switch (type) {
  case ACL_TDT_QUEUE_NAME_PTR: {
    // param holds a pointer to the name.
    const char *name = nullptr;
    aclError status = copyParam(api, param, len, &name, sizeof name);
    if (status != ACL_SUCCESS)
      return status;
    if (!name)
      return fail(ACL_ERROR_INVALID_PARAM, api, "the name is null");
    size_t length = strnlen(name, kQueueNameMax);
    if (length + 1 > kQueueNameMax)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "a queue's name is at most " +
                      std::to_string(kQueueNameMax - 1) + " characters");
    return copyParam(api, name, length + 1, attr->name, sizeof attr->name);
  }
  case ACL_TDT_QUEUE_DEPTH_UINT32:
    return copyParam(api, param, len, &attr->depth, sizeof attr->depth);
  }
  return fail(ACL_ERROR_INVALID_PARAM, api,
              "unknown attribute " + std::to_string(static_cast<int>(type)));
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr,
                                                acltdtQueueAttrType type,
                                                size_t len,
                                                size_t *paramRetSize,
                                                void *param) {
  const char *api = "acltdtGetQueueAttr";
  if (!isLive(attr, Kind::TdtQueueAttr))
    return unknown(api, attr, "queue attribute");
  if (!param || !paramRetSize)
    return fail(ACL_ERROR_INVALID_PARAM, api, "param or paramRetSize is null");
  switch (type) {
  case ACL_TDT_QUEUE_NAME_PTR: {
    const char *name = attr->name; // the attribute's own name
    return copyParam(api, &name, sizeof name, param, len, paramRetSize);
  }
  case ACL_TDT_QUEUE_DEPTH_UINT32:
    return copyParam(api, &attr->depth, sizeof attr->depth, param, len,
                     paramRetSize);
  }
  return fail(ACL_ERROR_INVALID_PARAM, api,
              "unknown attribute " + std::to_string(static_cast<int>(type)));
}

ACL_FUNC_VISIBILITY acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId,
                                                             uint32_t dstId) {
  auto *route = new acltdtQueueRoute;
  route->srcId = srcId;
  route->dstId = dstId;
  return track(route, Kind::TdtQueueRoute);
}

ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueRoute(const acltdtQueueRoute *route) {
  return destroy("acltdtDestroyQueueRoute", route, Kind::TdtQueueRoute, "route");
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(
    const acltdtQueueRoute *route, acltdtQueueRouteParamType type, size_t len,
    size_t *paramRetSize, void *param) {
  const char *api = "acltdtGetQueueRouteParam";
  if (!isLive(route, Kind::TdtQueueRoute))
    return unknown(api, route, "route");
  if (!param || !paramRetSize)
    return fail(ACL_ERROR_INVALID_PARAM, api, "param or paramRetSize is null");
  switch (type) {
  case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
    return copyParam(api, &route->srcId, sizeof route->srcId, param, len,
                     paramRetSize);
  case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
    return copyParam(api, &route->dstId, sizeof route->dstId, param, len,
                     paramRetSize);
  case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
    return copyParam(api, &route->status, sizeof route->status, param, len,
                     paramRetSize);
  }
  return fail(ACL_ERROR_INVALID_PARAM, api,
              "unknown parameter " + std::to_string(static_cast<int>(type)));
}

ACL_FUNC_VISIBILITY acltdtQueueRouteList *acltdtCreateQueueRouteList() {
  return track(new acltdtQueueRouteList, Kind::TdtQueueRouteList);
}

ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList) {
  return destroy("acltdtDestroyQueueRouteList", routeList, Kind::TdtQueueRouteList,
                 "route list");
}

ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(
    acltdtQueueRouteList *routeList, const acltdtQueueRoute *route) {
  const char *api = "acltdtAddQueueRoute";
  if (!isLive(routeList, Kind::TdtQueueRouteList))
    return unknown(api, routeList, "route list");
  if (!isLive(route, Kind::TdtQueueRoute))
    return unknown(api, route, "route");
  routeList->routes.push_back(*route);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
acltdtGetQueueRoute(const acltdtQueueRouteList *routeList, size_t index,
                    acltdtQueueRoute *route) {
  const char *api = "acltdtGetQueueRoute";
  if (!isLive(routeList, Kind::TdtQueueRouteList))
    return unknown(api, routeList, "route list");
  if (!isLive(route, Kind::TdtQueueRoute))
    return unknown(api, route, "route");
  if (index >= routeList->routes.size())
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "index " + std::to_string(index) + " is past the list's " +
                    std::to_string(routeList->routes.size()) + " routes");
  *route = routeList->routes[index];
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t
acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList) {
  if (!isLive(routeList, Kind::TdtQueueRouteList)) {
    unknown("acltdtGetQueueRouteNum", routeList, "route list");
    return 0;
  }
  return routeList->routes.size();
}

ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo *
acltdtCreateQueueRouteQueryInfo() {
  return track(new acltdtQueueRouteQueryInfo, Kind::TdtQueueRouteQueryInfo);
}

ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo *info) {
  return destroy("acltdtDestroyQueueRouteQueryInfo", info, Kind::TdtQueueRouteQueryInfo,
                 "route query info");
}

ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(
    acltdtQueueRouteQueryInfo *param, acltdtQueueRouteQueryInfoParamType type,
    size_t len, const void *value) {
  const char *api = "acltdtSetQueueRouteQueryInfo";
  if (!isLive(param, Kind::TdtQueueRouteQueryInfo))
    return unknown(api, param, "route query info");
  if (!value)
    return fail(ACL_ERROR_INVALID_PARAM, api, "value is null");
  aclError status = ACL_ERROR_INVALID_PARAM;
  switch (type) {
  case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
    status = copyParam(api, value, len, &param->mode, sizeof param->mode);
    param->modeSet = param->modeSet || status == ACL_SUCCESS;
    return status;
  case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
    status = copyParam(api, value, len, &param->srcId, sizeof param->srcId);
    param->srcSet = param->srcSet || status == ACL_SUCCESS;
    return status;
  case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
    status = copyParam(api, value, len, &param->dstId, sizeof param->dstId);
    param->dstSet = param->dstSet || status == ACL_SUCCESS;
    return status;
  }
  return fail(ACL_ERROR_INVALID_PARAM, api,
              "unknown parameter " + std::to_string(static_cast<int>(type)));
}

} // extern "C"
