//===- opapi_shape.cpp - Shape and indexing operators of libopapi.so ------===//
//
// aclnnPermute, aclnnCat, aclnnSplitTensor, aclnnSplitWithSize, aclnnSlice,
// aclnnSliceV2, aclnnIndexSelect, aclnnGather, aclnnScatter (and its value
// and in-place forms), aclnnEmbedding, aclnnArange, aclnnRepeat,
// aclnnConstantPadNd: the kernels of kernels.h launched by the standard
// phase 1 (opapi.h). None asks for a workspace. Tensor lists are flattened
// into the executor's inputs (aclnnCat) or outputs (the splits).
//
//===----------------------------------------------------------------------===//
#include "opapi.h"

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"

#include <algorithm>
#include <cstdint>
#include <limits>

using namespace mssim::nn;
using namespace mssim::nn::opapi;

namespace {

std::string phase1(const char *op) {
  return std::string(op) + "GetWorkspaceSize";
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

/// aclnnScatter's reduce: 0 none, 1 add, 2 multiply; the real operator's 3
/// (max) and 4 (min) are not simulated, and other values, which the real
/// one takes as 0 with a warning, are 0 here too.
bool scatterReduce(int64_t reduce, ScatterReduce *mode) {
  switch (reduce) {
  case 1:
    *mode = ScatterReduce::Add;
    return true;
  case 2:
    *mode = ScatterReduce::Multiply;
    return true;
  case 3:
  case 4:
    return false;
  default:
    *mode = ScatterReduce::None;
    return true;
  }
}

aclnnStatus scatterOp(const char *op, const char *selfName,
                      const aclTensor *self, int64_t dim,
                      const aclTensor *index, const aclTensor *src,
                      int64_t reduce, const char *outName, const aclTensor *out,
                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  ScatterReduce mode = ScatterReduce::None;
  bool known = scatterReduce(reduce, &mode);
  return launch(
      op, {{selfName, self}, {"index", index}, {"src", src}}, {{outName, out}},
      0,
      [known, mode, dim, reduce](Mode m, const Views &in,
                                 const Views &outs) -> std::string {
        if (!known)
          return "reduce " + std::to_string(reduce) +
                 " (max or min) is not simulated";
        return scatter(m, in[0], dim, in[1], in[2], mode, outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus scatterValueOp(const char *op, const char *selfName,
                           const aclTensor *self, int64_t dim,
                           const aclTensor *index, const aclScalar *value,
                           int64_t reduce, const char *outName,
                           const aclTensor *out, uint64_t *workspaceSize,
                           aclOpExecutor **executor) {
  MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "value", value));
  Scalar v = scalarOf(value);
  ScatterReduce mode = ScatterReduce::None;
  bool known = scatterReduce(reduce, &mode);
  return launch(
      op, {{selfName, self}, {"index", index}}, {{outName, out}}, 0,
      [known, mode, dim, reduce, v](Mode m, const Views &in,
                                    const Views &outs) -> std::string {
        if (!known)
          return "reduce " + std::to_string(reduce) +
                 " (max or min) is not simulated";
        return scatterValue(m, in[0], dim, in[1], v, mode, outs[0]);
      },
      workspaceSize, executor);
}

/// self sliced along each of `axes` (aclnnSliceV2): a view of self's
/// storage, or a message.
std::string slicedView(const TensorView &self,
                       const std::vector<int64_t> &starts,
                       const std::vector<int64_t> &ends,
                       const std::vector<int64_t> &axes,
                       const std::vector<int64_t> &steps, TensorView *view) {
  if (starts.size() != axes.size() || ends.size() != axes.size() ||
      steps.size() != axes.size())
    return "starts, ends, axes and steps have " +
           std::to_string(starts.size()) + ", " + std::to_string(ends.size()) +
           ", " + std::to_string(axes.size()) + " and " +
           std::to_string(steps.size()) + " elements, not the same number";
  auto rank = static_cast<int64_t>(self.shape.size());
  if (rank == 0)
    return "cannot slice a 0-d tensor";
  *view = self;
  std::vector<bool> seen(self.shape.size(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i];
    if (axis < -rank || axis >= rank)
      return "axis " + std::to_string(axis) + " is out of range [" +
             std::to_string(-rank) + ", " + std::to_string(rank - 1) + "]";
    if (axis < 0)
      axis += rank;
    if (seen[axis])
      return "axis " + std::to_string(axes[i]) + " appears more than once";
    seen[axis] = true;
    if (steps[i] <= 0)
      return "step " + std::to_string(steps[i]) + " of axis " +
             std::to_string(axes[i]) + " is not positive";
    int64_t size = self.shape[axis];
    int64_t start = starts[i], end = ends[i];
    if (start < 0)
      start = start < -size ? 0 : start + size;
    if (end < 0)
      end = end < -size ? 0 : end + size;
    start = std::min(start, size);
    end = std::clamp(end, start, size);
    int64_t len = end == start ? 0 : (end - start - 1) / steps[i] + 1;
    view->offset += start * self.strides[axis];
    view->shape[axis] = len;
    view->strides[axis] = self.strides[axis] * steps[i];
  }
  return {};
}

} // namespace

extern "C" {

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self,
                                         const aclIntArray *dims,
                                         aclTensor *out,
                                         uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  std::vector<int64_t> d;
  MSSIM_ACLNN_CHECK(intsOf("aclnnPermuteGetWorkspaceSize", "dims", dims, &d));
  return launch(
      "aclnnPermute", {{"self", self}}, {{"out", out}}, 0,
      [d](Mode mode, const Views &in, const Views &outs) {
        return permute(mode, in[0], d, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Permute)

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim,
                                     aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  std::vector<Arg> inputs;
  MSSIM_ACLNN_CHECK(
      listArgs("aclnnCatGetWorkspaceSize", "tensors", tensors, &inputs));
  size_t count = inputs.size();
  return launch(
      "aclnnCat", inputs, {{"out", out}}, 0,
      [count, dim](Mode mode, const Views &in, const Views &outs) {
        return cat(mode, in.range(0, count), dim, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Cat)

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self,
                                             uint64_t splitSections,
                                             int64_t dim, aclTensorList *out,
                                             uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  const char *op = "aclnnSplitTensor";
  std::vector<Arg> outputs;
  MSSIM_ACLNN_CHECK(listArgs(phase1(op).c_str(), "out", out, &outputs));
  if (splitSections >
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return failed(kErrParamInvalid, phase1(op).c_str(),
                  "splitSections " + std::to_string(splitSections) +
                      " is too large");
  auto size = static_cast<int64_t>(splitSections);
  size_t count = outputs.size();
  return launch(
      op, {{"self", self}}, outputs, 0,
      [size, dim, count](Mode mode, const Views &in, const Views &outs) {
        return split(mode, in[0], size, dim, outs.range(0, count));
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(SplitTensor)

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self,
                                               const aclIntArray *splitSize,
                                               int64_t dim, aclTensorList *out,
                                               uint64_t *workspaceSize,
                                               aclOpExecutor **executor) {
  const char *op = "aclnnSplitWithSize";
  std::vector<int64_t> sizes;
  MSSIM_ACLNN_CHECK(intsOf(phase1(op).c_str(), "splitSize", splitSize, &sizes));
  std::vector<Arg> outputs;
  MSSIM_ACLNN_CHECK(listArgs(phase1(op).c_str(), "out", out, &outputs));
  size_t count = outputs.size();
  return launch(
      op, {{"self", self}}, outputs, 0,
      [sizes, dim, count](Mode mode, const Views &in, const Views &outs) {
        return splitWithSizes(mode, in[0], sizes, dim, outs.range(0, count));
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(SplitWithSize)

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                       int64_t start, int64_t end, int64_t step,
                                       aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return launch(
      "aclnnSlice", {{"self", self}}, {{"out", out}}, 0,
      [dim, start, end, step](Mode mode, const Views &in, const Views &outs) {
        return slice(mode, in[0], dim, start, end, step, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Slice)

/// aclnnSliceV2: self sliced along several axes at once; out of self's dtype
/// and of the sliced shape.
aclnnStatus aclnnSliceV2GetWorkspaceSize(
    const aclTensor *self, const aclIntArray *starts, const aclIntArray *ends,
    const aclIntArray *axes, const aclIntArray *steps, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = "aclnnSliceV2GetWorkspaceSize";
  std::vector<int64_t> s, e, a, st;
  MSSIM_ACLNN_CHECK(intsOf(api, "starts", starts, &s));
  MSSIM_ACLNN_CHECK(intsOf(api, "ends", ends, &e));
  MSSIM_ACLNN_CHECK(intsOf(api, "axes", axes, &a));
  MSSIM_ACLNN_CHECK(intsOf(api, "steps", steps, &st));
  return launch(
      "aclnnSliceV2", {{"self", self}}, {{"out", out}}, 0,
      [s, e, a, st](Mode mode, const Views &in,
                    const Views &outs) -> std::string {
        std::string problem = checkView(in[0], "self", mode);
        if (!problem.empty())
          return problem;
        TensorView view;
        problem = slicedView(in[0], s, e, a, st, &view);
        if (!problem.empty())
          return problem;
        if (outs[0].dtype != in[0].dtype)
          return std::string("out is of ") + dtypeName(outs[0].dtype) +
                 ", not of self's " + dtypeName(in[0].dtype);
        if (outs[0].shape != view.shape)
          return "out's shape " + shapeText(outs[0].shape) + " is not " +
                 shapeText(view.shape) + ", the sliced shape";
        return copy(mode, outs[0], view);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(SliceV2)

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                             const aclTensor *index,
                                             aclTensor *out,
                                             uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return launch(
      "aclnnIndexSelect", {{"self", self}, {"index", index}}, {{"out", out}}, 0,
      [dim](Mode mode, const Views &in, const Views &outs) {
        return indexSelect(mode, in[0], dim, in[1], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(IndexSelect)

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self,
                                        const int64_t dim,
                                        const aclTensor *index, aclTensor *out,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return launch(
      "aclnnGather", {{"self", self}, {"index", index}}, {{"out", out}}, 0,
      [dim](Mode mode, const Views &in, const Views &outs) {
        return gather(mode, in[0], dim, in[1], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Gather)

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                         const aclTensor *index,
                                         const aclTensor *src, int64_t reduce,
                                         aclTensor *out,
                                         uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return scatterOp("aclnnScatter", "self", self, dim, index, src, reduce, "out",
                   out, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Scatter)

aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
                                                const aclTensor *index,
                                                const aclTensor *src,
                                                int64_t reduce,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor) {
  return scatterOp("aclnnInplaceScatter", "selfRef", selfRef, dim, index, src,
                   reduce, "selfRef", selfRef, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceScatter)

aclnnStatus aclnnScatterValueGetWorkspaceSize(
    const aclTensor *self, int64_t dim, const aclTensor *index,
    const aclScalar *value, int64_t reduce, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  return scatterValueOp("aclnnScatterValue", "self", self, dim, index, value,
                        reduce, "out", out, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(ScatterValue)

aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(
    aclTensor *selfRef, int64_t dim, const aclTensor *index,
    const aclScalar *value, int64_t reduce, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
  return scatterValueOp("aclnnInplaceScatterValue", "selfRef", selfRef, dim,
                        index, value, reduce, "selfRef", selfRef, workspaceSize,
                        executor);
}
MSSIM_ACLNN_PHASE2(InplaceScatterValue)

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight,
                                           const aclTensor *indices,
                                           const aclTensor *out,
                                           uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  return launch(
      "aclnnEmbedding", {{"weight", weight}, {"indices", indices}},
      {{"out", out}}, 0,
      [](Mode mode, const Views &in, const Views &outs) {
        return embedding(mode, in[0], in[1], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Embedding)

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start,
                                        const aclScalar *end,
                                        const aclScalar *step, aclTensor *out,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  const char *api = "aclnnArangeGetWorkspaceSize";
  MSSIM_ACLNN_CHECK(checkScalarValue(api, "start", start));
  MSSIM_ACLNN_CHECK(checkScalarValue(api, "end", end));
  MSSIM_ACLNN_CHECK(checkScalarValue(api, "step", step));
  Scalar from = scalarOf(start), to = scalarOf(end), by = scalarOf(step);
  return launch(
      "aclnnArange", {}, {{"out", out}}, 0,
      [from, to, by](Mode mode, const Views &, const Views &outs) {
        return arange(mode, from, to, by, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Arange)

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self,
                                        const aclIntArray *repeats,
                                        aclTensor *out, uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  std::vector<int64_t> r;
  MSSIM_ACLNN_CHECK(
      intsOf("aclnnRepeatGetWorkspaceSize", "repeats", repeats, &r));
  return launch(
      "aclnnRepeat", {{"self", self}}, {{"out", out}}, 0,
      [r](Mode mode, const Views &in, const Views &outs) {
        return repeat(mode, in[0], r, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Repeat)

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *pad, const aclScalar *value,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = "aclnnConstantPadNdGetWorkspaceSize";
  std::vector<int64_t> p;
  MSSIM_ACLNN_CHECK(intsOf(api, "pad", pad, &p));
  MSSIM_ACLNN_CHECK(checkScalarValue(api, "value", value));
  Scalar v = scalarOf(value);
  return launch(
      "aclnnConstantPadNd", {{"self", self}}, {{"out", out}}, 0,
      [p, v](Mode mode, const Views &in, const Views &outs) {
        return constantPad(mode, in[0], p, v, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(ConstantPadNd)

} // extern "C"
