//===- runtime.h - State of the simulated AscendCL runtime ------*- C++ -*-===//
//
// Contract: the process-wide state behind libascendcl.so: initialisation,
// per-device reference counts and the allocations the runtime makes for
// itself, contexts, streams, events, models and the registry of live handles
// that lets every API reject an unknown or already-destroyed handle with an
// error code instead of touching freed memory.
//
// Layering: all device memory, the runtime's own included, comes from the
// driver (driver/ascend_hal.h); nothing here allocates device memory itself.
// libacl_dvpp.so (DVPP) stands on libascendcl.so, through what is MSSIM_SHARED.
//
// Locking: Runtime::Mutex guards every table. It is never held while waiting
// for a stream, so a task may call the driver freely.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACL_RUNTIME_H
#define MSSIM_ACL_RUNTIME_H

#include "acl/acl.h"
#include "driver/ascend_hal.h"
#include "stream.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

/// What libascendcl.so exports of its internals for the other libraries of
/// the simulated toolkit (libacl_dvpp.so), as the real runtime does.
#define MSSIM_SHARED __attribute__((visibility("default")))

namespace mssim {

/// Sizes of what the runtime allocates on the device for itself (documented
/// in utils/simdevice/README.md; tests rely on them). Set-device takes
/// 0x24000 bytes in all, so a program's first aclrtMalloc lands at
/// 0x124080024000, the address of the report in DESIGN.md.
constexpr uint64_t kDevicePoolBytes = 128ULL << 10; // at aclrtSetDevice
constexpr uint64_t kStreamQueueBytes = 16ULL << 10; // per stream
constexpr uint64_t kModelWorkspaceBytes = 256ULL << 10;
constexpr uint64_t kDvppChannelBytes = 1ULL << 20;
/// The driver's granularity of physical memory and reserved address ranges
/// (hal/driver.h), what aclrtMemGetAllocationGranularity reports.
constexpr uint64_t kMemGranularity = 2ULL << 20;

/// (size + 32 + 31) / 32 * 32: what aclrtMalloc asks of the driver.
constexpr uint64_t paddedDeviceSize(uint64_t size) {
  return (size + 32 + 31) / 32 * 32;
}

/// halMemAlloc flag for memory of `type` on `device` requested by `module`.
constexpr unsigned long long driverFlag(int32_t device, unsigned long long type,
                                        unsigned module) {
  return static_cast<unsigned long long>(device) | type |
         (static_cast<unsigned long long>(module) << MEM_MODULE_ID_BIT);
}

struct ContextObject;

struct StreamObject {
  std::unique_ptr<Stream> queue;
  ContextObject *context = nullptr;
  void *deviceMemory = nullptr;
  int32_t id = 0; // aclrtStreamGetId: unique in the process
};

struct ContextObject {
  int32_t device = 0;
  bool isDefault = false;
  StreamObject *defaultStream = nullptr;
};

struct EventObject {
  std::shared_ptr<Event> event;
  uint32_t flags = 0; // aclrtCreateEventWithFlag's: ACL_EVENT_IPC, ...
};

/// An input or output of a model, as its description names it.
struct ModelTensor {
  std::string name;
  aclDataType type = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> dims;
  size_t bytes = 0; // elements times the type's size
};

/// What loading learns of a model: from a description of the simulation's
/// own (utils/simdevice/README.md, "Models"), or, for any other bytes, a
/// model of that many bytes of weights and no inputs or outputs.
struct ModelShape {
  uint64_t weightSize = 0;
  uint64_t workspaceSize = kModelWorkspaceBytes;
  std::vector<ModelTensor> inputs, outputs;
};

/// Reads `bytes` as a model; false with *error set for a description that
/// is malformed (the bytes are one: they start with "mssim-model").
MSSIM_SHARED bool readModel(const std::string &bytes, ModelShape *shape,
                            std::string *error);

struct ModelObject {
  int32_t device = 0;
  std::vector<void *> deviceMemory; // released by aclmdlUnload
  ModelShape shape;
  uint32_t bundle = 0; // the bundle it was loaded in (aclmdlBundleUnload's)
};

/// Kinds of handles whose lifetime the runtime tracks.
enum class HandleKind {
  DataBuffer,
  TensorDesc,
  Dataset,
  ModelDesc,
  OpAttr,
  PicDesc,
  RoiConfig,
  ResizeConfig,
  ChannelDesc,
  BatchPicDesc,
  JpegeConfig,
  StreamDesc,
  VdecChannelDesc,
  VdecFrameConfig,
  VencChannelDesc,
  VencFrameConfig,
  ProfConfig,
  ProfStepInfo,
  ProfStamp,
  ProfSubscribeConfig,
  BorderConfig,
  LutMap,
  Hist,
  StreamConfig,
  Notify,
  // libacl_tdt_channel.so, libacl_tdt_queue.so, libacl_retr.so.
  TdtDataItem,
  TdtDataset,
  TdtChannel,
  TdtQueueAttr,
  TdtQueueRoute,
  TdtQueueRouteList,
  TdtQueueRouteQueryInfo,
  FvInitPara,
  FvFeatureInfo,
  FvRepoRange,
  FvQueryTable,
  FvSearchInput,
  FvSearchResult
};

class MSSIM_SHARED Runtime {
public:
  static Runtime &instance();

  std::mutex Mutex;
  bool Initialized = false;
  int32_t DeviceRefs[8] = {};
  std::vector<void *> DeviceInternals[8];
  std::set<ContextObject *> Contexts;
  std::set<StreamObject *> Streams;
  std::set<EventObject *> Events;
  std::map<uint32_t, ModelObject> Models;
  uint32_t NextModelId = 1;
  int32_t NextStreamId = 0;
  std::unordered_map<const void *, HandleKind> Handles;

  /// Under Mutex: opens a reference on `device`; the first one allocates the
  /// device pool and the default context with its stream.
  aclError retainDevice(int32_t device, ContextObject **defaultContext);
  /// Under Mutex: drops a reference; the last one releases everything the
  /// device holds (contexts, streams, events stay valid only as handles
  /// that now fail). Streams to destroy are moved to *doomed so that the
  /// caller can wait for them after unlocking.
  void releaseDevice(int32_t device, bool all,
                     std::vector<std::unique_ptr<StreamObject>> *doomed);
  /// Under Mutex: creates a stream in `context` (allocating its queue memory).
  aclError createStream(ContextObject *context, StreamObject **stream);
  /// Under Mutex: unregisters `stream`, releases its device memory.
  std::unique_ptr<StreamObject> detachStream(StreamObject *stream);
  /// Under Mutex: the current thread's context if it is still alive.
  ContextObject *current();
  /// Under Mutex: the stream `handle` names (null: the current context's
  /// default stream), or null if there is no such live stream.
  StreamObject *lookupStream(aclrtStream handle);
  ContextObject *defaultContextOf(int32_t device);

  bool isLive(const void *handle, HandleKind kind);
  void addHandle(const void *handle, HandleKind kind);
  bool removeHandle(const void *handle, HandleKind kind);

  static thread_local ContextObject *CurrentContext;
};

/// One driver allocation of `request` bytes of `type` memory on the current
/// device for a caller asking for `size`.
MSSIM_SHARED aclError allocateOnDevice(const char *api, void **devPtr,
                                       size_t size, uint64_t request,
                                       unsigned long long type,
                                       unsigned module);
/// Whether `policy` is one aclrtMalloc* takes (a page policy, optionally with
/// a bandwidth type and the read-only flag).
MSSIM_SHARED bool validPolicy(aclrtMemMallocPolicy policy);
/// The module an allocation configuration names (ACL_RT_MEM_ATTR_MODULE_ID),
/// the application's by default.
MSSIM_SHARED unsigned moduleFrom(const aclrtMallocConfig *cfg);
/// The device of the device memory (GM or DVPP) at `address`, or -1 if
/// the driver has none there (host memory, nothing).
MSSIM_SHARED int32_t deviceOfMemory(const void *address);
/// Frees ACL memory of any type through the driver.
MSSIM_SHARED aclError freeMemory(const char *api, void *ptr, bool synchronize);

/// The device's own copies and sets: a stream task (aclrtMemcpyAsync), an
/// operator reading its inputs and writing its outputs. On a real device
/// these are done by the device, not by a driver call of the host process,
/// so they call the driver library's drvMemcpy / drvMemsetD8 directly, past
/// whatever a tool interposes on them.
MSSIM_SHARED drvError_t deviceCopy(DVdeviceptr dst, size_t destMax,
                                   DVdeviceptr src, size_t count);
MSSIM_SHARED drvError_t deviceSet(DVdeviceptr dst, size_t destMax, UINT8 value,
                                  size_t count);
/// deviceCopy() of `bytes` of device memory at `from` into *out, and of
/// `bytes` to device memory at `to`: an operator's reads and writes.
MSSIM_SHARED bool readDevice(const void *from, size_t bytes,
                             std::vector<uint8_t> *out);
MSSIM_SHARED bool writeDevice(void *to, const std::vector<uint8_t> &bytes);

/// Records the message aclGetRecentErrMsg returns and passes `code` through.
MSSIM_SHARED aclError fail(aclError code, const char *api,
                           const std::string &message);
/// Records the message aclGetRecentErrMsg returns for a failure of `api`
/// with `code`, not an ACL error (aclrtGetLastError does not see it): what
/// the libraries above the runtime (aclnn) report their failures through.
MSSIM_SHARED void recordErrorMessage(const char *api,
                                     const std::string &message, int code);
/// fail() for a call that needs the thread's current device (or context)
/// and has none: ACL_ERROR_RT_CONTEXT_NULL.
MSSIM_SHARED aclError noCurrentDevice(const char *api);
/// The ACL error for a driver error.
MSSIM_SHARED aclError fromDriver(drvError_t error);
/// The code of the last call that failed on this thread (fail()), or
/// ACL_SUCCESS; `clear` forgets it (aclrtGetLastError, Peek does not).
MSSIM_SHARED aclError lastError(bool clear);
MSSIM_SHARED std::string hexAddress(const void *address);
/// Registers a newly created handle object and returns it.
template <typename T> T *trackHandle(T *object, HandleKind kind) {
  Runtime::instance().addHandle(object, kind);
  return object;
}

/// Deletes a live handle object; an unknown or already destroyed one is
/// reported as ACL_ERROR_INVALID_PARAM and left alone.
template <typename T>
aclError destroyHandle(const char *api, const T *object, HandleKind kind) {
  if (!Runtime::instance().removeHandle(object, kind))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(object) +
                    " does not exist or was already destroyed");
  delete object;
  return ACL_SUCCESS;
}

/// Takes the runtime lock: the current thread's device, or -1.
MSSIM_SHARED int32_t currentDevice();
/// Takes the runtime lock: the queue of `stream` (null: the default stream),
/// or null with the error recorded for `api` in *status.
MSSIM_SHARED Stream *queueFor(const char *api, aclrtStream stream,
                              aclError *status);
/// Runs the element-wise operator `opType` (Add, Sub, Mul) on `stream`:
/// what aclopExecuteV2, aclopExecute and libacl_op_compiler.so's
/// aclopCompileAndExecute do. The error code, with it recorded for `api`.
MSSIM_SHARED aclError executeOp(
    const char *api, const char *opType, int numInputs,
    const aclTensorDesc *const inputDesc[], const aclDataBuffer *const inputs[],
    int numOutputs, const aclTensorDesc *const outputDesc[],
    aclDataBuffer *const outputs[], aclrtStream stream);
/// Defined by libmsprofiler.so, where the process has it: ends an aclprofInit
/// session as aclFinalize's MsprofFinalize does on the real stack (not a
/// subscription, which outlives it). Weak: null without the library.
extern "C" MSSIM_SHARED void mssim_profFinalizeSession() __attribute__((weak));
/// A destroyed stream's callback thread binding ends with it
/// (acl_callback_api.cpp), so a stream made later at the same address starts
/// unbound.
void forgetCallbackThread(Stream *queue);
/// Whether `pointer` is in device memory the driver knows (GM or DVPP): what
/// the operators, BLAS, DVPP and models take as operands.
MSSIM_SHARED bool inDeviceMemory(const void *pointer);
/// Queues `task` on `stream` (null: the default stream), for the libraries
/// above libascendcl.so (BLAS); the error if there is no such stream.
MSSIM_SHARED aclError enqueueTask(const char *api, aclrtStream stream,
                                  Stream::Task task);
/// aclrtCreateStream and aclrtDestroyStream, for `api`: also how the
/// libraries above libascendcl.so make streams of their own (a VDEC
/// channel's), which an application's interposers do not see, as on the
/// real stack where they are the runtime's.
MSSIM_SHARED aclError createStreamFor(const char *api, aclrtStream *stream);
MSSIM_SHARED aclError destroyStreamFor(const char *api, aclrtStream stream);
/// aclrtSubscribeReport / aclrtUnSubscribeReport for `api`.
MSSIM_SHARED aclError bindCallbackThread(const char *api, uint64_t thread,
                                         aclrtStream stream, bool bind);
/// aclrtLaunchCallback of `function`, for `api`: runs on the thread bound
/// to `stream` when the stream reaches it; with `block`, the stream waits
/// for it to have run.
MSSIM_SHARED aclError launchHostFunction(const char *api,
                                         std::function<void()> function,
                                         bool block, aclrtStream stream);
/// Under Mutex, from releaseDevice: destroys the model runtime instances
/// (aclmdlRI) captured on `device`'s streams, as the real runtime's context
/// teardown deletes the context's models (acl_model_capture_api.cpp).
void releaseDeviceModelInstances(int32_t device);
/// Under no lock: synchronises and destroys streams released by the runtime.
MSSIM_SHARED void
destroyStreams(std::vector<std::unique_ptr<StreamObject>> &streams);
/// acl_lifecycle_api.cpp: the initialisation callbacks, run by aclInit (not
/// under Mutex) with the configuration file's text, and the finalisation
/// ones, run by aclFinalize first; the first failure is returned. And the
/// count of aclInit references aclFinalizeReference drops (`finalized`:
/// none left; otherwise one more).
aclError runInitCallbacks(const char *configPath);
aclError runFinalizeCallbacks();
void countInitReference(bool finalized);

} // namespace mssim

#endif
