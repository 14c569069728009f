//===- acl_device_api.cpp - aclInit, devices, contexts, streams, events ---===//
#include "runtime.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <unistd.h>

using namespace mssim;

namespace {

uint32_t deviceCount() {
  uint32_t count = 0;
  drvGetDevNum(&count);
  return count;
}

bool validDevice(int32_t device) {
  return device >= 0 && static_cast<uint32_t>(device) < deviceCount();
}

EventObject *lookupEvent(Runtime &rt, aclrtEvent handle) {
  auto *event = static_cast<EventObject *>(handle);
  return event && rt.Events.count(event) ? event : nullptr;
}

} // namespace

namespace {

aclError createEvent(const char *api, aclrtEvent *event, uint32_t flags = 0) {
  if (!event)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.current())
    return noCurrentDevice(api);
  auto *created = new EventObject;
  created->event = std::make_shared<Event>();
  created->flags = flags;
  rt.Events.insert(created);
  *event = created;
  return ACL_SUCCESS;
}

} // namespace

aclError mssim::createStreamFor(const char *api, aclrtStream *stream) {
  if (!stream)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  ContextObject *context = rt.current();
  if (!context)
    return noCurrentDevice(api);
  StreamObject *created = nullptr;
  aclError status = rt.createStream(context, &created);
  if (status != ACL_SUCCESS)
    return fail(status, api, "cannot allocate the stream's device queue");
  *stream = created;
  return ACL_SUCCESS;
}

aclError mssim::destroyStreamFor(const char *api, aclrtStream stream) {
  Runtime &rt = Runtime::instance();
  std::unique_ptr<StreamObject> doomed;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    auto *object = static_cast<StreamObject *>(stream);
    if (!object)
      return fail(ACL_ERROR_INVALID_PARAM, api, "null stream");
    if (!rt.Streams.count(object))
      return fail(ACL_ERROR_RT_STREAM_CONTEXT, api,
                  "stream " + hexAddress(stream) +
                      " does not exist or was already destroyed");
    if (object->context->defaultStream == object)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "the default stream cannot be destroyed");
    doomed = rt.detachStream(object);
  }
  std::vector<std::unique_ptr<StreamObject>> streams;
  streams.push_back(std::move(doomed));
  destroyStreams(streams);
  return ACL_SUCCESS;
}

extern "C" {

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath) {
  Runtime &rt = Runtime::instance();
  std::unique_lock<std::mutex> lock(rt.Mutex);
  if (rt.Initialized) {
    countInitReference(false); // a reference all the same, as the real one
    return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit",
                "AscendCL is already initialized");
  }
  if (configPath && *configPath) {
    FILE *config = fopen(configPath, "r");
    if (!config)
      return fail(ACL_ERROR_INVALID_FILE, "aclInit",
                  std::string("cannot open config file ") + configPath);
    fclose(config);
  }
  rt.Initialized = true;
  lock.unlock();
  // Registered initialisation callbacks run last; one failing fails aclInit.
  if (aclError error = runInitCallbacks(configPath)) {
    std::lock_guard<std::mutex> relock(rt.Mutex);
    rt.Initialized = false;
    countInitReference(true);
    return error;
  }
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void) {
  Runtime &rt = Runtime::instance();
  std::vector<std::unique_ptr<StreamObject>> doomed;
  // Registered finalisation callbacks run first; one failing fails
  // aclFinalize, which then leaves AscendCL initialised.
  if (aclError error = runFinalizeCallbacks())
    return error;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    if (!rt.Initialized)
      return fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize",
                  "AscendCL is not initialized");
    // What the application still holds of the runtime goes now: loaded
    // models and every device still set (its pool, contexts and streams).
    for (auto &entry : rt.Models)
      for (void *memory : entry.second.deviceMemory)
        halMemFree(memory);
    rt.Models.clear();
    for (int32_t device = 0; device < 8; ++device)
      rt.releaseDevice(device, /*all=*/true, &doomed);
    rt.Initialized = false;
    countInitReference(true);
  }
  destroyStreams(doomed);
  // As the real aclFinalize's MsprofFinalize: an aclprofInit session of
  // libmsprofiler.so, where the process has it, ends (its stamps with it).
  if (mssim_profFinalizeSession)
    mssim_profFinalizeSession();
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion,
                                             int32_t *minorVersion,
                                             int32_t *patchVersion) {
  if (!majorVersion || !minorVersion || !patchVersion)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion",
                "null output pointer");
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.Initialized)
    return fail(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice",
                "aclInit has not been called");
  if (!validDevice(deviceId))
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice",
                "device " + std::to_string(deviceId) + " does not exist (" +
                    std::to_string(deviceCount()) +
                    " simulated devices; set MSSIM_DEVICE_COUNT for more)");
  ContextObject *context = nullptr;
  aclError status = rt.retainDevice(deviceId, &context);
  if (status != ACL_SUCCESS)
    return fail(status, "aclrtSetDevice",
                "cannot allocate the runtime's device memory");
  Runtime::CurrentContext = context;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId) {
  Runtime &rt = Runtime::instance();
  std::vector<std::unique_ptr<StreamObject>> doomed;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    if (!validDevice(deviceId))
      return fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice",
                  "device " + std::to_string(deviceId) + " does not exist");
    if (rt.DeviceRefs[deviceId] == 0)
      return fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtResetDevice",
                  "device " + std::to_string(deviceId) +
                      " is not set in this process");
    rt.releaseDevice(deviceId, /*all=*/false, &doomed);
  }
  destroyStreams(doomed);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId) {
  if (!deviceId)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice",
                "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  ContextObject *context = rt.current();
  if (!context)
    return noCurrentDevice("aclrtGetDevice");
  *deviceId = context->device;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count) {
  if (!count)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount",
                "null output pointer");
  *count = deviceCount();
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  if (!runMode)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode",
                "null output pointer");
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void) { return "Ascend910B3"; }

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void) {
  Runtime &rt = Runtime::instance();
  std::vector<Stream *> queues;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    ContextObject *context = rt.current();
    if (!context)
      return noCurrentDevice("aclrtSynchronizeDevice");
    for (StreamObject *stream : rt.Streams)
      if (stream->context->device == context->device)
        queues.push_back(stream->queue.get());
  }
  // Streams are destroyed only by their owner; a concurrent destroy of a
  // stream being synchronised here is an application race, as on hardware.
  aclError first = ACL_SUCCESS;
  for (Stream *queue : queues)
    if (int error = queue->synchronize(); error && first == ACL_SUCCESS)
      first = error;
  return first;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context,
                                                int32_t deviceId) {
  if (!context)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext",
                "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.Initialized)
    return fail(ACL_ERROR_UNINITIALIZE, "aclrtCreateContext",
                "aclInit has not been called");
  if (!validDevice(deviceId))
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext",
                "device " + std::to_string(deviceId) + " does not exist");
  ContextObject *defaultContext = nullptr;
  aclError status = rt.retainDevice(deviceId, &defaultContext);
  if (status != ACL_SUCCESS)
    return fail(status, "aclrtCreateContext", "cannot open the device");
  auto *created = new ContextObject;
  created->device = deviceId;
  rt.Contexts.insert(created);
  status = rt.createStream(created, &created->defaultStream);
  if (status != ACL_SUCCESS) {
    rt.Contexts.erase(created);
    delete created;
    std::vector<std::unique_ptr<StreamObject>> none;
    rt.releaseDevice(deviceId, false, &none);
    return fail(status, "aclrtCreateContext",
                "cannot allocate the context's stream");
  }
  Runtime::CurrentContext = created;
  *context = created;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context) {
  Runtime &rt = Runtime::instance();
  std::vector<std::unique_ptr<StreamObject>> doomed;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    auto *object = static_cast<ContextObject *>(context);
    if (!object)
      return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext",
                  "null context");
    if (!rt.Contexts.count(object))
      return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyContext",
                  "context " + hexAddress(context) +
                      " does not exist or was already destroyed");
    if (object->isDefault)
      return fail(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtDestroyContext",
                  "the default context is released by aclrtResetDevice");
    for (auto it = rt.Streams.begin(); it != rt.Streams.end();) {
      StreamObject *stream = *it++;
      if (stream->context == object)
        doomed.push_back(rt.detachStream(stream));
    }
    int32_t device = object->device;
    rt.Contexts.erase(object);
    delete object;
    if (Runtime::CurrentContext == object)
      Runtime::CurrentContext = nullptr;
    rt.releaseDevice(device, false, &doomed);
  }
  destroyStreams(doomed);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  auto *object = static_cast<ContextObject *>(context);
  if (!object || !rt.Contexts.count(object))
    return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtSetCurrentContext",
                "context " + hexAddress(context) + " does not exist");
  Runtime::CurrentContext = object;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context) {
  if (!context)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext",
                "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  ContextObject *current = rt.current();
  if (!current)
    return fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext",
                "no context on this thread");
  *context = current;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream) {
  return createStreamFor("aclrtCreateStream", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream) {
  return destroyStreamFor("aclrtDestroyStream", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream) {
  Runtime &rt = Runtime::instance();
  Stream *queue;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    StreamObject *object = rt.lookupStream(stream);
    if (!object)
      return fail(stream ? ACL_ERROR_RT_STREAM_CONTEXT
                         : ACL_ERROR_RT_CONTEXT_NULL,
                  "aclrtSynchronizeStream",
                  "stream " + hexAddress(stream) + " does not exist");
    queue = object->queue.get();
  }
  int error = queue->synchronize();
  return error ? fail(error, "aclrtSynchronizeStream",
                      "a task on the stream failed")
               : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event) {
  return createEvent("aclrtCreateEvent", event);
}

// The flags: timing and synchronisation behave the same in the simulation;
// ACL_EVENT_IPC allows aclrtIpcGetEventHandle.
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event,
                                                      uint32_t flag) {
  return createEvent("aclrtCreateEventWithFlag", event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event,
                                                        uint32_t flag) {
  return createEvent("aclrtCreateEventExWithFlag", event, flag);
}

namespace {
// IPC events: a handle names the exporting process and its event; an event
// opened from it shares the exported event's records (and keeps them when
// the exported one is destroyed, as an opened event is one of its own).
// Opening a handle of another process is not simulated: the records would
// have to cross processes.
constexpr char kIpcEventMagic[16] = "mssim-ipc-event";
struct IpcEventBits {
  char magic[sizeof kIpcEventMagic];
  uint64_t pid;
  uint64_t id; // in exportedEvents()
};
static_assert(sizeof(IpcEventBits) <= ACL_IPC_EVENT_HANDLE_SIZE,
              "an IPC event handle holds the bits");
/// The events handed out by aclrtIpcGetEventHandle, by id; under the
/// runtime's lock.
std::map<uint64_t, std::weak_ptr<Event>> &exportedEvents() {
  static auto *exported = new std::map<uint64_t, std::weak_ptr<Event>>;
  return *exported;
}
} // namespace

ACL_FUNC_VISIBILITY aclError
aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle) {
  const char *api = "aclrtIpcGetEventHandle";
  if (!handle)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *object = lookupEvent(rt, event);
  if (!object)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "event " + hexAddress(event) + " does not exist");
  if (!(object->flags & ACL_EVENT_IPC))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "event " + hexAddress(event) +
                    " was not created with ACL_EVENT_IPC");
  for (auto it = exportedEvents().begin(); it != exportedEvents().end();)
    it = it->second.expired() ? exportedEvents().erase(it) : std::next(it);
  static uint64_t nextId = 1;
  IpcEventBits bits;
  memcpy(bits.magic, kIpcEventMagic, sizeof bits.magic);
  bits.pid = static_cast<uint64_t>(getpid());
  bits.id = nextId++;
  exportedEvents()[bits.id] = object->event;
  memset(handle, 0, sizeof *handle);
  memcpy(handle->reserved, &bits, sizeof bits);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle,
                                                     aclrtEvent *event) {
  const char *api = "aclrtIpcOpenEventHandle";
  if (!event)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null output pointer");
  IpcEventBits bits;
  memcpy(&bits, handle.reserved, sizeof bits);
  if (memcmp(bits.magic, kIpcEventMagic, sizeof bits.magic) != 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "not a handle of aclrtIpcGetEventHandle");
  if (bits.pid != static_cast<uint64_t>(getpid()))
    return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                "not simulated: an IPC event of another process (pid " +
                    std::to_string(bits.pid) + ")");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.current())
    return noCurrentDevice(api);
  auto exported = exportedEvents().find(bits.id);
  std::shared_ptr<Event> shared =
      exported == exportedEvents().end() ? nullptr : exported->second.lock();
  if (!shared)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the exported event no longer exists");
  auto *opened = new EventObject;
  opened->event = std::move(shared);
  opened->flags = ACL_EVENT_IPC;
  rt.Events.insert(opened);
  *event = opened;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *object = lookupEvent(rt, event);
  if (!object)
    return fail(event ? ACL_ERROR_RT_INVALID_HANDLE : ACL_ERROR_INVALID_PARAM,
                "aclrtDestroyEvent",
                "event " + hexAddress(event) +
                    " does not exist or was already destroyed");
  rt.Events.erase(object);
  delete object; // queued records keep the Event itself alive
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event,
                                              aclrtStream stream) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *object = lookupEvent(rt, event);
  if (!object)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtRecordEvent",
                "event " + hexAddress(event) + " does not exist");
  StreamObject *target = rt.lookupStream(stream);
  if (!target)
    return fail(ACL_ERROR_RT_STREAM_CONTEXT, "aclrtRecordEvent",
                "stream " + hexAddress(stream) + " does not exist");
  std::shared_ptr<Event> shared = object->event;
  uint64_t generation = shared->beginRecord();
  target->queue->enqueue([shared, generation] {
    shared->complete(generation);
    return 0;
  });
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event,
                                             aclrtStream stream) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *object = lookupEvent(rt, event);
  if (!object)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtResetEvent",
                "event " + hexAddress(event) + " does not exist");
  StreamObject *target = rt.lookupStream(stream);
  if (!target)
    return fail(ACL_ERROR_RT_STREAM_CONTEXT, "aclrtResetEvent",
                "stream " + hexAddress(stream) + " does not exist");
  std::shared_ptr<Event> shared = object->event;
  target->queue->enqueue([shared] {
    shared->reset();
    return 0;
  });
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event) {
  Runtime &rt = Runtime::instance();
  std::shared_ptr<Event> shared;
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    EventObject *object = lookupEvent(rt, event);
    if (!object)
      return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtSynchronizeEvent",
                  "event " + hexAddress(event) + " does not exist");
    shared = object->event;
  }
  shared->waitFor(shared->latest());
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  if (!status)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus",
                "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *object = lookupEvent(rt, event);
  if (!object)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtQueryEventStatus",
                "event " + hexAddress(event) + " does not exist");
  *status = object->event->isComplete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                        : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream,
                                                  aclrtEvent event) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *object = lookupEvent(rt, event);
  if (!object)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamWaitEvent",
                "event " + hexAddress(event) + " does not exist");
  StreamObject *target = rt.lookupStream(stream);
  if (!target)
    return fail(ACL_ERROR_RT_STREAM_CONTEXT, "aclrtStreamWaitEvent",
                "stream " + hexAddress(stream) + " does not exist");
  std::shared_ptr<Event> shared = object->event;
  uint64_t generation = shared->latest();
  target->queue->enqueue([shared, generation] {
    shared->waitFor(generation);
    return 0;
  });
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms,
                                                   aclrtEvent startEvent,
                                                   aclrtEvent endEvent) {
  if (!ms)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime",
                "null output pointer");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  EventObject *start = lookupEvent(rt, startEvent),
              *end = lookupEvent(rt, endEvent);
  if (!start || !end)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtEventElapsedTime",
                "unknown event");
  Event::Clock::time_point from, to;
  if (!start->event->timestamp(&from) || !end->event->timestamp(&to))
    return fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE, "aclrtEventElapsedTime",
                "an event has not completed");
  *ms = std::chrono::duration<float, std::milli>(to - from).count();
  return ACL_SUCCESS;
}

} // extern "C"
