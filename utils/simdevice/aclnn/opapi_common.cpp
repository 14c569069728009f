//===- opapi_common.cpp - The operators' standard phase 1 -----------------===//
//
// launch() and the handle-to-value helpers of opapi.h.
//
//===----------------------------------------------------------------------===//
#include "opapi.h"

#include <algorithm>

namespace mssim::nn::opapi {

namespace {

/// Whether the storage shape of a tensor of `format` counts elements (the
/// plain formats), so that its product bounds the views.
bool plainFormat(aclFormat format) {
  return format == ACL_FORMAT_ND || format == ACL_FORMAT_NCHW ||
         format == ACL_FORMAT_NHWC || format == ACL_FORMAT_NCDHW ||
         format == ACL_FORMAT_NDHWC;
}

/// Bytes of storage the view of `desc` reaches (0 for an empty view).
uint64_t spanBytes(const TensorDesc &desc) {
  uint64_t last = static_cast<uint64_t>(desc.offset);
  for (size_t i = 0; i < desc.viewDims.size(); ++i) {
    if (desc.viewDims[i] == 0)
      return 0;
    last += static_cast<uint64_t>(desc.viewDims[i] - 1) *
            static_cast<uint64_t>(desc.strides[i]);
  }
  return (last + 1) * dtypeSize(desc.dataType);
}

TensorView viewOf(const TensorDesc &desc) {
  TensorView view;
  view.dtype = desc.dataType;
  view.shape = desc.viewDims;
  view.strides = desc.strides;
  view.offset = desc.offset;
  return view;
}

} // namespace

TensorView checkView(const TensorDesc &desc) {
  TensorView view = viewOf(desc);
  uint64_t storage = spanBytes(desc);
  if (plainFormat(desc.format)) {
    uint64_t elements = 1;
    for (int64_t dim : desc.storageDims)
      elements *= static_cast<uint64_t>(dim);
    storage = std::max(storage, elements * dtypeSize(desc.dataType));
  }
  view.storageBytes = storage;
  return view;
}

TensorView runView(Operand &operand) {
  TensorView view = viewOf(operand.desc);
  view.base = operand.bytes.data();
  view.storageBytes = operand.bytes.size();
  return view;
}

Scalar scalarOf(const aclScalar *scalar) {
  return Scalar::fromBytes(scalar->value, scalar->dataType);
}

aclnnStatus checkScalarValue(const char *api, const char *what,
                             const aclScalar *scalar) {
  MSSIM_ACLNN_CHECK(checkScalar(api, what, scalar));
  if (!isSupportedDtype(scalar->dataType))
    return failed(kErrParamInvalid, api,
                  std::string(what) + ": scalars of " +
                      dtypeName(scalar->dataType) + " are not supported");
  return kSuccess;
}

aclnnStatus listArgs(const char *api, const char *what,
                     const aclTensorList *list, std::vector<Arg> *args) {
  MSSIM_ACLNN_CHECK(checkTensorList(api, what, list));
  for (size_t i = 0; i < list->tensors.size(); ++i)
    args->push_back({std::string(what) + "[" + std::to_string(i) + "]",
                     list->tensors[i], false, static_cast<int>(i)});
  return kSuccess;
}

aclnnStatus intsOf(const char *api, const char *what, const aclIntArray *array,
                   std::vector<int64_t> *values) {
  MSSIM_ACLNN_CHECK(checkIntArray(api, what, array));
  *values = array->values;
  return kSuccess;
}

aclnnStatus launch(const char *op, const std::vector<Arg> &inputs,
                   const std::vector<Arg> &outputs, uint64_t workspaceNeeded,
                   Kernel kernel, uint64_t *workspaceSize,
                   aclOpExecutor **executor) {
  std::string api = std::string(op) + "GetWorkspaceSize";
  // Handles first: null ones, then the ones that are not live tensors.
  for (const auto *args : {&inputs, &outputs})
    for (const Arg &arg : *args)
      MSSIM_ACLNN_CHECK(
          checkTensor(api.c_str(), arg.name.c_str(), arg.tensor, arg.optional));
  if (!workspaceSize || !executor)
    return failed(kErrParamNullptr, api.c_str(),
                  "workspaceSize or executor is null");

  // The descriptions (copies) of the present tensors, and where they are.
  auto describe = [](const std::vector<Arg> &args,
                     std::vector<TensorDesc> *descs,
                     std::vector<bool> *present) {
    for (const Arg &arg : args) {
      present->push_back(arg.tensor != nullptr);
      if (arg.tensor)
        descs->push_back(arg.tensor->desc);
    }
  };
  std::vector<TensorDesc> inDescs, outDescs;
  std::vector<bool> inPresent, outPresent;
  describe(inputs, &inDescs, &inPresent);
  describe(outputs, &outDescs, &outPresent);

  // Phase 1 validates: the kernel on the descriptions alone.
  auto checkViews = [](const std::vector<TensorDesc> &descs,
                       const std::vector<bool> &present) {
    std::vector<TensorView> views;
    size_t next = 0;
    for (bool here : present)
      views.push_back(here ? checkView(descs[next++]) : TensorView{});
    return Views(std::move(views), present);
  };
  std::string problem = kernel(Mode::Check, checkViews(inDescs, inPresent),
                               checkViews(outDescs, outPresent));
  if (!problem.empty())
    return failed(kErrParamInvalid, api.c_str(), problem);

  Computation compute = [kernel, inPresent,
                         outPresent](std::vector<Operand> &in,
                                     std::vector<Operand> &out) {
    auto runViews = [](std::vector<Operand> &operands,
                       const std::vector<bool> &present) {
      std::vector<TensorView> views;
      size_t next = 0;
      for (bool here : present)
        views.push_back(here ? runView(operands[next++]) : TensorView{});
      return Views(std::move(views), present);
    };
    return kernel(Mode::Run, runViews(in, inPresent),
                  runViews(out, outPresent));
  };
  // Where each present tensor is among the operator's inputs and outputs:
  // (irIndex, relativeIndex), a list being one of them.
  auto places = [](const std::vector<Arg> &args) {
    std::vector<std::pair<size_t, size_t>> out;
    size_t ir = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i > 0 && args[i].listIndex <= 0)
        ++ir;
      if (args[i].tensor)
        out.emplace_back(ir, args[i].listIndex < 0 ? 0 : args[i].listIndex);
    }
    return out;
  };
  return makeExecutor(op, std::move(inDescs), std::move(outDescs),
                      std::move(compute), workspaceNeeded, workspaceSize,
                      executor, places(inputs), places(outputs));
}

} // namespace mssim::nn::opapi
