//===- acl_model_more_api.cpp - Model configs, bundles, dumps, op handles -===//
//
// Contract: the host objects of acl/acl_mdl.h and acl/acl_op.h that live
// between a create and a destroy -- AIPP parameter sets, load and execution
// configurations, operator handles -- and the loads they lead to, as
// hicann/ge's acl_model and acl_op_executor make them:
//
// - Each object is registered while it lives: a destroy of an unknown or
//   already destroyed one fails (ACL_ERROR_INVALID_PARAM, as for null)
//   without touching it, where the real library would delete it again.
//   aclopDestroyHandle returns nothing: null does nothing (as the real
//   delete), an unknown handle is reported (aclGetRecentErrMsg) and left.
// - aclmdlLoadWithConfig loads as the load its configuration names
//   (ACL_MDL_LOAD_FROM_FILE ... _MEM_WITH_MEM), with the same device memory
//   and the same aclmdlUnload; the queue-fed load types are not simulated.
// - A bundle is a text of the simulation's own: "mssim-bundle 1", then one or
//   more model descriptions (utils/simdevice/README.md, "Models"). Loading it
//   loads each as a model of the bundle; only aclmdlBundleUnload unloads them
//   (aclmdlUnload of one of them is ACL_ERROR_INVALID_PARAM, as in ge).
// - aclopCreateHandle makes a handle for the operators the simulation has
//   (Add, Sub, Mul), keeping copies of the tensor descriptions it was made
//   with; aclopExecWithHandle runs it as aclopExecuteV2 would.
// - aclmdlInitDump / aclmdlFinalizeDump keep the dump session's state as the
//   real runtime does (aclInit first; twice is ACL_ERROR_REPEAT_INITIALIZE,
//   finalising what is not initialised ACL_ERROR_DUMP_NOT_RUN; aclFinalize
//   leaves it alone); no dump is ever written.
//
// None of the objects takes device memory of its own on the real stack (host
// objects of ge's), and neither does it here; aclFinalize does not destroy
// them (the models and bundles loaded, it unloads).
//
//===----------------------------------------------------------------------===//
#include "acl_objects.h"

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

using namespace mssim;

struct aclmdlAIPP {
  uint64_t batchSize = 0;
};

struct aclmdlConfigHandle {
  std::set<int> attrs; // the attributes set so far
  int32_t priority = 0;
  size_t loadType = 0;
  std::string path, weightPath;
  void *modelAddress = nullptr;
  size_t modelSize = 0;
  void *weightPtr = nullptr, *workPtr = nullptr;
  size_t weightSize = 0, workSize = 0;
  size_t inputQNum = 0, outputQNum = 0;
  void *inputQ = nullptr, *outputQ = nullptr;
  size_t reuseZeroCopy = 0;
};

struct aclmdlExecConfigHandle {
  int32_t streamSyncTimeout = -1;
  int32_t eventSyncTimeout = -1;
};

struct aclopHandle {
  std::string opType;
  std::vector<aclTensorDesc *> inputs, outputs; // the handle's own copies
};

namespace {

/// The live objects of one kind, each between its create and destroy.
template <typename T> class Registry {
public:
  T *add(T *object) {
    std::lock_guard<std::mutex> lock(Mutex);
    Live.insert(object);
    return object;
  }
  bool contains(const T *object) {
    std::lock_guard<std::mutex> lock(Mutex);
    return object && Live.count(object);
  }
  /// Unregisters `object`; false if it was not live.
  bool remove(const T *object) {
    std::lock_guard<std::mutex> lock(Mutex);
    return object && Live.erase(object) == 1;
  }

private:
  std::mutex Mutex;
  std::unordered_set<const T *> Live;
};

Registry<aclmdlAIPP> &aippSets() {
  static Registry<aclmdlAIPP> registry;
  return registry;
}
Registry<aclmdlConfigHandle> &configs() {
  static Registry<aclmdlConfigHandle> registry;
  return registry;
}
Registry<aclmdlExecConfigHandle> &execConfigs() {
  static Registry<aclmdlExecConfigHandle> registry;
  return registry;
}
Registry<aclopHandle> &opHandles() {
  static Registry<aclopHandle> registry;
  return registry;
}

/// Destroys a live object of `registry`; null or not live is
/// ACL_ERROR_INVALID_PARAM, and the object is not touched.
template <typename T>
aclError destroyLive(const char *api, Registry<T> &registry, const T *object) {
  if (!object)
    return fail(ACL_ERROR_INVALID_PARAM, api, "the handle is null");
  if (!registry.remove(object))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(object) +
                    " does not exist or was already destroyed");
  delete object;
  return ACL_SUCCESS;
}

// Configuration attributes, as ge's table checks them: the value's size,
// then the value.
aclError checkSize(const char *api, size_t valueSize, size_t expected) {
  if (valueSize != expected)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "valueSize " + std::to_string(valueSize) + " should be " +
                    std::to_string(expected));
  return ACL_SUCCESS;
}

aclError setConfig(aclmdlConfigHandle *handle, int attr, const void *value,
                   size_t valueSize) {
  const char *api = "aclmdlSetConfigOpt";
  auto pointer = [&] { return *static_cast<void *const *>(value); };
  auto size = [&] { return *static_cast<const size_t *>(value); };
  switch (attr) {
  case ACL_MDL_PRIORITY_INT32: {
    if (aclError error = checkSize(api, valueSize, sizeof(int32_t)))
      return error;
    // ge checks the priority against the stream priority range.
    int32_t least = 0, greatest = 0;
    if (aclError error = aclrtDeviceGetStreamPriorityRange(&least, &greatest))
      return error;
    int32_t priority = *static_cast<const int32_t *>(value);
    if (priority < greatest || priority > least)
      return fail(ACL_ERROR_INVALID_PARAM, api, "priority out of range");
    handle->priority = priority;
    break;
  }
  case ACL_MDL_LOAD_TYPE_SIZET:
    if (aclError error = checkSize(api, valueSize, sizeof(size_t)))
      return error;
    if (size() < ACL_MDL_LOAD_FROM_FILE ||
        size() > ACL_MDL_LOAD_FROM_MEM_WITH_Q)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "load type " + std::to_string(size()) + " is not one");
    handle->loadType = size();
    break;
  case ACL_MDL_PATH_PTR:
  case ACL_MDL_MEM_ADDR_PTR:
  case ACL_MDL_INPUTQ_ADDR_PTR:
  case ACL_MDL_OUTPUTQ_ADDR_PTR:
  case ACL_MDL_WEIGHT_PATH_PTR:
    if (aclError error = checkSize(api, valueSize, sizeof(void *)))
      return error;
    if (!pointer())
      return fail(ACL_ERROR_INVALID_PARAM, api, "the pointer set is null");
    if (attr == ACL_MDL_PATH_PTR)
      handle->path = static_cast<const char *>(pointer());
    else if (attr == ACL_MDL_WEIGHT_PATH_PTR)
      handle->weightPath = static_cast<const char *>(pointer());
    else if (attr == ACL_MDL_MEM_ADDR_PTR)
      handle->modelAddress = pointer();
    else if (attr == ACL_MDL_INPUTQ_ADDR_PTR)
      handle->inputQ = pointer();
    else
      handle->outputQ = pointer();
    break;
  case ACL_MDL_WEIGHT_ADDR_PTR:
  case ACL_MDL_WORKSPACE_ADDR_PTR: // may be null
    if (aclError error = checkSize(api, valueSize, sizeof(void *)))
      return error;
    (attr == ACL_MDL_WEIGHT_ADDR_PTR ? handle->weightPtr : handle->workPtr) =
        pointer();
    break;
  case ACL_MDL_MEM_SIZET:
  case ACL_MDL_WEIGHT_SIZET:
  case ACL_MDL_WORKSPACE_SIZET:
  case ACL_MDL_INPUTQ_NUM_SIZET:
  case ACL_MDL_OUTPUTQ_NUM_SIZET:
    if (aclError error = checkSize(api, valueSize, sizeof(size_t)))
      return error;
    (attr == ACL_MDL_MEM_SIZET          ? handle->modelSize
     : attr == ACL_MDL_WEIGHT_SIZET     ? handle->weightSize
     : attr == ACL_MDL_WORKSPACE_SIZET  ? handle->workSize
     : attr == ACL_MDL_INPUTQ_NUM_SIZET ? handle->inputQNum
                                        : handle->outputQNum) = size();
    break;
  case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
    if (aclError error = checkSize(api, valueSize, sizeof(size_t)))
      return error;
    if (size() > ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT)
      return fail(ACL_ERROR_INVALID_PARAM, api, "unknown optimisation");
    handle->reuseZeroCopy = size();
    break;
  default:
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "attribute " + std::to_string(attr) +
                    " is not one a load configuration takes");
  }
  handle->attrs.insert(attr);
  return ACL_SUCCESS;
}

/// ge's CheckMdlConfigHandle: what each load type needs set.
bool configComplete(const aclmdlConfigHandle &handle, std::string *missing) {
  auto has = [&](int attr) { return handle.attrs.count(attr) > 0; };
  if (!has(ACL_MDL_LOAD_TYPE_SIZET)) {
    *missing = "ACL_MDL_LOAD_TYPE_SIZET is not set";
    return false;
  }
  size_t type = handle.loadType;
  bool fromFile = type == ACL_MDL_LOAD_FROM_FILE ||
                  type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM ||
                  type == ACL_MDL_LOAD_FROM_FILE_WITH_Q;
  if (fromFile && !has(ACL_MDL_PATH_PTR)) {
    *missing = "a load from a file needs ACL_MDL_PATH_PTR";
    return false;
  }
  if (fromFile && has(ACL_MDL_WEIGHT_PATH_PTR)) {
    *missing = "a load from a file takes no ACL_MDL_WEIGHT_PATH_PTR";
    return false;
  }
  if (!fromFile && (!has(ACL_MDL_MEM_ADDR_PTR) || !has(ACL_MDL_MEM_SIZET))) {
    *missing = "a load from memory needs ACL_MDL_MEM_ADDR_PTR and "
               "ACL_MDL_MEM_SIZET";
    return false;
  }
  if ((type == ACL_MDL_LOAD_FROM_FILE_WITH_Q ||
       type == ACL_MDL_LOAD_FROM_MEM_WITH_Q) &&
      (!has(ACL_MDL_INPUTQ_ADDR_PTR) || !has(ACL_MDL_INPUTQ_NUM_SIZET) ||
       !has(ACL_MDL_OUTPUTQ_ADDR_PTR) || !has(ACL_MDL_OUTPUTQ_NUM_SIZET))) {
    *missing = "a load with queues needs both queues and their numbers";
    return false;
  }
  return true;
}

/// aclmdlInitDump's flag, under Runtime::Mutex.
bool DumpInitialized = false;

// Bundles: "mssim-bundle 1", then model descriptions.
const char *const kBundleMagic = "mssim-bundle 1";

/// The bundles loaded, by id, with their models in order. Under
/// Runtime::Mutex. A bundle whose models aclFinalize unloaded is gone.
std::map<uint32_t, std::vector<uint32_t>> &bundles() {
  static std::map<uint32_t, std::vector<uint32_t>> loaded;
  return loaded;
}

/// Under Runtime::Mutex: the live bundle `id`, or null.
std::vector<uint32_t> *liveBundle(Runtime &rt, uint32_t id) {
  auto it = bundles().find(id);
  if (it == bundles().end())
    return nullptr;
  for (uint32_t model : it->second) {
    auto loaded = rt.Models.find(model);
    if (loaded == rt.Models.end() || loaded->second.bundle != id) {
      bundles().erase(it); // finalised
      return nullptr;
    }
  }
  return &it->second;
}

/// Splits a bundle into its model descriptions; false if it is not one.
bool splitBundle(const std::string &bytes, std::vector<std::string> *models) {
  size_t start = bytes.find_first_not_of(" \t\r\n");
  if (start == std::string::npos ||
      bytes.compare(start, strlen(kBundleMagic), kBundleMagic) != 0)
    return false;
  const std::string marker = "\nmssim-model";
  size_t at = bytes.find(marker, start);
  while (at != std::string::npos) {
    size_t next = bytes.find(marker, at + 1);
    models->push_back(bytes.substr(
        at + 1, next == std::string::npos ? std::string::npos : next - at - 1));
    at = next;
  }
  return !models->empty();
}

aclError loadBundle(const char *api, const std::string &bytes,
                    uint32_t *bundleId) {
  std::vector<std::string> models;
  if (!splitBundle(bytes, &models))
    return fail(ACL_ERROR_PARSE_MODEL, api,
                "not a bundle: it must start with \"mssim-bundle 1\" and hold "
                "model descriptions");
  std::vector<uint32_t> ids;
  Runtime &rt = Runtime::instance();
  for (const std::string &model : models) {
    uint32_t id = 0;
    if (aclError error = loadModel(api, model, &id, false)) {
      // As ge does, the models loaded so far are unloaded.
      std::lock_guard<std::mutex> lock(rt.Mutex);
      for (uint32_t loaded : ids) {
        for (void *memory : rt.Models[loaded].deviceMemory)
          halMemFree(memory);
        rt.Models.erase(loaded);
      }
      return error;
    }
    ids.push_back(id);
  }
  std::lock_guard<std::mutex> lock(rt.Mutex);
  uint32_t id = rt.NextModelId++;
  for (uint32_t model : ids)
    rt.Models[model].bundle = id;
  bundles()[id] = ids;
  *bundleId = id;
  return ACL_SUCCESS;
}

/// Whether `descs` are `count` live tensor descriptions.
bool liveDescs(int count, const aclTensorDesc *const descs[]) {
  if (count > 0 && !descs)
    return false;
  for (int i = 0; i < count; ++i)
    if (!Runtime::instance().isLive(descs[i], HandleKind::TensorDesc))
      return false;
  return true;
}

std::vector<aclTensorDesc *> copyDescs(int count,
                                       const aclTensorDesc *const descs[]) {
  std::vector<aclTensorDesc *> copies;
  for (int i = 0; i < count; ++i)
    copies.push_back(
        trackHandle(new aclTensorDesc(*descs[i]), HandleKind::TensorDesc));
  return copies;
}

void deleteOpHandle(const aclopHandle *handle) {
  Runtime &rt = Runtime::instance();
  for (const auto *list : {&handle->inputs, &handle->outputs})
    for (aclTensorDesc *desc : *list)
      if (rt.removeHandle(desc, HandleKind::TensorDesc))
        delete desc;
  delete handle;
}

} // namespace

extern "C" {

// AIPP parameter sets.

ACL_FUNC_VISIBILITY aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize) {
  if (batchSize == 0) {
    fail(ACL_ERROR_INVALID_PARAM, "aclmdlCreateAIPP",
         "the batch size cannot be 0");
    return nullptr;
  }
  auto *set = new aclmdlAIPP;
  set->batchSize = batchSize;
  return aippSets().add(set);
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet) {
  return destroyLive("aclmdlDestroyAIPP", aippSets(), aippParmsSet);
}

// Load configurations.

ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle(void) {
  return configs().add(new aclmdlConfigHandle);
}

ACL_FUNC_VISIBILITY aclError
aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle) {
  return destroyLive("aclmdlDestroyConfigHandle", configs(), handle);
}

ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle,
                                                aclmdlConfigAttr attr,
                                                const void *attrValue,
                                                size_t valueSize) {
  if (!configs().contains(handle) || !attrValue)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetConfigOpt",
                "null or unknown configuration, or a null value");
  return setConfig(handle, attr, attrValue, valueSize);
}

ACL_FUNC_VISIBILITY aclError
aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId) {
  const char *api = "aclmdlLoadWithConfig";
  if (!configs().contains(handle) || !modelId)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "null or unknown configuration, or a null modelId");
  std::string problem;
  if (!configComplete(*handle, &problem))
    return fail(ACL_ERROR_INVALID_PARAM, api, problem);
  size_t type = handle->loadType;
  if (type == ACL_MDL_LOAD_FROM_FILE_WITH_Q ||
      type == ACL_MDL_LOAD_FROM_MEM_WITH_Q)
    return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                "not simulated: loads fed by queues");
  if (!handle->weightPath.empty())
    return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                "not simulated: weights from a separate file");
  std::string bytes;
  if (type == ACL_MDL_LOAD_FROM_FILE ||
      type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM) {
    if (!readFile(handle->path.c_str(), &bytes))
      return fail(ACL_ERROR_READ_MODEL_FAILURE, api,
                  "cannot read " + handle->path);
  } else {
    bytes.assign(static_cast<const char *>(handle->modelAddress),
                 handle->modelSize);
  }
  bool withMemory = type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM ||
                    type == ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
  if (withMemory && (!handle->workPtr || !handle->weightPtr))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "a load with memory needs ACL_MDL_WORKSPACE_ADDR_PTR and "
                "ACL_MDL_WEIGHT_ADDR_PTR");
  return loadModel(api, bytes, modelId, withMemory, handle->workSize,
                   handle->weightSize);
}

// Execution configurations.

ACL_FUNC_VISIBILITY aclmdlExecConfigHandle *aclmdlCreateExecConfigHandle(void) {
  return execConfigs().add(new aclmdlExecConfigHandle);
}

ACL_FUNC_VISIBILITY aclError
aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle *handle) {
  return destroyLive("aclmdlDestroyExecConfigHandle", execConfigs(), handle);
}

ACL_FUNC_VISIBILITY aclError aclmdlSetExecConfigOpt(
    aclmdlExecConfigHandle *handle, aclmdlExecConfigAttr attr,
    const void *attrValue, size_t valueSize) {
  const char *api = "aclmdlSetExecConfigOpt";
  if (!execConfigs().contains(handle) || !attrValue)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "null or unknown configuration, or a null value");
  // ge takes the two synchronisation timeouts (ms, -1 for ever).
  if (attr != ACL_MDL_STREAM_SYNC_TIMEOUT && attr != ACL_MDL_EVENT_SYNC_TIMEOUT)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "attribute " + std::to_string(attr) + " is not one it takes");
  if (aclError error = checkSize(api, valueSize, sizeof(int32_t)))
    return error;
  int32_t timeout = *static_cast<const int32_t *>(attrValue);
  if (timeout < -1)
    return fail(ACL_ERROR_INVALID_PARAM, api, "a timeout below -1");
  (attr == ACL_MDL_STREAM_SYNC_TIMEOUT ? handle->streamSyncTimeout
                                       : handle->eventSyncTimeout) = timeout;
  return ACL_SUCCESS;
}

// Bundles.

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromFile(const char *modelPath,
                                                      uint32_t *bundleId) {
  const char *api = "aclmdlBundleLoadFromFile";
  if (!modelPath || !bundleId)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null argument");
  std::string bytes;
  if (!readFile(modelPath, &bytes))
    return fail(ACL_ERROR_READ_MODEL_FAILURE, api,
                std::string("cannot read ") + modelPath);
  return loadBundle(api, bytes, bundleId);
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromMem(const void *model,
                                                     size_t modelSize,
                                                     uint32_t *bundleId) {
  const char *api = "aclmdlBundleLoadFromMem";
  if (!model || modelSize == 0 || !bundleId)
    return fail(ACL_ERROR_INVALID_PARAM, api, "null argument or size 0");
  return loadBundle(
      api, std::string(static_cast<const char *>(model), modelSize), bundleId);
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleUnload(uint32_t bundleId) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  std::vector<uint32_t> *models = liveBundle(rt, bundleId);
  if (!models)
    return fail(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, "aclmdlBundleUnload",
                "bundle " + std::to_string(bundleId) +
                    " is not loaded (or was already unloaded)");
  for (uint32_t model : *models) {
    for (void *memory : rt.Models[model].deviceMemory)
      halMemFree(memory);
    rt.Models.erase(model);
  }
  bundles().erase(bundleId);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelNum(uint32_t bundleId,
                                                     size_t *modelNum) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!modelNum)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlBundleGetModelNum",
                "modelNum is null");
  std::vector<uint32_t> *models = liveBundle(rt, bundleId);
  if (!models)
    return fail(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, "aclmdlBundleGetModelNum",
                "bundle " + std::to_string(bundleId) + " is not loaded");
  *modelNum = models->size();
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelId(uint32_t bundleId,
                                                    size_t index,
                                                    uint32_t *modelId) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!modelId)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlBundleGetModelId",
                "modelId is null");
  std::vector<uint32_t> *models = liveBundle(rt, bundleId);
  if (!models)
    return fail(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, "aclmdlBundleGetModelId",
                "bundle " + std::to_string(bundleId) + " is not loaded");
  if (index >= models->size())
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlBundleGetModelId",
                "index " + std::to_string(index) + " is past its models");
  *modelId = (*models)[index];
  return ACL_SUCCESS;
}

// The dump session: its state only, as hicann/runtime keeps it (a flag
// aclFinalize leaves alone); nothing is ever dumped (aclmdlSetDump is not
// simulated).

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.Initialized)
    return fail(ACL_ERROR_UNINITIALIZE, "aclmdlInitDump",
                "aclInit must come first");
  if (DumpInitialized)
    return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclmdlInitDump",
                "the dump is already initialised");
  DumpInitialized = true;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.Initialized)
    return fail(ACL_ERROR_UNINITIALIZE, "aclmdlFinalizeDump",
                "aclInit must come first");
  if (!DumpInitialized)
    return fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump",
                "aclmdlInitDump must come first");
  DumpInitialized = false;
  return ACL_SUCCESS;
}

// Operator handles.

ACL_FUNC_VISIBILITY aclError aclopCreateHandle(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
    int numOutputs, const aclTensorDesc *const outputDesc[],
    const aclopAttr *opAttr, aclopHandle **handle) {
  const char *api = "aclopCreateHandle";
  (void)opAttr;
  if (!opType || !handle || numInputs < 0 || numOutputs < 0 ||
      !liveDescs(numInputs, inputDesc) || !liveDescs(numOutputs, outputDesc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "a null or negative argument, or a description not live");
  for (int i = 0; i < numInputs + numOutputs; ++i) {
    const aclTensorDesc *desc =
        i < numInputs ? inputDesc[i] : outputDesc[i - numInputs];
    if (desc->memType != ACL_MEMTYPE_DEVICE)
      return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                  "a handle takes no host-memory tensors");
  }
  std::string op = opType;
  if (op != "Add" && op != "Sub" && op != "Mul")
    return fail(ACL_ERROR_OP_NOT_FOUND, api,
                "operator " + op + " is not available on the simulated device");
  auto *made = new aclopHandle;
  made->opType = op;
  made->inputs = copyDescs(numInputs, inputDesc);
  made->outputs = copyDescs(numOutputs, outputDesc);
  *handle = opHandles().add(made);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle) {
  if (!handle)
    return; // the real one deletes null: nothing
  if (!opHandles().remove(handle)) {
    fail(ACL_ERROR_INVALID_PARAM, "aclopDestroyHandle",
         hexAddress(handle) + " is not a live operator handle");
    return;
  }
  deleteOpHandle(handle);
}

ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(
    aclopHandle *handle, int numInputs, const aclDataBuffer *const inputs[],
    int numOutputs, aclDataBuffer *const outputs[], aclrtStream stream) {
  const char *api = "aclopExecWithHandle";
  if (!opHandles().contains(handle) || numInputs < 0 || numOutputs < 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "null or unknown handle, or a negative count");
  if (static_cast<size_t>(numInputs) != handle->inputs.size() ||
      static_cast<size_t>(numOutputs) != handle->outputs.size())
    return fail(ACL_ERROR_OP_INPUT_NOT_MATCH, api,
                "not as many buffers as the handle has tensors");
  return executeOp(api, handle->opType.c_str(), numInputs,
                   handle->inputs.data(), inputs, numOutputs,
                   handle->outputs.data(), outputs, stream);
}

} // extern "C"
