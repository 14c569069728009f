//===- nnopbase_api.cpp - libnnopbase.so: the aclnn framework -------------===//
//
// aclnn/acl_meta.h and aclnn/aclnn_base.h: tensors and the other handles,
// executors (made by libopapi.so's phase 1, run by its phase 2). Contract in
// nnopbase.h.
//
//===----------------------------------------------------------------------===//
#include "nnopbase.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

namespace mssim {
namespace nn {
namespace {

std::mutex HandleMutex;
std::unordered_map<const void *, ObjectKind> &handles() {
  static auto *live = new std::unordered_map<const void *, ObjectKind>();
  return *live;
}

const char *kindName(ObjectKind kind) {
  switch (kind) {
  case ObjectKind::Tensor:
    return "tensor";
  case ObjectKind::Scalar:
    return "scalar";
  case ObjectKind::IntArray:
    return "int array";
  case ObjectKind::FloatArray:
    return "float array";
  case ObjectKind::BoolArray:
    return "bool array";
  case ObjectKind::TensorList:
    return "tensor list";
  case ObjectKind::ScalarList:
    return "scalar list";
  case ObjectKind::Executor:
    return "executor";
  }
  return "handle";
}

template <typename T> T *created(T *object, ObjectKind kind) {
  addLive(object, kind);
  return object;
}

/// A create that fails returns null, with the reason for aclGetRecentErrMsg.
std::nullptr_t refused(const char *api, const std::string &message) {
  failed(kErrParamInvalid, api, message);
  return nullptr;
}

/// A destroy: null is no handle and success; anything else must be a live
/// handle of `kind`.
template <typename T>
aclnnStatus destroy(const char *api, const T *object, ObjectKind kind) {
  if (!object)
    return kSuccess;
  if (!removeLive(object, kind))
    return failed(kErrParamInvalid, api,
                  hexAddress(object) + " is not a live " + kindName(kind) +
                      " (destroyed already, or never made)");
  delete object;
  return kSuccess;
}

/// Whether `dims` (count `n`) are a valid shape: no negative extent.
bool validDims(const int64_t *dims, uint64_t n, std::string *problem) {
  for (uint64_t i = 0; i < n; ++i)
    if (dims[i] < 0) {
      *problem =
          "dimension " + std::to_string(i) + " is " + std::to_string(dims[i]);
      return false;
    }
  return true;
}

/// Fills *desc from aclCreateTensor's / aclInitTensor's arguments, or says
/// why they are not a tensor.
bool describe(const int64_t *viewDims, uint64_t viewDimsNum,
              aclDataType dataType, const int64_t *stride, int64_t offset,
              aclFormat format, const int64_t *storageDims,
              uint64_t storageDimsNum, void *tensorData, TensorDesc *desc,
              std::string *problem) {
  constexpr uint64_t kMaxDims = 64;
  if (viewDimsNum > kMaxDims || storageDimsNum > kMaxDims) {
    *problem = "more than 64 dimensions";
    return false;
  }
  if ((viewDimsNum && !viewDims) || (storageDimsNum && !storageDims)) {
    *problem = "a null shape or storage shape with a non-zero count";
    return false;
  }
  if (!elementSize(dataType)) {
    *problem = "data type " + std::to_string(dataType) +
               " is not one a "
               "tensor can have";
    return false;
  }
  if (format < ACL_FORMAT_NCHW) {
    *problem = "format " + std::to_string(format) + " is not a format";
    return false;
  }
  if (offset < 0) {
    *problem = "offset " + std::to_string(offset) + " is negative";
    return false;
  }
  if (!validDims(viewDims, viewDimsNum, problem) ||
      !validDims(storageDims, storageDimsNum, problem))
    return false;
  for (uint64_t i = 0; stride && i < viewDimsNum; ++i)
    if (stride[i] < 0) {
      *problem = "stride " + std::to_string(i) + " is negative";
      return false;
    }
  desc->dataType = dataType;
  desc->format = format;
  desc->viewDims.assign(viewDims, viewDims + viewDimsNum);
  if (stride) {
    desc->strides.assign(stride, stride + viewDimsNum);
  } else {
    // No strides: the view is contiguous, as the real framework takes it.
    desc->strides.assign(viewDimsNum, 1);
    for (uint64_t i = viewDimsNum; i-- > 1;)
      desc->strides[i - 1] = desc->strides[i] * viewDims[i];
  }
  desc->offset = offset;
  desc->storageDims.assign(storageDims, storageDims + storageDimsNum);
  desc->data = tensorData;
  // The view must lie inside the storage (for the plain formats, where the
  // storage shape counts elements).
  if (desc->elementCount() > 0 &&
      (format == ACL_FORMAT_ND || format == ACL_FORMAT_NCHW ||
       format == ACL_FORMAT_NHWC || format == ACL_FORMAT_NCDHW ||
       format == ACL_FORMAT_NDHWC)) {
    int64_t storage = 1;
    for (int64_t dim : desc->storageDims)
      storage *= dim;
    if (desc->spanBytes() >
        static_cast<uint64_t>(storage) * elementSize(dataType)) {
      *problem = "the view (offset " + std::to_string(offset) +
                 ", shape and strides) reaches past its storage of " +
                 std::to_string(storage) + " element(s)";
      return false;
    }
  }
  return true;
}

/// Whether the `size` elements at `value` (tensors or scalars) can be made
/// into a list, which then owns them: each live, in no list yet, and there
/// once.
template <typename T>
bool adoptable(const T *const *value, uint64_t size, ObjectKind kind,
               std::string *problem) {
  std::unordered_map<const T *, uint64_t> seen;
  for (uint64_t i = 0; i < size; ++i) {
    if (!value[i])
      continue;
    std::string which = kindName(kind) + std::string(" ") + std::to_string(i);
    if (!isLive(value[i], kind)) {
      *problem = which + " is not a live " + kindName(kind);
      return false;
    }
    if (value[i]->owner) {
      *problem = which + " already belongs to a list, which destroys it";
      return false;
    }
    if (!seen.emplace(value[i], i).second) {
      *problem = which + " is " + kindName(kind) + " " +
                 std::to_string(seen[value[i]]) +
                 " again: the list would destroy it twice";
      return false;
    }
  }
  return true;
}

/// The destroy of an element that may belong to a list.
template <typename T>
aclnnStatus destroyElement(const char *api, const T *object, ObjectKind kind) {
  if (object && isLive(object, kind) && object->owner)
    return failed(kErrParamInvalid, api,
                  hexAddress(object) + " belongs to a list, which destroys it");
  return destroy(api, object, kind);
}

/// A live list's destroy: its elements, then itself.
template <typename List, typename T>
aclnnStatus destroyList(const char *api, const List *list,
                        const std::vector<T *> &elements, ObjectKind listKind,
                        ObjectKind kind) {
  for (T *element : elements)
    destroy(api, element, kind);
  return destroy(api, list, listKind);
}

template <typename Value, typename Array>
Array *makeArray(const char *api, const Value *value, uint64_t size,
                 ObjectKind kind) {
  if (!value && size)
    return refused(api, "null values with a size of " + std::to_string(size));
  auto *array = new Array();
  array->values.assign(value, value + size);
  return created(array, kind);
}

/// An operator's handle argument `what`: null is ACLNN_ERR_PARAM_NULLPTR
/// (unless `optional`), not a live object of `kind` ACLNN_ERR_PARAM_INVALID.
aclnnStatus checkLive(const char *api, const char *what, const void *object,
                      ObjectKind kind, bool optional = false) {
  if (!object)
    return optional
               ? kSuccess
               : failed(kErrParamNullptr, api, std::string(what) + " is null");
  if (!isLive(object, kind))
    return failed(kErrParamInvalid, api,
                  std::string(what) + " (" + hexAddress(object) +
                      ") is not a live " + kindName(kind));
  return kSuccess;
}

template <typename Array>
aclnnStatus arraySize(const char *api, const Array *array, ObjectKind kind,
                      uint64_t *size) {
  if (!array || !size)
    return failed(kErrParamNullptr, api, "a null argument");
  if (!isLive(array, kind))
    return failed(kErrParamInvalid, api,
                  hexAddress(array) + " is not a live " + kindName(kind));
  *size = array->values.size();
  return kSuccess;
}

/// The tensor query functions: a live tensor and a non-null out-parameter.
aclnnStatus queried(const char *api, const aclTensor *tensor, const void *out) {
  if (!tensor || !out)
    return failed(kErrParamNullptr, api, "a null argument");
  return checkTensor(api, "tensor", tensor);
}

/// A copy of `values` the caller owns (the query functions hand out arrays
/// the caller frees with delete[], as the real framework's do).
int64_t *copied(const std::vector<int64_t> &values) {
  auto *out = new int64_t[values.empty() ? 1 : values.size()];
  std::copy(values.begin(), values.end(), out);
  return out;
}

/// The executor tensor-address setters: a live executor (repeatable or not,
/// as the real framework takes it), a tensor index in range.
aclnnStatus setAddress(const char *api, aclOpExecutor *executor,
                       std::vector<TensorDesc> *which, size_t index,
                       void *addr) {
  if (!executor)
    return failed(kErrParamNullptr, api, "the executor is null");
  if (!isLive(executor, ObjectKind::Executor))
    return failed(kErrParamInvalid, api,
                  hexAddress(executor) + " is not a live executor");
  if (index >= which->size())
    return failed(kErrParamInvalid, api,
                  "index " + std::to_string(index) + " is past the " +
                      std::to_string(which->size()) + " tensor(s) of " +
                      executor->op);
  (*which)[index].data = addr;
  return kSuccess;
}

/// The dynamic setters: the relativeIndex-th tensor of the irIndex-th input
/// or output (a tensor list) gets `addr`, in the executor, and in the list
/// given, as the real framework rewrites the tensor's address first.
aclnnStatus setDynamicAddress(const char *api, aclOpExecutor *executor,
                              bool input, size_t irIndex, size_t relativeIndex,
                              aclTensorList *tensors, void *addr) {
  if (!executor)
    return failed(kErrParamNullptr, api, "the executor is null");
  if (!isLive(executor, ObjectKind::Executor))
    return failed(kErrParamInvalid, api,
                  hexAddress(executor) + " is not a live executor");
  if (tensors && isLive(tensors, ObjectKind::TensorList) &&
      relativeIndex < tensors->tensors.size() &&
      tensors->tensors[relativeIndex])
    tensors->tensors[relativeIndex]->desc.data = addr;
  const auto &places = input ? executor->inputPlaces : executor->outputPlaces;
  auto &descs = input ? executor->inputs : executor->outputs;
  for (size_t i = 0; i < places.size(); ++i)
    if (places[i] == std::make_pair(irIndex, relativeIndex)) {
      descs[i].data = addr;
      return kSuccess;
    }
  return failed(kErrParamInvalid, api,
                std::string(input ? "input" : "output") + " " +
                    std::to_string(irIndex) + ", tensor " +
                    std::to_string(relativeIndex) + " is not one of " +
                    executor->op + "'s");
}

} // namespace

int64_t TensorDesc::elementCount() const {
  int64_t count = 1;
  for (int64_t dim : viewDims)
    count *= dim;
  return count;
}

uint64_t TensorDesc::spanBytes() const {
  if (elementCount() == 0)
    return 0;
  uint64_t last = static_cast<uint64_t>(offset);
  for (size_t i = 0; i < viewDims.size(); ++i)
    last += static_cast<uint64_t>(viewDims[i] - 1) *
            static_cast<uint64_t>(strides[i]);
  return (last + 1) * elementSize(dataType);
}

size_t elementSize(aclDataType type) {
  // The runtime's table of element sizes (acl_base.h's aclDataTypeSize).
  return aclDataTypeSize(type);
}

bool isLive(const void *object, ObjectKind kind) {
  std::lock_guard<std::mutex> lock(HandleMutex);
  auto found = handles().find(object);
  return found != handles().end() && found->second == kind;
}

void addLive(const void *object, ObjectKind kind) {
  std::lock_guard<std::mutex> lock(HandleMutex);
  handles()[object] = kind;
}

bool removeLive(const void *object, ObjectKind kind) {
  std::lock_guard<std::mutex> lock(HandleMutex);
  auto found = handles().find(object);
  if (found == handles().end() || found->second != kind)
    return false;
  handles().erase(found);
  return true;
}

aclnnStatus failed(aclnnStatus code, const char *api,
                   const std::string &message) {
  recordErrorMessage(api, message, code);
  return code;
}

aclnnStatus checkTensor(const char *api, const char *what,
                        const aclTensor *tensor, bool optional) {
  return checkLive(api, what, tensor, ObjectKind::Tensor, optional);
}

aclnnStatus checkScalar(const char *api, const char *what,
                        const aclScalar *scalar) {
  return checkLive(api, what, scalar, ObjectKind::Scalar);
}

aclnnStatus checkIntArray(const char *api, const char *what,
                          const aclIntArray *array) {
  return checkLive(api, what, array, ObjectKind::IntArray);
}

aclnnStatus checkTensorList(const char *api, const char *what,
                            const aclTensorList *list) {
  return checkLive(api, what, list, ObjectKind::TensorList);
}

aclnnStatus makeExecutor(const char *op, std::vector<TensorDesc> inputs,
                         std::vector<TensorDesc> outputs, Computation compute,
                         uint64_t workspaceNeeded, uint64_t *workspaceSize,
                         aclOpExecutor **executor,
                         std::vector<std::pair<size_t, size_t>> inputPlaces,
                         std::vector<std::pair<size_t, size_t>> outputPlaces) {
  std::string api = std::string(op) + "GetWorkspaceSize";
  if (!workspaceSize || !executor)
    return failed(kErrParamNullptr, api.c_str(),
                  "workspaceSize or executor is null");
  auto *made = new aclOpExecutor();
  made->op = op;
  made->workspaceSize = workspaceNeeded;
  // Without places, each tensor is an input or output of its own.
  for (auto [descs, places] : {std::make_pair(&inputs, &inputPlaces),
                               std::make_pair(&outputs, &outputPlaces)})
    if (places->size() != descs->size()) {
      places->clear();
      for (size_t i = 0; i < descs->size(); ++i)
        places->emplace_back(i, 0);
    }
  made->inputs = std::move(inputs);
  made->outputs = std::move(outputs);
  made->inputPlaces = std::move(inputPlaces);
  made->outputPlaces = std::move(outputPlaces);
  made->compute = std::move(compute);
  *workspaceSize = workspaceNeeded;
  *executor = created(made, ObjectKind::Executor);
  return kSuccess;
}

aclnnStatus runExecutor(const char *op, void *workspace, uint64_t workspaceSize,
                        aclOpExecutor *executor, aclrtStream stream) {
  if (!executor)
    return failed(kErrParamNullptr, op, "the executor is null");
  if (!isLive(executor, ObjectKind::Executor))
    return failed(kErrParamInvalid, op,
                  hexAddress(executor) +
                      " is not a live executor (a non-repeatable executor "
                      "is destroyed by the phase 2 that runs it)");
  // From here on the run consumes a non-repeatable executor, whether it
  // succeeds or fails, as the real framework's does.
  auto refuse = [&](aclnnStatus code, const std::string &message) {
    if (!executor->repeatable)
      destroy(op, executor, ObjectKind::Executor);
    return failed(code, op, message);
  };
  if (executor->op != op)
    return refuse(kErrParamInvalid, "the executor was made by " + executor->op +
                                        "GetWorkspaceSize, not "
                                        "by " +
                                        op + "GetWorkspaceSize");
  if (workspaceSize && !workspace)
    return refuse(kErrParamNullptr, "the workspace is null, its size " +
                                        std::to_string(workspaceSize));
  if (workspaceSize < executor->workspaceSize)
    return refuse(kErrParamInvalid,
                  "workspace of " + std::to_string(workspaceSize) +
                      " byte(s), where phase 1 asked for " +
                      std::to_string(executor->workspaceSize));
  if (executor->workspaceSize && !inDeviceMemory(workspace))
    return refuse(kErrParamInvalid, "the workspace " + hexAddress(workspace) +
                                        " is not device memory");
  // The task takes copies: the executor may be destroyed (below) or have its
  // addresses changed before the stream reaches it.
  std::vector<TensorDesc> inputs = executor->inputs;
  std::vector<TensorDesc> outputs = executor->outputs;
  Computation compute = executor->compute;
  std::string name = op;
  aclError queued = enqueueTask(op, stream, [=] {
    std::vector<Operand> in(inputs.size()), out(outputs.size());
    auto load = [](const std::vector<TensorDesc> &descs,
                   std::vector<Operand> &operands) {
      for (size_t i = 0; i < descs.size(); ++i) {
        operands[i].desc = descs[i];
        uint64_t bytes = descs[i].spanBytes();
        if (bytes && !readDevice(descs[i].data, bytes, &operands[i].bytes))
          return false;
      }
      return true;
    };
    if (!load(inputs, in) || !load(outputs, out)) {
      fprintf(stderr, "mssim: %s: an operand is not in device memory\n",
              name.c_str());
      return static_cast<int>(ACL_ERROR_RT_PARAM_INVALID);
    }
    // Each output's span as read: only the bytes the computation changed
    // are written back, so that outputs interleaved in one buffer (the
    // columns a split writes, say) do not write each other's old bytes.
    std::vector<std::vector<uint8_t>> before;
    for (const Operand &operand : out)
      before.push_back(operand.bytes);
    std::string problem = compute(in, out);
    if (!problem.empty()) {
      fprintf(stderr, "mssim: %s: %s\n", name.c_str(), problem.c_str());
      return static_cast<int>(ACL_ERROR_RT_PARAM_INVALID);
    }
    for (size_t i = 0; i < out.size(); ++i) {
      const std::vector<uint8_t> &now = out[i].bytes, &was = before[i];
      for (size_t at = 0; at < now.size();) {
        if (at < was.size() && now[at] == was[at]) {
          ++at;
          continue;
        }
        size_t end = at;
        while (end < now.size() && (end >= was.size() || now[end] != was[end]))
          ++end;
        if (!writeDevice(
                static_cast<uint8_t *>(out[i].desc.data) + at,
                std::vector<uint8_t>(now.begin() + at, now.begin() + end)))
          return static_cast<int>(ACL_ERROR_RT_PARAM_INVALID);
        at = end;
      }
    }
    return static_cast<int>(ACL_SUCCESS);
  });
  if (queued != ACL_SUCCESS)
    return refuse(kErrRuntime, "the stream cannot take the operator");
  if (!executor->repeatable)
    destroy(op, executor, ObjectKind::Executor);
  return kSuccess;
}

} // namespace nn
} // namespace mssim

using namespace mssim;
using namespace mssim::nn;

double aclScalar::toDouble() const {
  switch (dataType) {
  case ACL_FLOAT: {
    float v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  case ACL_DOUBLE: {
    double v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  case ACL_FLOAT16: {
    aclFloat16 v;
    memcpy(&v, value, sizeof v);
    return aclFloat16ToFloat(v);
  }
  case ACL_BF16: {
    uint16_t v;
    memcpy(&v, value, sizeof v);
    uint32_t bits = static_cast<uint32_t>(v) << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
  }
  default:
    return static_cast<double>(toInt());
  }
}

int64_t aclScalar::toInt() const {
  switch (dataType) {
  case ACL_BOOL:
  case ACL_UINT8:
    return value[0];
  case ACL_INT8:
    return static_cast<int8_t>(value[0]);
  case ACL_INT16: {
    int16_t v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  case ACL_UINT16: {
    uint16_t v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  case ACL_INT32: {
    int32_t v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  case ACL_UINT32: {
    uint32_t v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  case ACL_INT64:
  case ACL_UINT64: {
    int64_t v;
    memcpy(&v, value, sizeof v);
    return v;
  }
  default:
    return static_cast<int64_t>(toDouble());
  }
}

extern "C" {

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
                           aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData) {
  TensorDesc desc;
  std::string problem;
  if (!describe(viewDims, viewDimsNum, dataType, stride, offset, format,
                storageDims, storageDimsNum, tensorData, &desc, &problem))
    return refused("aclCreateTensor", problem);
  auto *tensor = new aclTensor();
  tensor->desc = std::move(desc);
  return created(tensor, ObjectKind::Tensor);
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims,
                          uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset,
                          aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorDataAddr) {
  aclnnStatus status = checkTensor("aclInitTensor", "tensor", tensor);
  if (status != kSuccess)
    return status;
  TensorDesc desc;
  std::string problem;
  if (!describe(viewDims, viewDimsNum, dataType, stride, offset, format,
                storageDims, storageDimsNum, tensorDataAddr, &desc, &problem))
    return failed(kErrParamInvalid, "aclInitTensor", problem);
  tensor->desc = std::move(desc);
  return kSuccess;
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
  if (!value)
    return refused("aclCreateScalar", "the value is null");
  size_t size = elementSize(dataType);
  if (!size || size > sizeof(aclScalar::value))
    return refused("aclCreateScalar", "data type " + std::to_string(dataType) +
                                          " is not one a scalar can have");
  auto *scalar = new aclScalar();
  scalar->dataType = dataType;
  memset(scalar->value, 0, sizeof scalar->value);
  memcpy(scalar->value, value, size);
  return created(scalar, ObjectKind::Scalar);
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
  return makeArray<int64_t, aclIntArray>("aclCreateIntArray", value, size,
                                         ObjectKind::IntArray);
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
  return makeArray<float, aclFloatArray>("aclCreateFloatArray", value, size,
                                         ObjectKind::FloatArray);
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
  return makeArray<bool, aclBoolArray>("aclCreateBoolArray", value, size,
                                       ObjectKind::BoolArray);
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value,
                                   uint64_t size) {
  if (!value && size)
    return refused("aclCreateTensorList",
                   "null tensors with a size of " + std::to_string(size));
  std::string problem;
  if (!adoptable(value, size, ObjectKind::Tensor, &problem))
    return refused("aclCreateTensorList", problem);
  auto *list = new aclTensorList();
  for (uint64_t i = 0; i < size; ++i) {
    auto *tensor = const_cast<aclTensor *>(value[i]);
    list->tensors.push_back(tensor);
    if (tensor)
      tensor->owner = list;
  }
  return created(list, ObjectKind::TensorList);
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value,
                                   uint64_t size) {
  if (!value && size)
    return refused("aclCreateScalarList",
                   "null scalars with a size of " + std::to_string(size));
  std::string problem;
  if (!adoptable(value, size, ObjectKind::Scalar, &problem))
    return refused("aclCreateScalarList", problem);
  auto *list = new aclScalarList();
  for (uint64_t i = 0; i < size; ++i) {
    auto *scalar = const_cast<aclScalar *>(value[i]);
    list->scalars.push_back(scalar);
    if (scalar)
      scalar->owner = list;
  }
  return created(list, ObjectKind::ScalarList);
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
  return destroyElement("aclDestroyTensor", tensor, ObjectKind::Tensor);
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
  return destroyElement("aclDestroyScalar", scalar, ObjectKind::Scalar);
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
  return destroy("aclDestroyIntArray", array, ObjectKind::IntArray);
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
  return destroy("aclDestroyFloatArray", array, ObjectKind::FloatArray);
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
  return destroy("aclDestroyBoolArray", array, ObjectKind::BoolArray);
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
  if (!array)
    return kSuccess;
  if (!isLive(array, ObjectKind::TensorList))
    return failed(kErrParamInvalid, "aclDestroyTensorList",
                  hexAddress(array) + " is not a live tensor list");
  return destroyList("aclDestroyTensorList", array, array->tensors,
                     ObjectKind::TensorList, ObjectKind::Tensor);
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
  if (!array)
    return kSuccess;
  if (!isLive(array, ObjectKind::ScalarList))
    return failed(kErrParamInvalid, "aclDestroyScalarList",
                  hexAddress(array) + " is not a live scalar list");
  return destroyList("aclDestroyScalarList", array, array->scalars,
                     ObjectKind::ScalarList, ObjectKind::Scalar);
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims,
                            uint64_t *viewDimsNum) {
  aclnnStatus status = queried("aclGetViewShape", tensor, viewDims);
  if (status != kSuccess || !viewDimsNum)
    return status != kSuccess
               ? status
               : failed(kErrParamNullptr, "aclGetViewShape", "a null argument");
  *viewDims = copied(tensor->desc.viewDims);
  *viewDimsNum = tensor->desc.viewDims.size();
  return kSuccess;
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                               uint64_t *storageDimsNum) {
  aclnnStatus status = queried("aclGetStorageShape", tensor, storageDims);
  if (status != kSuccess || !storageDimsNum)
    return status != kSuccess ? status
                              : failed(kErrParamNullptr, "aclGetStorageShape",
                                       "a null argument");
  *storageDims = copied(tensor->desc.storageDims);
  *storageDimsNum = tensor->desc.storageDims.size();
  return kSuccess;
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                              uint64_t *stridesNum) {
  aclnnStatus status = queried("aclGetViewStrides", tensor, stridesValue);
  if (status != kSuccess || !stridesNum)
    return status != kSuccess ? status
                              : failed(kErrParamNullptr, "aclGetViewStrides",
                                       "a null argument");
  *stridesValue = copied(tensor->desc.strides);
  *stridesNum = tensor->desc.strides.size();
  return kSuccess;
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
  aclnnStatus status = queried("aclGetViewOffset", tensor, offset);
  if (status == kSuccess)
    *offset = tensor->desc.offset;
  return status;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
  aclnnStatus status = queried("aclGetFormat", tensor, format);
  if (status == kSuccess)
    *format = tensor->desc.format;
  return status;
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
  aclnnStatus status = queried("aclGetDataType", tensor, dataType);
  if (status == kSuccess)
    *dataType = tensor->desc.dataType;
  return status;
}

aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size) {
  return arraySize("aclGetIntArraySize", array, ObjectKind::IntArray, size);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size) {
  return arraySize("aclGetFloatArraySize", array, ObjectKind::FloatArray, size);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size) {
  return arraySize("aclGetBoolArraySize", array, ObjectKind::BoolArray, size);
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList,
                                 uint64_t *size) {
  if (!tensorList || !size)
    return failed(kErrParamNullptr, "aclGetTensorListSize", "a null argument");
  aclnnStatus status =
      checkTensorList("aclGetTensorListSize", "tensorList", tensorList);
  if (status == kSuccess)
    *size = tensorList->tensors.size();
  return status;
}

aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList,
                                 uint64_t *size) {
  if (!scalarList || !size)
    return failed(kErrParamNullptr, "aclGetScalarListSize", "a null argument");
  if (!isLive(scalarList, ObjectKind::ScalarList))
    return failed(kErrParamInvalid, "aclGetScalarListSize",
                  hexAddress(scalarList) + " is not a live scalar list");
  *size = scalarList->scalars.size();
  return kSuccess;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
  if (!executor)
    return failed(kErrInnerNullptr, "aclSetAclOpExecutorRepeatable",
                  "the executor is null");
  if (!isLive(executor, ObjectKind::Executor))
    return failed(kErrInner, "aclSetAclOpExecutorRepeatable",
                  hexAddress(executor) + " is not a live executor");
  executor->repeatable = true;
  return kSuccess;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
  // Unlike the other destroys, a null executor is an error.
  if (!executor)
    return failed(kErrInnerNullptr, "aclDestroyAclOpExecutor",
                  "the executor is null");
  if (!removeLive(executor, ObjectKind::Executor))
    return failed(kErrInner, "aclDestroyAclOpExecutor",
                  hexAddress(executor) +
                      " is not a live executor (destroyed already, consumed "
                      "by the phase 2 that ran it, or never made)");
  delete executor;
  return kSuccess;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
                                  aclTensor *tensor, void *addr) {
  (void)tensor;
  return setAddress("aclSetInputTensorAddr", executor,
                    executor ? &executor->inputs : nullptr, index, addr);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
                                   aclTensor *tensor, void *addr) {
  (void)tensor;
  return setAddress("aclSetOutputTensorAddr", executor,
                    executor ? &executor->outputs : nullptr, index, addr);
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor,
                                         size_t irIndex,
                                         const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr) {
  return setDynamicAddress("aclSetDynamicInputTensorAddr", executor, true,
                           irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor,
                                          size_t irIndex,
                                          const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr) {
  return setDynamicAddress("aclSetDynamicOutputTensorAddr", executor, false,
                           irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor,
                                         size_t irIndex,
                                         const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr) {
  return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex, tensors,
                                      addr);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor,
                                          size_t irIndex,
                                          const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr) {
  return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex,
                                       tensors, addr);
}

aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
                                  aclTensor *tensor, void *addr) {
  return aclSetInputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
                                   aclTensor *tensor, void *addr) {
  return aclSetOutputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr) {
  aclnnStatus status = checkTensor("aclSetRawTensorAddr", "tensor", tensor);
  if (status == kSuccess)
    tensor->desc.data = addr;
  return status;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr) {
  aclnnStatus status = queried("aclGetRawTensorAddr", tensor, addr);
  if (status == kSuccess)
    *addr = tensor->desc.data;
  return status;
}

aclnnStatus aclnnInit(const char *configPath) {
  (void)configPath; // a configuration of operator implementation modes
  return kSuccess;
}

aclnnStatus aclnnFinalize() { return kSuccess; }

} // extern "C"
