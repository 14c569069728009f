//===- acl_runtime_more_api.cpp - Queries, timeouts, 2-D copies, errors ---===//
//
// The runtime calls beyond the core of acl_device_api.cpp and
// acl_memory_api.cpp, built on them: non-blocking queries and waits with a
// timeout, forced resets and destroys, peer access between the simulated
// devices, the thread's last error, and two-dimensional copies as rows of
// ordinary ones (so every memcpy kind and check of aclrtMemcpy applies).
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace mssim;

namespace {

using Clock = std::chrono::steady_clock;

/// Whether the rows of a 2-D copy at `base` (`height` rows of `width` bytes,
/// `pitch` apart) run past the end of the address space: row * pitch would
/// wrap and land anywhere, even back inside the buffer.
bool rowsWrap(const void *base, size_t pitch, size_t width, size_t height) {
  size_t span = 0;
  return __builtin_mul_overflow(height - 1, pitch, &span) ||
         __builtin_add_overflow(span, width, &span) ||
         span > UINTPTR_MAX - reinterpret_cast<uintptr_t>(base);
}

/// Whether `timeout` is one the wait calls take: -1 (for ever) or above 0.
bool validTimeout(int32_t timeout) { return timeout == -1 || timeout > 0; }

/// Polls `done` until it holds or `timeoutMs` (-1: for ever) passes.
template <typename Done> bool waitUntil(int32_t timeoutMs, Done done) {
  Clock::time_point end = Clock::now() + std::chrono::milliseconds(timeoutMs);
  while (!done()) {
    if (timeoutMs >= 0 && Clock::now() >= end)
      return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

/// The event behind `handle`, or null with the error recorded.
std::shared_ptr<Event> eventOf(const char *api, aclrtEvent handle) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  auto *object = static_cast<EventObject *>(handle);
  if (!object || !rt.Events.count(object)) {
    fail(ACL_ERROR_RT_INVALID_HANDLE, api,
         "event " + hexAddress(handle) + " does not exist");
    return nullptr;
  }
  return object->event;
}

// What the application set that the simulation never acts on: no
// simulated task faults or times out.
std::atomic<aclrtExceptionInfoCallback> ExceptionCallback{nullptr};
std::atomic<uint32_t> OpWaitTimeout{0};
std::atomic<uint32_t> OpExecuteTimeout{0};

bool validDevice(int32_t device) {
  uint32_t count = 0;
  drvGetDevNum(&count);
  return device >= 0 && static_cast<uint32_t>(device) < count;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  (void)level;
  return lastError(/*clear=*/false);
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level) {
  (void)level;
  return lastError(/*clear=*/true);
}

ACL_FUNC_VISIBILITY aclError
aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  // Kept as the real runtime keeps it; a simulated task never faults, so it
  // is never called.
  ExceptionCallback.store(callback);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  // Kept; operators run at once on the host, so none ever times out.
  OpWaitTimeout.store(timeout);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  OpExecuteTimeout.store(timeout);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId) {
  if (!validDevice(deviceId))
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDeviceForce",
                "no device " + std::to_string(deviceId));
  Runtime &rt = Runtime::instance();
  auto references = [&] {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    return rt.DeviceRefs[deviceId];
  };
  if (references() == 0)
    return fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtResetDeviceForce",
                "device " + std::to_string(deviceId) + " is not set");
  // Every reference, whatever aclrtSetDevice calls took them.
  while (references() > 0)
    if (aclError error = aclrtResetDevice(deviceId))
      return error;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  if (!validTimeout(timeout))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeDeviceWithTimeout",
                "timeout is " + std::to_string(timeout));
  // The device's streams drain in order; a waiting thread cannot cut that
  // short, so the timeout bounds nothing here but is checked as real.
  return aclrtSynchronizeDevice();
}

ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId) {
  if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtSetTsDevice",
                "unknown task scheduler " + std::to_string(tsId));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(
    int32_t deviceId, aclrtUtilizationInfo *utilizationInfo) {
  if (!utilizationInfo || !validDevice(deviceId))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceUtilizationRate",
                "no device " + std::to_string(deviceId) + ", or a null output");
  struct MemInfo info = {};
  halMemGetInfo(static_cast<DVdevice>(deviceId), MEM_INFO_TYPE_HBM_SIZE, &info);
  unsigned long total = info.phy_info.total;
  // The simulated device computes on the host: its cores are never busy.
  utilizationInfo->cubeUtilization = 0;
  utilizationInfo->vectorUtilization = 0;
  utilizationInfo->aicpuUtilization = 0;
  utilizationInfo->memoryUtilization =
      total ? static_cast<int32_t>((total - info.phy_info.free) * 100 / total)
            : 0;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer,
                                                      int32_t deviceId,
                                                      int32_t peerDeviceId) {
  if (!canAccessPeer || !validDevice(deviceId) || !validDevice(peerDeviceId) ||
      deviceId == peerDeviceId)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer",
                "two different valid devices and an output are needed");
  *canAccessPeer = 1; // the simulated devices share the host
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId,
                                                         uint32_t flags) {
  if (!validDevice(peerDeviceId) || flags != 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceEnablePeerAccess",
                "no device " + std::to_string(peerDeviceId) +
                    ", or flags other than 0");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  if (!validDevice(peerDeviceId))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceDisablePeerAccess",
                "no device " + std::to_string(peerDeviceId));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream,
                                                         uint32_t priority,
                                                         uint32_t flag) {
  (void)priority; // one queue a stream: priorities do not apply
  if (flag & ~(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig",
                "unknown flag " + std::to_string(flag));
  return aclrtCreateStream(stream);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream) {
  // The queue's tasks run to their end first: they hold the application's
  // buffers, which the simulation must not touch after it returns.
  return aclrtDestroyStream(stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream,
                                                       uint64_t mode) {
  if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode",
                "mode " + std::to_string(mode));
  aclError status = ACL_SUCCESS;
  return queueFor("aclrtSetStreamFailureMode", stream, &status) ? ACL_SUCCESS
                                                                : status;
}

ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  const char *api = "aclrtSynchronizeStreamWithTimeout";
  if (!validTimeout(timeout))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "timeout is " + std::to_string(timeout));
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor(api, stream, &status);
  if (!queue)
    return status;
  if (!waitUntil(timeout, [queue] { return queue->idle(); }))
    return fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, api,
                "the stream's tasks did not finish within " +
                    std::to_string(timeout) + " ms");
  int error = queue->synchronize();
  return error ? fail(error, api, "a task on the stream failed") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream,
                                              aclrtStreamStatus *status) {
  if (!status)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery", "null output");
  aclError error = ACL_SUCCESS;
  Stream *queue = queueFor("aclrtStreamQuery", stream, &error);
  if (!queue)
    return error;
  *status =
      queue->idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event,
                                             aclrtEventStatus *status) {
  if (!status)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent", "null output");
  std::shared_ptr<Event> shared = eventOf("aclrtQueryEvent", event);
  if (!shared)
    return ACL_ERROR_RT_INVALID_HANDLE;
  *status = shared->isComplete() ? ACL_EVENT_STATUS_COMPLETE
                                 : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event,
                                                              int32_t timeout) {
  const char *api = "aclrtSynchronizeEventWithTimeout";
  if (!validTimeout(timeout))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "timeout is " + std::to_string(timeout));
  std::shared_ptr<Event> shared = eventOf(api, event);
  if (!shared)
    return ACL_ERROR_RT_INVALID_HANDLE;
  if (!waitUntil(timeout, [&shared] { return shared->isComplete(); }))
    return fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, api,
                "the event did not complete within " + std::to_string(timeout) +
                    " ms");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch,
                                           const void *src, size_t spitch,
                                           size_t width, size_t height,
                                           aclrtMemcpyKind kind) {
  if (!dst || !src || width == 0 || height == 0 || width > dpitch ||
      width > spitch)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d",
                "null pointers, an empty copy, or a width over a pitch");
  if (rowsWrap(dst, dpitch, width, height) ||
      rowsWrap(src, spitch, width, height))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d",
                "the rows run past the end of the address space");
  for (size_t row = 0; row < height; ++row)
    if (aclError error = aclrtMemcpy(
            static_cast<char *>(dst) + row * dpitch, width,
            static_cast<const char *>(src) + row * spitch, width, kind))
      return error;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch,
                                                const void *src, size_t spitch,
                                                size_t width, size_t height,
                                                aclrtMemcpyKind kind,
                                                aclrtStream stream) {
  if (!dst || !src || width == 0 || height == 0 || width > dpitch ||
      width > spitch)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2dAsync",
                "null pointers, an empty copy, or a width over a pitch");
  if (rowsWrap(dst, dpitch, width, height) ||
      rowsWrap(src, spitch, width, height))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2dAsync",
                "the rows run past the end of the address space");
  for (size_t row = 0; row < height; ++row)
    if (aclError error = aclrtMemcpyAsync(
            static_cast<char *>(dst) + row * dpitch, width,
            static_cast<const char *>(src) + row * spitch, width, kind, stream))
      return error;
  return ACL_SUCCESS;
}

} // extern "C"
