//===- acl_model_capture_api.cpp - Model runtime instances by capture -----===//
//
// Contract: aclmdlRICaptureBegin puts a stream in capture mode: what is
// queued on it from then on (copies, sets, operators, model executions,
// event records, callbacks) is recorded instead of run (Stream::beginCapture).
// aclmdlRICaptureEnd ends the capture and hands out the recorded graph, a
// model runtime instance (aclmdlRI), which aclmdlRIExecuteAsync replays on a
// stream, in the recorded order, as often as asked, and aclmdlRIDestroy
// frees. The instance exists from aclmdlRICaptureBegin on, as in the real
// runtime (aclmdlRICaptureGetInfo returns it while the capture is on).
//
// As hicann/runtime's checks: a null stream is ACL_ERROR_INVALID_PARAM; a
// mode outside the enum ACL_ERROR_RT_PARAM_INVALID; capturing a stream that
// is already capturing ACL_ERROR_RT_STREAM_CAPTURED, ending a capture on one
// that is not ACL_ERROR_RT_STREAM_NOT_CAPTURED; the default stream cannot be
// captured (ACL_ERROR_RT_FEATURE_NOT_SUPPORT); replaying onto a stream that
// is capturing is ACL_ERROR_RT_STREAM_CAPTURED. Stricter than the real
// runtime, whose model handle is a pointer it trusts: an instance that is not
// live (destroyed, or never made) is ACL_ERROR_RT_INVALID_HANDLE, and so is
// replaying or destroying one whose capture has not ended.
//
// An instance belongs to the device of the stream it was captured on: as the
// real runtime's context teardown deletes the context's models, the last
// aclrtResetDevice of that device (and aclFinalize) destroys it
// (releaseDeviceModelInstances), after which it is not live. It holds no
// device memory of the simulation's (what the real runtime allocates for one
// is not established).
//
// Locking: the instances are guarded by Runtime::Mutex.
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <type_traits>
#include <vector>

using namespace mssim;

namespace {

struct ModelRI {
  int32_t device = 0;
  Stream *capturing = nullptr; // while the capture is on
  std::vector<Stream::Task> tasks;
};

/// The live instances and the streams capturing into one, under
/// Runtime::Mutex.
struct Instances {
  std::set<ModelRI *> Live;
  std::map<Stream *, ModelRI *> Capturing;
};

Instances &instances() {
  static Instances all;
  return all;
}

thread_local aclmdlRICaptureMode ThreadMode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

bool validMode(aclmdlRICaptureMode mode) {
  return mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
         mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ||
         mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

/// Under Runtime::Mutex: the user stream `stream` in a context of this
/// thread's, or null with the error recorded for `api`.
StreamObject *capturableStream(Runtime &rt, const char *api, aclrtStream stream,
                               aclError *error) {
  if (!stream) {
    *error = fail(ACL_ERROR_INVALID_PARAM, api, "the stream is null");
    return nullptr;
  }
  if (!rt.current()) {
    *error = noCurrentDevice(api);
    return nullptr;
  }
  StreamObject *object = rt.lookupStream(stream);
  if (!object) {
    *error = fail(ACL_ERROR_RT_STREAM_CONTEXT, api,
                  "stream " + hexAddress(stream) + " does not exist");
    return nullptr;
  }
  if (object == object->context->defaultStream) {
    *error = fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api,
                  "the default stream cannot be captured");
    return nullptr;
  }
  return object;
}

/// Under Runtime::Mutex: whether `queue` is the queue of a live stream.
bool streamAlive(Runtime &rt, Stream *queue) {
  for (StreamObject *stream : rt.Streams)
    if (stream->queue.get() == queue)
      return true;
  return false;
}

/// Under Runtime::Mutex: the instance `queue` captures into, if its capture
/// is still on (a stream destroyed while capturing leaves a stale entry,
/// which a new stream at its address must not inherit).
ModelRI *captureOf(Runtime &rt, Stream *queue) {
  Instances &all = instances();
  auto it = all.Capturing.find(queue);
  if (it == all.Capturing.end())
    return nullptr;
  if (!streamAlive(rt, queue) || !queue->capturing()) {
    all.Capturing.erase(it);
    return nullptr;
  }
  return it->second;
}

/// Under Runtime::Mutex: `handle` if it is a live instance whose capture has
/// ended, else null with the error recorded for `api`.
ModelRI *finishedInstance(Runtime &rt, const char *api, aclmdlRI handle,
                          aclError *error) {
  auto *ri = static_cast<ModelRI *>(handle);
  if (!handle) {
    *error = fail(ACL_ERROR_INVALID_PARAM, api, "modelRI is null");
    return nullptr;
  }
  if (!instances().Live.count(ri)) {
    *error = fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                  hexAddress(handle) +
                      " is not a live model runtime instance (destroyed, "
                      "or its device was reset)");
    return nullptr;
  }
  if (ri->capturing && captureOf(rt, ri->capturing) == ri) {
    *error = fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                  "the capture of " + hexAddress(handle) + " has not ended");
    return nullptr;
  }
  return ri;
}

} // namespace

void mssim::releaseDeviceModelInstances(int32_t device) {
  Instances &all = instances();
  for (auto it = all.Live.begin(); it != all.Live.end();) {
    ModelRI *ri = *it;
    if (ri->device != device) {
      ++it;
      continue;
    }
    if (ri->capturing)
      all.Capturing.erase(ri->capturing);
    it = all.Live.erase(it);
    delete ri;
  }
}

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream,
                                                  aclmdlRICaptureMode mode) {
  const char *api = "aclmdlRICaptureBegin";
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  aclError error = ACL_SUCCESS;
  StreamObject *object = capturableStream(rt, api, stream, &error);
  if (!object)
    return error;
  if (!validMode(mode))
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "capture mode " + std::to_string(mode) + " is not one");
  Stream *queue = object->queue.get();
  if (captureOf(rt, queue) || !queue->beginCapture())
    return fail(ACL_ERROR_RT_STREAM_CAPTURED, api,
                "stream " + hexAddress(stream) + " is already capturing");
  auto *ri = new ModelRI;
  ri->device = object->context->device;
  ri->capturing = queue;
  instances().Live.insert(ri);
  instances().Capturing[queue] = ri;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(
    aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI) {
  const char *api = "aclmdlRICaptureGetInfo";
  if (!stream || (!status && !modelRI))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "a null stream, or both status and modelRI null");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  aclError error = ACL_SUCCESS;
  StreamObject *object = capturableStream(rt, api, stream, &error);
  if (!object)
    return error;
  ModelRI *ri = captureOf(rt, object->queue.get());
  if (status)
    *status = ri ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
                 : ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  if (modelRI)
    *modelRI = ri;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream,
                                                aclmdlRI *modelRI) {
  const char *api = "aclmdlRICaptureEnd";
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  aclError error = ACL_SUCCESS;
  StreamObject *object = capturableStream(rt, api, stream, &error);
  if (!object)
    return error;
  Stream *queue = object->queue.get();
  ModelRI *ri = captureOf(rt, queue);
  if (!ri)
    return fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, api,
                "stream " + hexAddress(stream) + " is not capturing");
  if (!modelRI)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "modelRI is null");
  queue->endCapture(&ri->tasks);
  ri->capturing = nullptr;
  instances().Capturing.erase(queue);
  *modelRI = ri;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI,
                                                  aclrtStream stream) {
  const char *api = "aclmdlRIExecuteAsync";
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  aclError error = ACL_SUCCESS;
  ModelRI *ri = finishedInstance(rt, api, modelRI, &error);
  if (!ri)
    return error;
  StreamObject *object = rt.lookupStream(stream);
  if (!object)
    return stream ? fail(ACL_ERROR_RT_STREAM_CONTEXT, api,
                         "stream " + hexAddress(stream) + " does not exist")
                  : noCurrentDevice(api);
  if (object->queue->capturing()) // as the runtime's ModelExecute checks
    return fail(ACL_ERROR_RT_STREAM_CAPTURED, api,
                "stream " + hexAddress(stream) + " is capturing");
  for (const Stream::Task &task : ri->tasks)
    object->queue->enqueue(task);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  aclError error = ACL_SUCCESS;
  ModelRI *ri = finishedInstance(rt, "aclmdlRIDestroy", modelRI, &error);
  if (!ri)
    return error;
  instances().Live.erase(ri);
  delete ri;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode) {
  const char *api = "aclmdlRICaptureThreadExchangeMode";
  if (!mode)
    return fail(ACL_ERROR_INVALID_PARAM, api, "mode is null");
  // Read as its underlying integer: what the caller stored may be no
  // enumerator, and loading that as the enumeration is undefined.
  std::underlying_type_t<aclmdlRICaptureMode> raw;
  std::memcpy(&raw, mode, sizeof raw);
  if (raw != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
      raw != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
      raw != ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "capture mode " + std::to_string(raw) + " is not one");
  std::swap(ThreadMode, *mode);
  return ACL_SUCCESS;
}

} // extern "C"
