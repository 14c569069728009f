//===- opapi_reduce.cpp - Reductions of libopapi.so -----------------------===//
//
// aclnnReduceSum, aclnnMean, aclnnMaxDim / aclnnMinDim, aclnnAmax /
// aclnnAmin, aclnnArgMax / aclnnArgMin: the kernels of kernels.h launched by
// the standard phase 1 (opapi.h), each asking for kScratchWorkspace.
//
//===----------------------------------------------------------------------===//
#include "opapi.h"

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_reduce_sum.h"

using namespace mssim::nn;
using namespace mssim::nn::opapi;

namespace {

using DimsKernel = std::string (*)(Mode, const TensorView &,
                                   const std::vector<int64_t> &, bool,
                                   const TensorView &);
using DimKernel = std::string (*)(Mode, const TensorView &, int64_t, bool,
                                  const TensorView &);
using ValuesIndicesKernel = std::string (*)(Mode, const TensorView &, int64_t,
                                            bool, const TensorView &,
                                            const TensorView &);

/// A reduction over an int array of dims into out; with `dtype` (not
/// ACL_DT_UNDEFINED), out must be of it, as aclnnReduceSum and aclnnMean
/// require.
aclnnStatus reduceDims(const char *op, DimsKernel kernel, const aclTensor *self,
                       const char *dimsName, const aclIntArray *dims,
                       bool keepDim, aclDataType dtype, aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  std::vector<int64_t> d;
  MSSIM_ACLNN_CHECK(intsOf((std::string(op) + "GetWorkspaceSize").c_str(),
                           dimsName, dims, &d));
  return launch(
      op, {{"self", self}}, {{"out", out}}, kScratchWorkspace,
      [kernel, d, keepDim, dtype](Mode mode, const Views &in,
                                  const Views &outs) -> std::string {
        if (dtype != ACL_DT_UNDEFINED && outs[0].dtype != dtype)
          return std::string("out is of ") + dtypeName(outs[0].dtype) +
                 ", not of dtype " + dtypeName(dtype);
        return kernel(mode, in[0], d, keepDim, outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus reduceDim(const char *op, DimKernel kernel, const aclTensor *self,
                      int64_t dim, bool keepdim, aclTensor *out,
                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  return launch(
      op, {{"self", self}}, {{"out", out}}, kScratchWorkspace,
      [kernel, dim, keepdim](Mode mode, const Views &in, const Views &outs) {
        return kernel(mode, in[0], dim, keepdim, outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus reduceValuesIndices(const char *op, ValuesIndicesKernel kernel,
                                const aclTensor *self, int64_t dim,
                                bool keepdim, aclTensor *out,
                                aclTensor *indices, uint64_t *workspaceSize,
                                aclOpExecutor **executor) {
  return launch(
      op, {{"self", self}}, {{"out", out}, {"indices", indices}},
      kScratchWorkspace,
      [kernel, dim, keepdim](Mode mode, const Views &in, const Views &outs) {
        return kernel(mode, in[0], dim, keepdim, outs[0], outs[1]);
      },
      workspaceSize, executor);
}

} // namespace

extern "C" {

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self,
                                           const aclIntArray *dims,
                                           bool keepDims, aclDataType dtype,
                                           aclTensor *out,
                                           uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  return reduceDims("aclnnReduceSum", sum, self, "dims", dims, keepDims, dtype,
                    out, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(ReduceSum)

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self,
                                      const aclIntArray *dim, bool keepDim,
                                      aclDataType dtype, aclTensor *out,
                                      uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return reduceDims("aclnnMean", mean, self, "dim", dim, keepDim, dtype, out,
                    workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Mean)

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self,
                                      const aclIntArray *dim, bool keepDim,
                                      aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return reduceDims("aclnnAmax", amax, self, "dim", dim, keepDim,
                    ACL_DT_UNDEFINED, out, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Amax)

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self,
                                      const aclIntArray *dim, bool keepDim,
                                      aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return reduceDims("aclnnAmin", amin, self, "dim", dim, keepDim,
                    ACL_DT_UNDEFINED, out, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Amin)

aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                        bool keepdim, aclTensor *out,
                                        aclTensor *indices,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return reduceValuesIndices("aclnnMaxDim", maxDim, self, dim, keepdim, out,
                             indices, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(MaxDim)

aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                        bool keepdim, aclTensor *out,
                                        aclTensor *indices,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return reduceValuesIndices("aclnnMinDim", minDim, self, dim, keepdim, out,
                             indices, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(MinDim)

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                        bool keepdim, aclTensor *out,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return reduceDim("aclnnArgMax", argmax, self, dim, keepdim, out,
                   workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(ArgMax)

aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                        bool keepdim, aclTensor *out,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return reduceDim("aclnnArgMin", argmin, self, dim, keepdim, out,
                   workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(ArgMin)

} // extern "C"
