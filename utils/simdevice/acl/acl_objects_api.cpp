//===- acl_objects_api.cpp - Data buffers, tensors, datasets, models, ops -===//
#include "acl_objects.h"

#include <sys/stat.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace mssim;

namespace {

size_t elementCount(const aclTensorDesc &desc) {
  size_t count = 1;
  for (int64_t dim : desc.dims)
    count *= dim < 0 ? 0 : static_cast<size_t>(dim);
  return count;
}

/// Whether `desc` is a live tensor description; if not, the error is
/// recorded against `api`.
bool liveTensorDesc(const char *api, const aclTensorDesc *desc) {
  if (Runtime::instance().isLive(desc, HandleKind::TensorDesc))
    return true;
  fail(ACL_ERROR_INVALID_PARAM, api,
       hexAddress(desc) + " is not a live tensor description");
  return false;
}

aclError setFormat(const char *api, aclTensorDesc *desc,
                   aclFormat aclTensorDesc::*field, aclFormat format) {
  if (!liveTensorDesc(api, desc))
    return ACL_ERROR_INVALID_PARAM;
  desc->*field = format;
  return ACL_SUCCESS;
}

aclError setShape(const char *api, aclTensorDesc *desc,
                  std::vector<int64_t> aclTensorDesc::*field, int numDims,
                  const int64_t *dims) {
  if (!liveTensorDesc(api, desc))
    return ACL_ERROR_INVALID_PARAM;
  if (!dims || numDims < 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "dims is null or numDims is negative");
  desc->*field = std::vector<int64_t>(dims, dims + numDims);
  return ACL_SUCCESS;
}

aclError
setRanges(const char *api, aclTensorDesc *desc,
          std::vector<std::pair<int64_t, int64_t>> aclTensorDesc::*field,
          size_t count, const int64_t (*ranges)[2]) {
  if (!liveTensorDesc(api, desc))
    return ACL_ERROR_INVALID_PARAM;
  if (count > 0 && !ranges)
    return fail(ACL_ERROR_INVALID_PARAM, api, "the ranges are null");
  (desc->*field).clear();
  for (size_t i = 0; i < count; ++i)
    (desc->*field).emplace_back(ranges[i][0], ranges[i][1]);
  return ACL_SUCCESS;
}

template <typename T>
void elementwise(const std::string &op, const T *a, const T *b, T *out,
                 size_t n) {
  for (size_t i = 0; i < n; ++i)
    out[i] = op == "Add"   ? a[i] + b[i]
             : op == "Sub" ? a[i] - b[i]
                           : a[i] * b[i];
}

} // namespace

aclError mssim::loadModel(const char *api, const std::string &bytes,
                          uint32_t *modelId, bool userMemory, size_t workSize,
                          size_t weightSize) {
  if (!modelId)
    return fail(ACL_ERROR_INVALID_PARAM, api, "modelId is null");
  if (bytes.empty())
    return fail(ACL_ERROR_MODEL_SIZE_INVALID, api, "the model is empty");
  ModelObject model;
  std::string error;
  if (!readModel(bytes, &model.shape, &error))
    return fail(ACL_ERROR_PARSE_MODEL, api, error);
  if (userMemory && (workSize < model.shape.workspaceSize ||
                     weightSize < model.shape.weightSize))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "work or weight memory smaller than the size query reports");
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  ContextObject *context = rt.current();
  if (!context)
    return noCurrentDevice(api);
  model.device = context->device;
  if (!userMemory) {
    for (uint64_t size : {paddedDeviceSize(model.shape.weightSize),
                          model.shape.workspaceSize}) {
      void *memory = nullptr;
      drvError_t error = halMemAlloc(
          &memory, size, driverFlag(context->device, MEM_DEV, GE_MODULE_ID));
      if (error != DRV_ERROR_NONE) {
        for (void *allocated : model.deviceMemory)
          halMemFree(allocated);
        return fail(fromDriver(error), api,
                    "cannot allocate device memory for the model");
      }
      model.deviceMemory.push_back(memory);
    }
  }
  uint32_t id = rt.NextModelId++;
  rt.Models.emplace(id, std::move(model));
  *modelId = id;
  return ACL_SUCCESS;
}

bool mssim::readFile(const char *path, std::string *bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return false;
  bytes->assign(std::istreambuf_iterator<char>(file),
                std::istreambuf_iterator<char>());
  return true;
}

namespace {

/// The sizes a model's bytes need: its description's, or the bytes' own.
aclError querySize(const char *api, const std::string &bytes, size_t *workSize,
                   size_t *weightSize) {
  ModelShape shape;
  std::string error;
  if (!readModel(bytes, &shape, &error))
    return fail(ACL_ERROR_PARSE_MODEL, api, error);
  *workSize = shape.workspaceSize;
  *weightSize = shape.weightSize;
  return ACL_SUCCESS;
}

} // namespace

aclError mssim::executeOp(const char *api, const char *opType, int numInputs,
                          const aclTensorDesc *const inputDesc[],
                          const aclDataBuffer *const inputs[], int numOutputs,
                          const aclTensorDesc *const outputDesc[],
                          aclDataBuffer *const outputs[], aclrtStream stream) {
  if (!opType)
    return fail(ACL_ERROR_INVALID_PARAM, api, "opType is null");
  std::string op = opType;
  if (op != "Add" && op != "Sub" && op != "Mul")
    return fail(ACL_ERROR_OP_NOT_FOUND, api,
                "operator " + op + " is not available on the simulated device");
  if (numInputs != 2 || numOutputs != 1 || !inputDesc || !inputs ||
      !outputDesc || !outputs)
    return fail(ACL_ERROR_OP_INPUT_NOT_MATCH, api,
                op + " takes two inputs and one output");
  Runtime &rt = Runtime::instance();
  const aclTensorDesc *descs[3] = {inputDesc[0], inputDesc[1], outputDesc[0]};
  const aclDataBuffer *buffers[3] = {inputs[0], inputs[1], outputs[0]};
  for (int i = 0; i < 3; ++i)
    if (!rt.isLive(descs[i], HandleKind::TensorDesc) ||
        !rt.isLive(buffers[i], HandleKind::DataBuffer))
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "a tensor description or data buffer is not live");
  aclDataType type = descs[0]->type;
  size_t count = elementCount(*descs[0]);
  for (int i = 1; i < 3; ++i)
    if (descs[i]->type != type || elementCount(*descs[i]) != count)
      return fail(ACL_ERROR_OP_INPUT_NOT_MATCH, api,
                  op + " needs tensors of one type and shape");
  if (type != ACL_FLOAT && type != ACL_INT32 && type != ACL_INT64)
    return fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, api,
                "data type " + std::to_string(type) + " is not supported");
  size_t bytes = count * aclDataTypeSize(type);
  for (const aclDataBuffer *buffer : buffers) {
    DVattribute attr;
    drvMemGetAttribute(reinterpret_cast<DVdeviceptr>(buffer->data), &attr);
    if (attr.memType != DV_MEM_LOCK_DEV && attr.memType != DV_MEM_SVM_DEVICE)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "operator data must be in device memory");
    if (buffer->size < bytes)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "a data buffer is smaller than its tensor");
  }
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor(api, stream, &status);
  if (!queue)
    return status;
  void *a = buffers[0]->data, *b = buffers[1]->data, *out = buffers[2]->data;
  // The "kernel": reads its operands through the driver, as a DMA would.
  queue->enqueue([=] {
    std::vector<uint8_t> x, y, z(bytes);
    if (!mssim::readDevice(a, bytes, &x) || !mssim::readDevice(b, bytes, &y))
      return ACL_ERROR_RT_PARAM_INVALID;
    if (type == ACL_FLOAT)
      elementwise(op, reinterpret_cast<float *>(x.data()),
                  reinterpret_cast<float *>(y.data()),
                  reinterpret_cast<float *>(z.data()), count);
    else if (type == ACL_INT32)
      elementwise(op, reinterpret_cast<int32_t *>(x.data()),
                  reinterpret_cast<int32_t *>(y.data()),
                  reinterpret_cast<int32_t *>(z.data()), count);
    else
      elementwise(op, reinterpret_cast<int64_t *>(x.data()),
                  reinterpret_cast<int64_t *>(y.data()),
                  reinterpret_cast<int64_t *>(z.data()), count);
    if (!mssim::writeDevice(out, z))
      return ACL_ERROR_RT_PARAM_INVALID;
    return ACL_SUCCESS;
  });
  return ACL_SUCCESS;
}

extern "C" {

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data,
                                                       size_t size) {
  if (!data && size != 0) {
    fail(ACL_ERROR_INVALID_PARAM, "aclCreateDataBuffer",
         "data is null but size is not 0");
    return nullptr;
  }
  return trackHandle(new aclDataBuffer{data, size}, HandleKind::DataBuffer);
}

ACL_FUNC_VISIBILITY aclError
aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  return destroyHandle("aclDestroyDataBuffer", dataBuffer,
                       HandleKind::DataBuffer);
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer,
                                                 void *data, size_t size) {
  if (!Runtime::instance().isLive(dataBuffer, HandleKind::DataBuffer))
    return fail(ACL_ERROR_INVALID_PARAM, "aclUpdateDataBuffer",
                "unknown data buffer");
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void *
aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  return Runtime::instance().isLive(dataBuffer, HandleKind::DataBuffer)
             ? dataBuffer->data
             : nullptr;
}

ACL_FUNC_VISIBILITY size_t
aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  return Runtime::instance().isLive(dataBuffer, HandleKind::DataBuffer)
             ? dataBuffer->size
             : 0;
}

ACL_FUNC_VISIBILITY uint32_t
aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  return static_cast<uint32_t>(aclGetDataBufferSizeV2(dataBuffer));
}

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
  case ACL_INT8:
  case ACL_UINT8:
  case ACL_BOOL:
    return 1;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
  case ACL_UINT16:
    return 2;
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32:
    return 4;
  case ACL_INT64:
  case ACL_UINT64:
  case ACL_DOUBLE:
  case ACL_COMPLEX64:
    return 8;
  case ACL_COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType,
                                                       int numDims,
                                                       const int64_t *dims,
                                                       aclFormat format) {
  if (numDims < 0 || (numDims > 0 && !dims)) {
    fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc",
         "dims is null or numDims is negative");
    return nullptr;
  }
  auto *desc = new aclTensorDesc;
  desc->type = dataType;
  desc->format = format;
  desc->dims.assign(dims, dims + numDims);
  return trackHandle(desc, HandleKind::TensorDesc);
}

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc) {
  // No status to return: an unknown or destroyed description is ignored.
  if (Runtime::instance().removeHandle(desc, HandleKind::TensorDesc))
    delete desc;
  else if (desc)
    fail(ACL_ERROR_INVALID_PARAM, "aclDestroyTensorDesc",
         hexAddress(desc) + " is not a live tensor description");
}

ACL_FUNC_VISIBILITY aclDataType
aclGetTensorDescType(const aclTensorDesc *desc) {
  return Runtime::instance().isLive(desc, HandleKind::TensorDesc)
             ? desc->type
             : ACL_DT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclFormat
aclGetTensorDescFormat(const aclTensorDesc *desc) {
  return Runtime::instance().isLive(desc, HandleKind::TensorDesc)
             ? desc->format
             : ACL_FORMAT_UNDEFINED;
}

ACL_FUNC_VISIBILITY size_t
aclGetTensorDescElementCount(const aclTensorDesc *desc) {
  return Runtime::instance().isLive(desc, HandleKind::TensorDesc)
             ? elementCount(*desc)
             : 0;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
  return Runtime::instance().isLive(desc, HandleKind::TensorDesc)
             ? elementCount(*desc) * aclDataTypeSize(desc->type)
             : 0;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) {
  if (!Runtime::instance().isLive(desc, HandleKind::TensorDesc))
    return 0;
  // A shape of unknown rank is the single dimension -2.
  if (!desc->dims.empty() && desc->dims[0] == -2)
    return static_cast<size_t>(ACL_UNKNOWN_RANK);
  return desc->dims.size();
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc,
                                                   size_t index,
                                                   int64_t *dimSize) {
  if (!dimSize || !Runtime::instance().isLive(desc, HandleKind::TensorDesc) ||
      index >= desc->dims.size())
    return fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2",
                "unknown description or index out of range");
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc,
                                                size_t index) {
  if (!Runtime::instance().isLive(desc, HandleKind::TensorDesc) ||
      index >= desc->dims.size()) {
    fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDim",
         "unknown description or index out of range");
    return -1;
  }
  return desc->dims[index];
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc *desc,
                                                      size_t index,
                                                      size_t dimRangeNum,
                                                      int64_t *dimRange) {
  if (!dimRange || !Runtime::instance().isLive(desc, HandleKind::TensorDesc) ||
      index >= desc->shapeRange.size())
    return fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimRange",
                "unknown description, or no range set for that dimension");
  if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM)
    return fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimRange",
                "dimRangeNum is below 2");
  dimRange[0] = desc->shapeRange[index].first;
  dimRange[1] = desc->shapeRange[index].second;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc *desc,
                                              const char *name) {
  if (liveTensorDesc("aclSetTensorDescName", desc))
    desc->name = name ? name : "";
}

ACL_FUNC_VISIBILITY const char *aclGetTensorDescName(aclTensorDesc *desc) {
  return Runtime::instance().isLive(desc, HandleKind::TensorDesc)
             ? desc->name.c_str()
             : "";
}

ACL_FUNC_VISIBILITY void *aclGetTensorDescAddress(const aclTensorDesc *desc) {
  // Only the descriptions of an operator's tensors that
  // aclmdlCreateAndGetOpDesc makes carry an address, and the simulation makes
  // none: a description of the application's has none.
  liveTensorDesc("aclGetTensorDescAddress", desc);
  return nullptr;
}

ACL_FUNC_VISIBILITY aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc,
                                                           size_t index) {
  // The real call indexes the array aclmdlCreateAndGetOpDesc returns; every
  // description here is one of its own, so index 0 is all there is.
  if (!Runtime::instance().isLive(desc, HandleKind::TensorDesc) || index != 0) {
    fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescByIndex",
         "unknown description, or an index past its one element");
    return nullptr;
  }
  return desc;
}

// As the real library: aclSetTensorFormat and aclSetTensorShape set the
// storage format and shape; the Origin setters what the getters return.
ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc *desc,
                                                aclFormat format) {
  return setFormat("aclSetTensorFormat", desc, &aclTensorDesc::storageFormat,
                   format);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc *desc,
                                                       aclFormat format) {
  return setFormat("aclSetTensorStorageFormat", desc,
                   &aclTensorDesc::storageFormat, format);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc *desc,
                                                      aclFormat format) {
  return setFormat("aclSetTensorOriginFormat", desc, &aclTensorDesc::format,
                   format);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims,
                                               const int64_t *dims) {
  return setShape("aclSetTensorShape", desc, &aclTensorDesc::storageDims,
                  numDims, dims);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc *desc,
                                                      int numDims,
                                                      const int64_t *dims) {
  return setShape("aclSetTensorStorageShape", desc, &aclTensorDesc::storageDims,
                  numDims, dims);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc *desc,
                                                     int numDims,
                                                     const int64_t *dims) {
  return setShape("aclSetTensorOriginShape", desc, &aclTensorDesc::dims,
                  numDims, dims);
}

ACL_FUNC_VISIBILITY aclError
aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                       int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  return setRanges("aclSetTensorShapeRange", desc, &aclTensorDesc::shapeRange,
                   dimsCount, dimsRange);
}

ACL_FUNC_VISIBILITY aclError
aclSetTensorValueRange(aclTensorDesc *desc, size_t valueCount,
                       int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
  return setRanges("aclSetTensorValueRange", desc, &aclTensorDesc::valueRange,
                   valueCount, valueRange);
}

ACL_FUNC_VISIBILITY aclError
aclSetTensorDynamicInput(aclTensorDesc *desc, const char *dynamicInputName) {
  if (!liveTensorDesc("aclSetTensorDynamicInput", desc))
    return ACL_ERROR_INVALID_PARAM;
  if (!dynamicInputName)
    return fail(ACL_ERROR_INVALID_PARAM, "aclSetTensorDynamicInput",
                "dynamicInputName is null");
  desc->dynamicInputName = dynamicInputName;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc *desc,
                                               void *dataBuffer,
                                               size_t length) {
  if (!liveTensorDesc("aclSetTensorConst", desc))
    return ACL_ERROR_INVALID_PARAM;
  if (!dataBuffer || length == 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclSetTensorConst",
                "the data is null or empty");
  // The real library copies the bytes on the host: they are host memory.
  const char *bytes = static_cast<const char *>(dataBuffer);
  desc->constData.assign(bytes, bytes + length);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc *desc,
                                                   aclMemType memType) {
  if (!liveTensorDesc("aclSetTensorPlaceMent", desc))
    return ACL_ERROR_INVALID_PARAM;
  desc->memType = memType;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func,
                                   const char *file, uint32_t line,
                                   const char *fmt, ...) {
  static const char *const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  const char *level =
      logLevel >= ACL_DEBUG && logLevel <= ACL_ERROR ? names[logLevel] : "LOG";
  fprintf(stderr, "[%s] %s:%u %s: ", level, file ? file : "?", line,
          func ? func : "?");
  va_list args;
  va_start(args, fmt);
  vfprintf(stderr, fmt, args);
  va_end(args);
  fputc('\n', stderr);
}

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void) {
  return trackHandle(new aclmdlDataset, HandleKind::Dataset);
}

ACL_FUNC_VISIBILITY aclError
aclmdlDestroyDataset(const aclmdlDataset *dataset) {
  // The buffers belong to the application, as in the real API.
  return destroyHandle("aclmdlDestroyDataset", dataset, HandleKind::Dataset);
}

ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                                    aclDataBuffer *dataBuffer) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(dataset, HandleKind::Dataset) ||
      !rt.isLive(dataBuffer, HandleKind::DataBuffer))
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlAddDatasetBuffer",
                "unknown dataset or data buffer");
  dataset->buffers.push_back(dataBuffer);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t
aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset) {
  return Runtime::instance().isLive(dataset, HandleKind::Dataset)
             ? dataset->buffers.size()
             : 0;
}

ACL_FUNC_VISIBILITY aclDataBuffer *
aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index) {
  if (!Runtime::instance().isLive(dataset, HandleKind::Dataset) ||
      index >= dataset->buffers.size())
    return nullptr;
  return dataset->buffers[index];
}

ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void) {
  return trackHandle(new aclmdlDesc, HandleKind::ModelDesc);
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) {
  return destroyHandle("aclmdlDestroyDesc", modelDesc, HandleKind::ModelDesc);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc,
                                           uint32_t modelId) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(modelDesc, HandleKind::ModelDesc))
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDesc",
                "unknown model description");
  std::lock_guard<std::mutex> lock(rt.Mutex);
  if (!rt.Models.count(modelId))
    return fail(ACL_ERROR_INVALID_MODEL_ID, "aclmdlGetDesc",
                "model " + std::to_string(modelId) + " is not loaded");
  modelDesc->modelId = modelId;
  modelDesc->shape = rt.Models[modelId].shape;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName,
                                             size_t *workSize,
                                             size_t *weightSize) {
  std::string bytes;
  if (!fileName || !workSize || !weightSize)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlQuerySize", "null argument");
  if (!readFile(fileName, &bytes))
    return fail(ACL_ERROR_READ_MODEL_FAILURE, "aclmdlQuerySize",
                std::string("cannot read ") + fileName);
  return querySize("aclmdlQuerySize", bytes, workSize, weightSize);
}

ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model,
                                                    size_t modelSize,
                                                    size_t *workSize,
                                                    size_t *weightSize) {
  if (!model || !workSize || !weightSize)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlQuerySizeFromMem",
                "null argument");
  return querySize("aclmdlQuerySizeFromMem",
                   std::string(static_cast<const char *>(model), modelSize),
                   workSize, weightSize);
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath,
                                                uint32_t *modelId) {
  std::string bytes;
  if (!modelPath || !readFile(modelPath, &bytes))
    return fail(ACL_ERROR_READ_MODEL_FAILURE, "aclmdlLoadFromFile",
                std::string("cannot read ") +
                    (modelPath ? modelPath : "(null)"));
  return loadModel("aclmdlLoadFromFile", bytes, modelId, false);
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model,
                                               size_t modelSize,
                                               uint32_t *modelId) {
  if (!model)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromMem", "model is null");
  return loadModel("aclmdlLoadFromMem",
                   std::string(static_cast<const char *>(model), modelSize),
                   modelId, false);
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(
    const char *modelPath, uint32_t *modelId, void *workPtr, size_t workSize,
    void *weightPtr, size_t weightSize) {
  std::string bytes;
  if (!modelPath || !readFile(modelPath, &bytes))
    return fail(ACL_ERROR_READ_MODEL_FAILURE, "aclmdlLoadFromFileWithMem",
                std::string("cannot read ") +
                    (modelPath ? modelPath : "(null)"));
  if (!workPtr || !weightPtr)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromFileWithMem",
                "work or weight memory missing");
  return loadModel("aclmdlLoadFromFileWithMem", bytes, modelId, true, workSize,
                   weightSize);
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(
    const void *model, size_t modelSize, uint32_t *modelId, void *workPtr,
    size_t workSize, void *weightPtr, size_t weightSize) {
  if (!model)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromMemWithMem",
                "model is null");
  if (!workPtr || !weightPtr)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromMemWithMem",
                "work or weight memory missing");
  return loadModel("aclmdlLoadFromMemWithMem",
                   std::string(static_cast<const char *>(model), modelSize),
                   modelId, true, workSize, weightSize);
}

ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  auto it = rt.Models.find(modelId);
  if (it == rt.Models.end())
    return fail(ACL_ERROR_INVALID_MODEL_ID, "aclmdlUnload",
                "model " + std::to_string(modelId) +
                    " is not loaded (or was already unloaded)");
  if (it->second.bundle)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlUnload",
                "model " + std::to_string(modelId) + " belongs to bundle " +
                    std::to_string(it->second.bundle) +
                    ": aclmdlBundleUnload unloads it");
  for (void *memory : it->second.deviceMemory)
    halMemFree(memory);
  rt.Models.erase(it);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void) {
  return trackHandle(new aclopAttr, HandleKind::OpAttr);
}

ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr) {
  if (Runtime::instance().removeHandle(attr, HandleKind::OpAttr))
    delete attr;
  else if (attr)
    fail(ACL_ERROR_INVALID_PARAM, "aclopDestroyAttr",
         hexAddress(attr) + " is not a live operator attribute");
}

static aclError setAttr(const char *api, aclopAttr *attr, const char *name,
                        double value) {
  if (!name || !Runtime::instance().isLive(attr, HandleKind::OpAttr))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown attribute set or null name");
  attr->values[name] = value;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr,
                                              const char *attrName,
                                              uint8_t attrValue) {
  return setAttr("aclopSetAttrBool", attr, attrName, attrValue);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr,
                                             const char *attrName,
                                             int64_t attrValue) {
  return setAttr("aclopSetAttrInt", attr, attrName,
                 static_cast<double>(attrValue));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr,
                                               const char *attrName,
                                               float attrValue) {
  return setAttr("aclopSetAttrFloat", attr, attrName, attrValue);
}

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(
    const char *opType, int numInputs, aclTensorDesc *inputDesc[],
    aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
    aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream) {
  (void)attr;
  return executeOp("aclopExecuteV2", opType, numInputs, inputDesc, inputs,
                   numOutputs, outputDesc, outputs, stream);
}

ACL_FUNC_VISIBILITY aclError aclopExecute(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
    const aclDataBuffer *const inputs[], int numOutputs,
    const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
    const aclopAttr *attr, aclrtStream stream) {
  (void)attr;
  return executeOp("aclopExecute", opType, numInputs, inputDesc, inputs,
                   numOutputs, outputDesc, outputs, stream);
}

ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir) {
  // The operators run on the host: the directory's .om files are not read,
  // but it must be one.
  struct stat st;
  if (!modelDir)
    return fail(ACL_ERROR_INVALID_PARAM, "aclopSetModelDir", "null directory");
  if (stat(modelDir, &st) != 0 || !S_ISDIR(st.st_mode))
    return fail(ACL_ERROR_READ_MODEL_FAILURE, "aclopSetModelDir",
                std::string(modelDir) + " is not a directory");
  return ACL_SUCCESS;
}

} // extern "C"
