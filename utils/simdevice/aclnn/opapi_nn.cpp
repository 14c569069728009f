//===- opapi_nn.cpp - Softmax and normalisation operators of libopapi.so --===//
//
// aclnnSoftmax, aclnnLogSoftmax, aclnnLayerNorm, aclnnRmsNorm, aclnnGroupNorm:
// the kernels of kernels.h launched by the standard phase 1 (opapi.h), each
// asking for kScratchWorkspace.
//
//===----------------------------------------------------------------------===//
#include "opapi.h"

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"

using namespace mssim::nn;
using namespace mssim::nn::opapi;

extern "C" {

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                         aclTensor *out,
                                         uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return launch(
      "aclnnSoftmax", {{"self", self}}, {{"out", out}}, kScratchWorkspace,
      [dim](Mode mode, const Views &in, const Views &outs) {
        return softmax(mode, in[0], dim, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Softmax)

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                            aclTensor *out,
                                            uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return launch(
      "aclnnLogSoftmax", {{"self", self}}, {{"out", out}}, kScratchWorkspace,
      [dim](Mode mode, const Views &in, const Views &outs) {
        return logSoftmax(mode, in[0], dim, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(LogSoftmax)

/// aclnnLayerNorm: weight, bias, meanOut and rstdOut may be null.
aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
    aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  std::vector<int64_t> shape;
  MSSIM_ACLNN_CHECK(intsOf("aclnnLayerNormGetWorkspaceSize", "normalizedShape",
                           normalizedShape, &shape));
  return launch(
      "aclnnLayerNorm",
      {{"input", input},
       {"weightOptional", weightOptional, true},
       {"biasOptional", biasOptional, true}},
      {{"out", out},
       {"meanOutOptional", meanOutOptional, true},
       {"rstdOutOptional", rstdOutOptional, true}},
      kScratchWorkspace,
      [shape, eps](Mode mode, const Views &in, const Views &outs) {
        return layerNorm(mode, in[0], shape, in.optional(1), in.optional(2),
                         eps, outs[0], outs.optional(1), outs.optional(2));
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(LayerNorm)

/// aclnnRmsNorm (a header the real build generates): y = x / sqrt(mean(x^2)
/// + epsilon) * gamma over gamma's dims; rstdOut of x's leading dims.
aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x,
                                         const aclTensor *gamma, double epsilon,
                                         const aclTensor *yOut,
                                         const aclTensor *rstdOut,
                                         uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return launch(
      "aclnnRmsNorm", {{"x", x}, {"gamma", gamma}},
      {{"yOut", yOut}, {"rstdOut", rstdOut}}, kScratchWorkspace,
      [epsilon](Mode mode, const Views &in, const Views &outs) {
        return rmsNorm(mode, in[0], in[1], epsilon, outs[0], &outs[1]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(RmsNorm)

/// aclnnGroupNorm: gamma and beta may be null (the real operator takes them
/// as optional though their names do not say so); meanOut and rstdOut are
/// required.
aclnnStatus aclnnGroupNormGetWorkspaceSize(
    const aclTensor *self, const aclTensor *gamma, const aclTensor *beta,
    int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
    aclTensor *out, aclTensor *meanOut, aclTensor *rstdOut,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  return launch(
      "aclnnGroupNorm",
      {{"self", self}, {"gamma", gamma, true}, {"beta", beta, true}},
      {{"out", out}, {"meanOut", meanOut}, {"rstdOut", rstdOut}},
      kScratchWorkspace,
      [N, C, HxW, group, eps](Mode mode, const Views &in, const Views &outs) {
        return groupNorm(mode, in[0], in.optional(1), in.optional(2), N, C, HxW,
                         group, eps, outs[0], &outs[1], &outs[2]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(GroupNorm)

} // extern "C"
