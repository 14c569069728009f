//===- acl_model_api.cpp - Model descriptions, their tensors, execution ---===//
//
// A real .om cannot run here. A model the simulation can run is a text
// description of its own (utils/simdevice/README.md, "Models"):
//
//   mssim-model 1
//   weight 1048576
//   workspace 262144
//   input data float32 NCHW 1,3,224,224
//   output prob float32 ND 1,1000
//
// Its inputs and outputs answer aclmdlGetInputSizeByIndex and the other
// queries of a model description; aclmdlExecute(Async) checks the datasets
// against them (count, size, device memory) and fills each output with a
// deterministic pattern: element i is (i mod 256) / 256 as its type (i mod
// 256 for integer types). Any other bytes load as weights with no inputs
// or outputs.
//
//===----------------------------------------------------------------------===//
#include "acl_objects.h"

#include <cstring>
#include <sstream>

using namespace mssim;

namespace {

const char *const kMagic = "mssim-model";

/// The data types and formats a description names, as the real enums.
bool dataTypeNamed(const std::string &name, aclDataType *type) {
  static const std::pair<const char *, aclDataType> names[] = {
      {"float32", ACL_FLOAT}, {"float16", ACL_FLOAT16}, {"int8", ACL_INT8},
      {"int32", ACL_INT32},   {"uint8", ACL_UINT8},     {"int16", ACL_INT16},
      {"int64", ACL_INT64},   {"bool", ACL_BOOL}};
  for (const auto &entry : names)
    if (name == entry.first) {
      *type = entry.second;
      return true;
    }
  return false;
}

bool formatNamed(const std::string &name, aclFormat *format) {
  static const std::pair<const char *, aclFormat> names[] = {
      {"NCHW", ACL_FORMAT_NCHW},
      {"NHWC", ACL_FORMAT_NHWC},
      {"ND", ACL_FORMAT_ND},
      {"NC1HWC0", ACL_FORMAT_NC1HWC0}};
  for (const auto &entry : names)
    if (name == entry.first) {
      *format = entry.second;
      return true;
    }
  return false;
}

/// "input NAME TYPE FORMAT D0,D1,..." after its first word.
bool readTensor(std::istringstream &line, ModelTensor *tensor) {
  std::string type, format, dims;
  if (!(line >> tensor->name >> type >> format >> dims) ||
      !dataTypeNamed(type, &tensor->type) ||
      !formatNamed(format, &tensor->format))
    return false;
  size_t elements = 1;
  std::istringstream list(dims);
  for (std::string dim; std::getline(list, dim, ',');) {
    char *end = nullptr;
    long long value = strtoll(dim.c_str(), &end, 10);
    if (*end || value <= 0)
      return false;
    tensor->dims.push_back(value);
    elements *= static_cast<size_t>(value);
  }
  tensor->bytes = elements * aclDataTypeSize(tensor->type);
  return !tensor->dims.empty();
}

const ModelTensor *tensorAt(const aclmdlDesc *desc, size_t index, bool input) {
  if (!Runtime::instance().isLive(desc, HandleKind::ModelDesc))
    return nullptr;
  const std::vector<ModelTensor> &list =
      input ? desc->shape.inputs : desc->shape.outputs;
  return index < list.size() ? &list[index] : nullptr;
}

aclError dims(const char *api, const aclmdlDesc *desc, size_t index,
              aclmdlIODims *out, bool input) {
  const ModelTensor *tensor = tensorAt(desc, index, input);
  if (!tensor || !out)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "no such tensor, or a null output");
  memset(out, 0, sizeof *out);
  strncpy(out->name, tensor->name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  out->dimCount = tensor->dims.size();
  for (size_t i = 0; i < tensor->dims.size() && i < ACL_MAX_DIM_CNT; ++i)
    out->dims[i] = tensor->dims[i];
  return ACL_SUCCESS;
}

aclError indexByName(const char *api, const aclmdlDesc *desc, const char *name,
                     size_t *index, bool input) {
  if (!Runtime::instance().isLive(desc, HandleKind::ModelDesc) || !name ||
      !index)
    return fail(ACL_ERROR_INVALID_PARAM, api, "a null or unknown argument");
  const std::vector<ModelTensor> &list =
      input ? desc->shape.inputs : desc->shape.outputs;
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  return fail(ACL_ERROR_INVALID_PARAM, api,
              std::string("no tensor named ") + name);
}

/// Checks `dataset` against `tensors`: as many buffers, each in device
/// memory and at least its tensor's size.
aclError checkDataset(const char *api, const aclmdlDataset *dataset,
                      const std::vector<ModelTensor> &tensors,
                      const char *which) {
  if (!Runtime::instance().isLive(dataset, HandleKind::Dataset))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::string("unknown ") + which + " dataset");
  if (dataset->buffers.size() != tensors.size())
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::string("the ") + which + " dataset has " +
                    std::to_string(dataset->buffers.size()) +
                    " buffer(s); the model has " +
                    std::to_string(tensors.size()));
  for (size_t i = 0; i < tensors.size(); ++i) {
    const aclDataBuffer *buffer = dataset->buffers[i];
    if (!Runtime::instance().isLive(buffer, HandleKind::DataBuffer) ||
        !inDeviceMemory(buffer->data) || buffer->size < tensors[i].bytes)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  std::string(which) + " " + std::to_string(i) + " (" +
                      tensors[i].name + ") needs " +
                      std::to_string(tensors[i].bytes) +
                      " bytes of device memory");
  }
  return ACL_SUCCESS;
}

/// The outputs' pattern, written through the driver.
int fillOutputs(const std::vector<ModelTensor> &outputs,
                const std::vector<void *> &data) {
  for (size_t t = 0; t < outputs.size(); ++t) {
    const ModelTensor &tensor = outputs[t];
    size_t size = aclDataTypeSize(tensor.type);
    std::vector<uint8_t> bytes(tensor.bytes);
    for (size_t i = 0; i * size < tensor.bytes; ++i) {
      uint8_t *at = bytes.data() + i * size;
      unsigned step = static_cast<unsigned>(i % 256);
      if (tensor.type == ACL_FLOAT) {
        float value = step / 256.0f;
        memcpy(at, &value, sizeof value);
      } else if (tensor.type == ACL_FLOAT16) {
        aclFloat16 value = aclFloatToFloat16(step / 256.0f);
        memcpy(at, &value, sizeof value);
      } else {
        memcpy(at, &step, size < sizeof step ? size : sizeof step);
      }
    }
    if (!mssim::writeDevice(data[t], bytes))
      return ACL_ERROR_RT_PARAM_INVALID;
  }
  return ACL_SUCCESS;
}

/// The checks of an execution; the outputs' tensors and buffers to fill.
aclError prepare(const char *api, uint32_t modelId, const aclmdlDataset *input,
                 const aclmdlDataset *output, std::vector<ModelTensor> *tensors,
                 std::vector<void *> *data) {
  ModelShape shape;
  {
    Runtime &rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.Mutex);
    auto it = rt.Models.find(modelId);
    if (it == rt.Models.end())
      return fail(ACL_ERROR_INVALID_MODEL_ID, api,
                  "model " + std::to_string(modelId) + " is not loaded");
    shape = it->second.shape;
  }
  if (aclError error = checkDataset(api, input, shape.inputs, "input"))
    return error;
  if (aclError error = checkDataset(api, output, shape.outputs, "output"))
    return error;
  *tensors = shape.outputs;
  for (const aclDataBuffer *buffer : output->buffers)
    data->push_back(buffer->data);
  return ACL_SUCCESS;
}

} // namespace

bool mssim::readModel(const std::string &bytes, ModelShape *shape,
                      std::string *error) {
  *shape = ModelShape();
  // A description may start with blank lines; anything else is opaque
  // bytes: weights, and no tensors.
  size_t start = bytes.find_first_not_of(" \t\r\n");
  if (start == std::string::npos ||
      bytes.compare(start, strlen(kMagic), kMagic) != 0) {
    shape->weightSize = bytes.size();
    return true;
  }
  std::istringstream text(bytes.substr(start));
  std::string line;
  std::getline(text, line);
  if (line != std::string(kMagic) + " 1") {
    *error = "a model description of another version: " + line;
    return false;
  }
  bool weighted = false;
  for (unsigned number = 2; std::getline(text, line); ++number) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word[0] == '#')
      continue;
    bool ok = false;
    if (word == "weight") {
      ok = static_cast<bool>(words >> shape->weightSize) &&
           shape->weightSize > 0;
      weighted = ok;
    } else if (word == "workspace") {
      ok = static_cast<bool>(words >> shape->workspaceSize);
    } else if (word == "input" || word == "output") {
      ModelTensor tensor;
      ok = readTensor(words, &tensor);
      (word == "input" ? shape->inputs : shape->outputs).push_back(tensor);
    }
    if (!ok) {
      *error = "model description line " + std::to_string(number) +
               " is not understood: " + line;
      return false;
    }
  }
  if (!weighted) {
    *error = "the model description has no weight line";
    return false;
  }
  return true;
}

extern "C" {

ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc) {
  return Runtime::instance().isLive(modelDesc, HandleKind::ModelDesc)
             ? modelDesc->shape.inputs.size()
             : 0;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc) {
  return Runtime::instance().isLive(modelDesc, HandleKind::ModelDesc)
             ? modelDesc->shape.outputs.size()
             : 0;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc,
                                                     size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, true);
  return tensor ? tensor->bytes : 0;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc,
                                                      size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, false);
  return tensor ? tensor->bytes : 0;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc,
                                                size_t index,
                                                aclmdlIODims *out) {
  return dims("aclmdlGetInputDims", modelDesc, index, out, true);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc,
                                                  size_t index,
                                                  aclmdlIODims *out) {
  return dims("aclmdlGetInputDimsV2", modelDesc, index, out, true);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc,
                                                 size_t index,
                                                 aclmdlIODims *out) {
  return dims("aclmdlGetOutputDims", modelDesc, index, out, false);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc,
                                                    size_t index,
                                                    aclmdlIODims *out) {
  return dims("aclmdlGetCurOutputDims", modelDesc, index, out, false);
}

ACL_FUNC_VISIBILITY const char *
aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, true);
  return tensor ? tensor->name.c_str() : "";
}

ACL_FUNC_VISIBILITY const char *
aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, false);
  return tensor ? tensor->name.c_str() : "";
}

ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc,
                                                   size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, true);
  return tensor ? tensor->format : ACL_FORMAT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc,
                                                    size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, false);
  return tensor ? tensor->format : ACL_FORMAT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclDataType
aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, true);
  return tensor ? tensor->type : ACL_DT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclDataType
aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index) {
  const ModelTensor *tensor = tensorAt(modelDesc, index, false);
  return tensor ? tensor->type : ACL_DT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(
    const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  return indexByName("aclmdlGetInputIndexByName", modelDesc, name, index, true);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(
    const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  return indexByName("aclmdlGetOutputIndexByName", modelDesc, name, index,
                     false);
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(
    aclmdlDataset *dataset, aclTensorDesc *tensorDesc, size_t index) {
  Runtime &rt = Runtime::instance();
  if (!rt.isLive(dataset, HandleKind::Dataset) ||
      !rt.isLive(tensorDesc, HandleKind::TensorDesc) ||
      index >= dataset->buffers.size())
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetDatasetTensorDesc",
                "unknown dataset or tensor description, or no buffer at "
                "index " +
                    std::to_string(index));
  dataset->tensorDescs[index] = tensorDesc;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclTensorDesc *
aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index) {
  if (!Runtime::instance().isLive(dataset, HandleKind::Dataset))
    return nullptr;
  auto it = dataset->tensorDescs.find(index);
  return it == dataset->tensorDescs.end() ? nullptr : it->second;
}

ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId,
                                           const aclmdlDataset *input,
                                           aclmdlDataset *output) {
  std::vector<ModelTensor> tensors;
  std::vector<void *> data;
  if (aclError error =
          prepare("aclmdlExecute", modelId, input, output, &tensors, &data))
    return error;
  return fillOutputs(tensors, data);
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId,
                                                const aclmdlDataset *input,
                                                aclmdlDataset *output,
                                                aclrtStream stream) {
  std::vector<ModelTensor> tensors;
  std::vector<void *> data;
  if (aclError error = prepare("aclmdlExecuteAsync", modelId, input, output,
                               &tensors, &data))
    return error;
  return enqueueTask("aclmdlExecuteAsync", stream,
                     [tensors, data] { return fillOutputs(tensors, data); });
}

} // extern "C"
