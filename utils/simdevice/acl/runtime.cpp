//===- runtime.cpp - State of the simulated AscendCL runtime --------------===//
#include "runtime.h"
#include "mem_queue.h"

#include <cinttypes>
#include <cstdio>
#include <dlfcn.h>

namespace mssim {

thread_local ContextObject *Runtime::CurrentContext = nullptr;
thread_local std::string RecentError;
thread_local aclError LastError = ACL_SUCCESS;

Runtime &Runtime::instance() {
  // Leaked on purpose: applications release resources from static destructors.
  static Runtime *runtime = new Runtime;
  return *runtime;
}

namespace {

/// `name` as the driver library defines it (libascend_hal.so, which this
/// library links), not as the process's lookup finds it.
template <typename Function> Function driverOwn(const char *name) {
  void *driver = dlopen("libascend_hal.so", RTLD_LAZY | RTLD_NOLOAD);
  void *own = driver ? dlsym(driver, name) : nullptr;
  return reinterpret_cast<Function>(own ? own : dlsym(RTLD_DEFAULT, name));
}

} // namespace

drvError_t deviceCopy(DVdeviceptr dst, size_t destMax, DVdeviceptr src,
                      size_t count) {
  using Copy = drvError_t (*)(DVdeviceptr, size_t, DVdeviceptr, size_t);
  static Copy copy = driverOwn<Copy>("drvMemcpy");
  return copy(dst, destMax, src, count);
}

drvError_t deviceSet(DVdeviceptr dst, size_t destMax, UINT8 value,
                     size_t count) {
  using Set = drvError_t (*)(DVdeviceptr, size_t, UINT8, size_t);
  static Set set = driverOwn<Set>("drvMemsetD8");
  return set(dst, destMax, value, count);
}

bool readDevice(const void *from, size_t bytes, std::vector<uint8_t> *out) {
  out->resize(bytes);
  return deviceCopy(reinterpret_cast<DVdeviceptr>(out->data()), bytes,
                    reinterpret_cast<DVdeviceptr>(from), bytes) == 0;
}

bool writeDevice(void *to, const std::vector<uint8_t> &bytes) {
  return deviceCopy(reinterpret_cast<DVdeviceptr>(to), bytes.size(),
                    reinterpret_cast<DVdeviceptr>(bytes.data()),
                    bytes.size()) == 0;
}

aclError noCurrentDevice(const char *api) {
  return fail(ACL_ERROR_RT_CONTEXT_NULL, api,
              "no device is set on this thread");
}

void recordErrorMessage(const char *api, const std::string &message, int code) {
  RecentError = std::string(api) + ": " + message + " (error " +
                std::to_string(code) + ")";
}

aclError fail(aclError code, const char *api, const std::string &message) {
  recordErrorMessage(api, message, code);
  LastError = code;
  return code;
}

aclError fromDriver(drvError_t error) {
  switch (error) {
  case DRV_ERROR_NONE:
    return ACL_SUCCESS;
  case DRV_ERROR_OUT_OF_MEMORY:
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  case DRV_ERROR_INVALID_DEVICE:
  case DRV_ERROR_NO_DEVICE:
    return ACL_ERROR_RT_INVALID_DEVICEID;
  case DRV_ERROR_INVALID_HANDLE:
    return ACL_ERROR_RT_INVALID_HANDLE;
  case DRV_ERROR_INVALID_MALLOC_TYPE:
    return ACL_ERROR_RT_INVALID_MALLOC_TYPE;
  case DRV_ERROR_INVALID_VALUE:
  case DRV_ERROR_PARA_ERROR:
    return ACL_ERROR_RT_PARAM_INVALID;
  default:
    return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
  }
}

std::string hexAddress(const void *address) {
  char text[32];
  snprintf(text, sizeof(text), "0x%" PRIxPTR,
           reinterpret_cast<uintptr_t>(address));
  return text;
}

void destroyStreams(std::vector<std::unique_ptr<StreamObject>> &streams) {
  for (auto &stream : streams) {
    Stream *queue = stream->queue.get();
    stream->queue.reset(); // waits for its queued work
    forgetCallbackThread(queue);
  }
  streams.clear();
}

ContextObject *Runtime::current() {
  return CurrentContext && Contexts.count(CurrentContext) ? CurrentContext
                                                          : nullptr;
}

StreamObject *Runtime::lookupStream(aclrtStream handle) {
  if (!handle) {
    ContextObject *context = current();
    return context ? context->defaultStream : nullptr;
  }
  auto *stream = static_cast<StreamObject *>(handle);
  return Streams.count(stream) ? stream : nullptr;
}

int32_t currentDevice() {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  ContextObject *context = rt.current();
  return context ? context->device : -1;
}

Stream *queueFor(const char *api, aclrtStream stream, aclError *status) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (StreamObject *object = rt.lookupStream(stream))
    return object->queue.get();
  *status = stream ? fail(ACL_ERROR_RT_STREAM_CONTEXT, api,
                          "stream " + hexAddress(stream) + " does not exist")
                   : noCurrentDevice(api);
  return nullptr;
}

bool inDeviceMemory(const void *pointer) {
  DVattribute attr;
  return pointer &&
         drvMemGetAttribute(reinterpret_cast<DVdeviceptr>(pointer), &attr) ==
             DRV_ERROR_NONE &&
         (attr.memType == DV_MEM_LOCK_DEV ||
          attr.memType == DV_MEM_LOCK_DEV_DVPP ||
          attr.memType == DV_MEM_SVM_DEVICE);
}

aclError enqueueTask(const char *api, aclrtStream stream, Stream::Task task) {
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor(api, stream, &status);
  if (!queue)
    return status;
  queue->enqueue(std::move(task));
  return ACL_SUCCESS;
}

ContextObject *Runtime::defaultContextOf(int32_t device) {
  for (ContextObject *context : Contexts)
    if (context->device == device && context->isDefault)
      return context;
  return nullptr;
}

aclError Runtime::createStream(ContextObject *context, StreamObject **out) {
  void *memory = nullptr;
  drvError_t error =
      halMemAlloc(&memory, kStreamQueueBytes,
                  driverFlag(context->device, MEM_DEV, RUNTIME_MODULE_ID));
  if (error != DRV_ERROR_NONE)
    return fromDriver(error);
  auto *stream = new StreamObject;
  stream->queue = std::make_unique<Stream>();
  stream->context = context;
  stream->deviceMemory = memory;
  stream->id = NextStreamId++;
  Streams.insert(stream);
  *out = stream;
  return ACL_SUCCESS;
}

std::unique_ptr<StreamObject> Runtime::detachStream(StreamObject *stream) {
  Streams.erase(stream);
  halMemFree(stream->deviceMemory);
  stream->deviceMemory = nullptr;
  return std::unique_ptr<StreamObject>(stream);
}

aclError Runtime::retainDevice(int32_t device, ContextObject **defaultContext) {
  if (DeviceRefs[device] > 0) {
    ++DeviceRefs[device];
    *defaultContext = defaultContextOf(device);
    return ACL_SUCCESS;
  }
  // The runtime's own pool, as the real runtime reserves memory at set-device.
  void *pool = nullptr;
  drvError_t error = halMemAlloc(
      &pool, kDevicePoolBytes,
      driverFlag(device, MEM_DEV | MEM_PAGE_HUGE, RUNTIME_MODULE_ID));
  if (error != DRV_ERROR_NONE)
    return fromDriver(error);
  auto *context = new ContextObject;
  context->device = device;
  context->isDefault = true;
  Contexts.insert(context);
  aclError status = createStream(context, &context->defaultStream);
  if (status != ACL_SUCCESS) {
    Contexts.erase(context);
    delete context;
    halMemFree(pool);
    return status;
  }
  DeviceInternals[device].push_back(pool);
  DeviceRefs[device] = 1;
  *defaultContext = context;
  return ACL_SUCCESS;
}

void Runtime::releaseDevice(
    int32_t device, bool all,
    std::vector<std::unique_ptr<StreamObject>> *doomed) {
  if (DeviceRefs[device] == 0)
    return;
  DeviceRefs[device] = all ? 0 : DeviceRefs[device] - 1;
  if (DeviceRefs[device] > 0)
    return;
  releaseDeviceQueues(device); // the memory queues on it (mem_queue.h)
  // The model runtime instances captured on it (acl_model_capture_api.cpp).
  releaseDeviceModelInstances(device);
  for (auto it = Streams.begin(); it != Streams.end();) {
    StreamObject *stream = *it++;
    if (stream->context->device == device)
      doomed->push_back(detachStream(stream));
  }
  for (auto it = Contexts.begin(); it != Contexts.end();) {
    ContextObject *context = *it++;
    if (context->device == device) {
      Contexts.erase(context);
      delete context;
    }
  }
  for (void *memory : DeviceInternals[device])
    halMemFree(memory);
  DeviceInternals[device].clear();
}

bool Runtime::isLive(const void *handle, HandleKind kind) {
  std::lock_guard<std::mutex> lock(Mutex);
  auto it = Handles.find(handle);
  return it != Handles.end() && it->second == kind;
}

void Runtime::addHandle(const void *handle, HandleKind kind) {
  std::lock_guard<std::mutex> lock(Mutex);
  Handles[handle] = kind;
}

bool Runtime::removeHandle(const void *handle, HandleKind kind) {
  std::lock_guard<std::mutex> lock(Mutex);
  auto it = Handles.find(handle);
  if (it == Handles.end() || it->second != kind)
    return false;
  Handles.erase(it);
  return true;
}

} // namespace mssim

aclError mssim::lastError(bool clear) {
  aclError code = LastError;
  if (clear)
    LastError = ACL_SUCCESS;
  return code;
}

extern "C" ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void) {
  // The message is handed out once, as the real runtime does.
  static thread_local std::string returned;
  if (mssim::RecentError.empty())
    return nullptr;
  returned.swap(mssim::RecentError);
  mssim::RecentError.clear();
  return returned.c_str();
}
