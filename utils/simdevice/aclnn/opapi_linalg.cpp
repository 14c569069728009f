//===- opapi_linalg.cpp - Matrix products of libopapi.so ------------------===//
//
// aclnnMatmul, aclnnMm, aclnnBatchMatMul, aclnnMv, aclnnAddmm and
// aclnnInplaceAddmm: the kernels of kernels.h launched by the standard phase
// 1 (opapi.h), each asking for kScratchWorkspace. cubeMathType (how the cube
// unit may trade precision) must be one of the real values, 0 (KEEP_DTYPE)
// to 3 (USE_HF32); the host computes at full precision whichever it is.
//
//===----------------------------------------------------------------------===//
#include "opapi.h"

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"

using namespace mssim::nn;
using namespace mssim::nn::opapi;

namespace {

using ProductKernel = std::string (*)(Mode, const TensorView &,
                                      const TensorView &, const TensorView &);

std::string checkMathType(int8_t cubeMathType) {
  if (cubeMathType < 0 || cubeMathType > 3)
    return "cubeMathType is " + std::to_string(cubeMathType) +
           ", not one of 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 "
           "(USE_FP16), 3 (USE_HF32)";
  return {};
}

aclnnStatus product(const char *op, ProductKernel kernel, const aclTensor *self,
                    const char *otherName, const aclTensor *other,
                    aclTensor *out, int8_t cubeMathType,
                    uint64_t *workspaceSize, aclOpExecutor **executor) {
  return launch(
      op, {{"self", self}, {otherName, other}}, {{"out", out}},
      kScratchWorkspace,
      [kernel, cubeMathType](Mode mode, const Views &in,
                             const Views &outs) -> std::string {
        std::string problem = checkMathType(cubeMathType);
        if (!problem.empty())
          return problem;
        return kernel(mode, in[0], in[1], outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus addmmOp(const char *op, const char *selfName, const aclTensor *self,
                    const aclTensor *mat1, const aclTensor *mat2,
                    const aclScalar *beta, const aclScalar *alpha,
                    const char *outName, const aclTensor *out,
                    int8_t cubeMathType, uint64_t *workspaceSize,
                    aclOpExecutor **executor) {
  std::string api = std::string(op) + "GetWorkspaceSize";
  MSSIM_ACLNN_CHECK(checkScalarValue(api.c_str(), "beta", beta));
  MSSIM_ACLNN_CHECK(checkScalarValue(api.c_str(), "alpha", alpha));
  Scalar b = scalarOf(beta), a = scalarOf(alpha);
  return launch(
      op, {{selfName, self}, {"mat1", mat1}, {"mat2", mat2}}, {{outName, out}},
      kScratchWorkspace,
      [b, a, cubeMathType](Mode mode, const Views &in,
                           const Views &outs) -> std::string {
        std::string problem = checkMathType(cubeMathType);
        if (!problem.empty())
          return problem;
        return addmm(mode, in[0], in[1], in[2], b, a, outs[0]);
      },
      workspaceSize, executor);
}

} // namespace

extern "C" {

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self,
                                        const aclTensor *mat2, aclTensor *out,
                                        int8_t cubeMathType,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return product("aclnnMatmul", matmul, self, "mat2", mat2, out, cubeMathType,
                 workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Matmul)

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self,
                                    const aclTensor *mat2, aclTensor *out,
                                    int8_t cubeMathType,
                                    uint64_t *workspaceSize,
                                    aclOpExecutor **executor) {
  return product("aclnnMm", mm, self, "mat2", mat2, out, cubeMathType,
                 workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Mm)

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(
    const aclTensor *self, const aclTensor *mat2, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return product("aclnnBatchMatMul", bmm, self, "mat2", mat2, out, cubeMathType,
                 workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(BatchMatMul)

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor *self, const aclTensor *vec,
                                    aclTensor *out, int8_t cubeMathType,
                                    uint64_t *workspaceSize,
                                    aclOpExecutor **executor) {
  return product("aclnnMv", mv, self, "vec", vec, out, cubeMathType,
                 workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Mv)

aclnnStatus aclnnAddmmGetWorkspaceSize(
    const aclTensor *self, const aclTensor *mat1, const aclTensor *mat2,
    const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return addmmOp("aclnnAddmm", "self", self, mat1, mat2, beta, alpha, "out",
                 out, cubeMathType, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Addmm)

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(
    const aclTensor *selfRef, const aclTensor *mat1, const aclTensor *mat2,
    const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  return addmmOp("aclnnInplaceAddmm", "selfRef", selfRef, mat1, mat2, beta,
                 alpha, "selfRef", selfRef, cubeMathType, workspaceSize,
                 executor);
}
MSSIM_ACLNN_PHASE2(InplaceAddmm)

} // extern "C"
