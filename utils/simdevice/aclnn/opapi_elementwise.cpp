//===- opapi_elementwise.cpp - Element-wise operators of libopapi.so ------===//
//
// Arithmetic (aclnnAdd, aclnnMuls, aclnnPowTensorScalar, ...), unary math and
// activations, comparisons, logical operators, aclnnCast, aclnnSWhere and the
// fills, each a kernel of kernels.h launched by the standard phase 1
// (opapi.h). None asks for a workspace. The in-place forms pass their
// selfRef as both input and output.
//
//===----------------------------------------------------------------------===//
#include "opapi.h"

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_zero.h"

#include <optional>

using namespace mssim::nn;
using namespace mssim::nn::opapi;

namespace {

std::string phase1(const char *op) {
  return std::string(op) + "GetWorkspaceSize";
}

/// out = op(self, other) of two tensors, with alpha where the operator has
/// one (a required scalar: aclnnAdd, aclnnSub).
aclnnStatus tensorTensor(const char *op, BinaryOp bop, Arg self, Arg other,
                         Arg out, bool hasAlpha, const aclScalar *alpha,
                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  std::optional<Scalar> a;
  if (hasAlpha) {
    MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "alpha", alpha));
    a = scalarOf(alpha);
  }
  return launch(
      op, {self, other}, {out}, 0,
      [bop, a](Mode mode, const Views &in, const Views &outs) {
        return binary(mode, bop, in[0], in[1], outs[0], a ? &*a : nullptr);
      },
      workspaceSize, executor);
}

/// out = op(self, other) of a tensor and a scalar.
aclnnStatus tensorScalar(const char *op, BinaryOp bop, Arg self,
                         const char *otherName, const aclScalar *other, Arg out,
                         bool hasAlpha, const aclScalar *alpha,
                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), otherName, other));
  Scalar value = scalarOf(other);
  std::optional<Scalar> a;
  if (hasAlpha) {
    MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "alpha", alpha));
    a = scalarOf(alpha);
  }
  return launch(
      op, {self}, {out}, 0,
      [bop, value, a](Mode mode, const Views &in, const Views &outs) {
        return binaryScalar(mode, bop, in[0], value, outs[0],
                            a ? &*a : nullptr);
      },
      workspaceSize, executor);
}

aclnnStatus unaryOp(const char *op, UnaryOp uop, Arg self, Arg out,
                    uint64_t *workspaceSize, aclOpExecutor **executor) {
  return launch(
      op, {self}, {out}, 0,
      [uop](Mode mode, const Views &in, const Views &outs) {
        return unary(mode, uop, in[0], outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus compareTT(const char *op, CompareOp cop, Arg self, Arg other,
                      Arg out, uint64_t *workspaceSize,
                      aclOpExecutor **executor) {
  return launch(
      op, {self, other}, {out}, 0,
      [cop](Mode mode, const Views &in, const Views &outs) {
        return compare(mode, cop, in[0], in[1], outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus compareTS(const char *op, CompareOp cop, Arg self,
                      const aclScalar *other, Arg out, uint64_t *workspaceSize,
                      aclOpExecutor **executor) {
  MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "other", other));
  Scalar value = scalarOf(other);
  return launch(
      op, {self}, {out}, 0,
      [cop, value](Mode mode, const Views &in, const Views &outs) {
        return compareScalar(mode, cop, in[0], value, outs[0]);
      },
      workspaceSize, executor);
}

aclnnStatus logicalTT(const char *op, LogicalOp lop, Arg self, Arg other,
                      Arg out, uint64_t *workspaceSize,
                      aclOpExecutor **executor) {
  return launch(
      op, {self, other}, {out}, 0,
      [lop](Mode mode, const Views &in, const Views &outs) {
        return logical(mode, lop, in[0], in[1], outs[0]);
      },
      workspaceSize, executor);
}

} // namespace

// A binary operator of two tensors with alpha, its scalar form, and both
// in-place forms (selfRef of type RefT).
#define MSSIM_ALPHA_FAMILY(Name, Op, RefT)                                     \
  aclnnStatus aclnn##Name##GetWorkspaceSize(                                   \
      const aclTensor *self, const aclTensor *other, const aclScalar *alpha,   \
      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {     \
    return tensorTensor("aclnn" #Name, BinaryOp::Op, {"self", self},           \
                        {"other", other}, {"out", out}, true, alpha,           \
                        workspaceSize, executor);                              \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name)                                                     \
  aclnnStatus aclnn##Name##sGetWorkspaceSize(                                  \
      const aclTensor *self, const aclScalar *other, const aclScalar *alpha,   \
      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {     \
    return tensorScalar("aclnn" #Name "s", BinaryOp::Op, {"self", self},       \
                        "other", other, {"out", out}, true, alpha,             \
                        workspaceSize, executor);                              \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name##s)                                                  \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(                            \
      RefT *selfRef, const aclTensor *other, const aclScalar *alpha,           \
      uint64_t *workspaceSize, aclOpExecutor **executor) {                     \
    return tensorTensor("aclnnInplace" #Name, BinaryOp::Op,                    \
                        {"selfRef", selfRef}, {"other", other},                \
                        {"selfRef", selfRef}, true, alpha, workspaceSize,      \
                        executor);                                             \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name)                                            \
  aclnnStatus aclnnInplace##Name##sGetWorkspaceSize(                           \
      RefT *selfRef, const aclScalar *other, const aclScalar *alpha,           \
      uint64_t *workspaceSize, aclOpExecutor **executor) {                     \
    return tensorScalar(                                                       \
        "aclnnInplace" #Name "s", BinaryOp::Op, {"selfRef", selfRef}, "other", \
        other, {"selfRef", selfRef}, true, alpha, workspaceSize, executor);    \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name##s)

// A binary operator without alpha, its scalar form and the in-place forms.
#define MSSIM_PLAIN_FAMILY(Name, Op)                                           \
  aclnnStatus aclnn##Name##GetWorkspaceSize(                                   \
      const aclTensor *self, const aclTensor *other, aclTensor *out,           \
      uint64_t *workspaceSize, aclOpExecutor **executor) {                     \
    return tensorTensor("aclnn" #Name, BinaryOp::Op, {"self", self},           \
                        {"other", other}, {"out", out}, false, nullptr,        \
                        workspaceSize, executor);                              \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name)                                                     \
  aclnnStatus aclnn##Name##sGetWorkspaceSize(                                  \
      const aclTensor *self, const aclScalar *other, aclTensor *out,           \
      uint64_t *workspaceSize, aclOpExecutor **executor) {                     \
    return tensorScalar("aclnn" #Name "s", BinaryOp::Op, {"self", self},       \
                        "other", other, {"out", out}, false, nullptr,          \
                        workspaceSize, executor);                              \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name##s)                                                  \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(                            \
      aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,     \
      aclOpExecutor **executor) {                                              \
    return tensorTensor("aclnnInplace" #Name, BinaryOp::Op,                    \
                        {"selfRef", selfRef}, {"other", other},                \
                        {"selfRef", selfRef}, false, nullptr, workspaceSize,   \
                        executor);                                             \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name)                                            \
  aclnnStatus aclnnInplace##Name##sGetWorkspaceSize(                           \
      aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize,     \
      aclOpExecutor **executor) {                                              \
    return tensorScalar(                                                       \
        "aclnnInplace" #Name "s", BinaryOp::Op, {"selfRef", selfRef}, "other", \
        other, {"selfRef", selfRef}, false, nullptr, workspaceSize, executor); \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name##s)

// out = op(self), its parameters typed and named as its header says.
#define MSSIM_UNARY(Name, Op, SelfT, self, OutT, out)                          \
  aclnnStatus aclnn##Name##GetWorkspaceSize(SelfT *self, OutT *out,            \
                                            uint64_t *workspaceSize,           \
                                            aclOpExecutor **executor) {        \
    return unaryOp("aclnn" #Name, UnaryOp::Op, {#self, self}, {#out, out},     \
                   workspaceSize, executor);                                   \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name)

// selfRef = op(selfRef).
#define MSSIM_INPLACE_UNARY(Name, Op, RefT, ref)                               \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(                            \
      RefT *ref, uint64_t *workspaceSize, aclOpExecutor **executor) {          \
    return unaryOp("aclnnInplace" #Name, UnaryOp::Op, {#ref, ref},             \
                   {#ref, ref}, workspaceSize, executor);                      \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name)

// A comparison, of a tensor and of a scalar, each with its in-place form
// (the selfRef types of the headers).
#define MSSIM_COMPARE(Name, Op, TensorRefT, ScalarRefT)                        \
  aclnnStatus aclnn##Name##TensorGetWorkspaceSize(                             \
      const aclTensor *self, const aclTensor *other, aclTensor *out,           \
      uint64_t *workspaceSize, aclOpExecutor **executor) {                     \
    return compareTT("aclnn" #Name "Tensor", CompareOp::Op, {"self", self},    \
                     {"other", other}, {"out", out}, workspaceSize, executor); \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name##Tensor)                                             \
  aclnnStatus aclnnInplace##Name##TensorGetWorkspaceSize(                      \
      TensorRefT *selfRef, const aclTensor *other, uint64_t *workspaceSize,    \
      aclOpExecutor **executor) {                                              \
    return compareTT("aclnnInplace" #Name "Tensor", CompareOp::Op,             \
                     {"selfRef", selfRef}, {"other", other},                   \
                     {"selfRef", selfRef}, workspaceSize, executor);           \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name##Tensor)                                    \
  aclnnStatus aclnn##Name##ScalarGetWorkspaceSize(                             \
      const aclTensor *self, const aclScalar *other, aclTensor *out,           \
      uint64_t *workspaceSize, aclOpExecutor **executor) {                     \
    return compareTS("aclnn" #Name "Scalar", CompareOp::Op, {"self", self},    \
                     other, {"out", out}, workspaceSize, executor);            \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Name##Scalar)                                             \
  aclnnStatus aclnnInplace##Name##ScalarGetWorkspaceSize(                      \
      ScalarRefT *selfRef, const aclScalar *other, uint64_t *workspaceSize,    \
      aclOpExecutor **executor) {                                              \
    return compareTS("aclnnInplace" #Name "Scalar", CompareOp::Op,             \
                     {"selfRef", selfRef}, other, {"selfRef", selfRef},        \
                     workspaceSize, executor);                                 \
  }                                                                            \
  MSSIM_ACLNN_PHASE2(Inplace##Name##Scalar)

extern "C" {

//===-- Arithmetic --------------------------------------------------------===//

MSSIM_ALPHA_FAMILY(Add, Add, const aclTensor)
MSSIM_ALPHA_FAMILY(Sub, Sub, aclTensor)
MSSIM_PLAIN_FAMILY(Mul, Mul)
MSSIM_PLAIN_FAMILY(Div, Div)

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor *self,
                                                 const aclTensor *exponent,
                                                 aclTensor *out,
                                                 uint64_t *workspaceSize,
                                                 aclOpExecutor **executor) {
  return tensorTensor("aclnnPowTensorTensor", BinaryOp::Pow, {"self", self},
                      {"exponent", exponent}, {"out", out}, false, nullptr,
                      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(PowTensorTensor)

aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *exponent, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
  return tensorTensor("aclnnInplacePowTensorTensor", BinaryOp::Pow,
                      {"self", self}, {"exponent", exponent}, {"self", self},
                      false, nullptr, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplacePowTensorTensor)

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor *self,
                                                 const aclScalar *exponent,
                                                 const aclTensor *out,
                                                 uint64_t *workspaceSize,
                                                 aclOpExecutor **executor) {
  return tensorScalar("aclnnPowTensorScalar", BinaryOp::Pow, {"self", self},
                      "exponent", exponent, {"out", out}, false, nullptr,
                      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(PowTensorScalar)

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(
    const aclTensor *self, const aclScalar *exponent, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
  return tensorScalar("aclnnInplacePowTensorScalar", BinaryOp::Pow,
                      {"self", self}, "exponent", exponent, {"self", self},
                      false, nullptr, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplacePowTensorScalar)

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar *self,
                                                 const aclTensor *exponent,
                                                 const aclTensor *out,
                                                 uint64_t *workspaceSize,
                                                 aclOpExecutor **executor) {
  const char *op = "aclnnPowScalarTensor";
  MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "self", self));
  Scalar base = scalarOf(self);
  return launch(
      op, {{"exponent", exponent}}, {{"out", out}}, 0,
      [base](Mode mode, const Views &in, const Views &outs) {
        return scalarBinary(mode, BinaryOp::Pow, base, in[0], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(PowScalarTensor)

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor *self,
                                         const aclTensor *other, aclTensor *out,
                                         uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return tensorTensor("aclnnMaximum", BinaryOp::Maximum, {"self", self},
                      {"other", other}, {"out", out}, false, nullptr,
                      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Maximum)

aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor *self,
                                         const aclTensor *other, aclTensor *out,
                                         uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return tensorTensor("aclnnMinimum", BinaryOp::Minimum, {"self", self},
                      {"other", other}, {"out", out}, false, nullptr,
                      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Minimum)

//===-- Unary math and activations ----------------------------------------===//

MSSIM_UNARY(Abs, Abs, const aclTensor, self, aclTensor, out)
MSSIM_UNARY(Neg, Neg, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Neg, Neg, aclTensor, selfRef)
MSSIM_UNARY(Exp, Exp, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Exp, Exp, aclTensor, selfRef)
MSSIM_UNARY(Log, Log, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Log, Log, aclTensor, selfRef)
MSSIM_UNARY(Sqrt, Sqrt, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Sqrt, Sqrt, aclTensor, self)
MSSIM_UNARY(Rsqrt, Rsqrt, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Rsqrt, Rsqrt, aclTensor, selfRef)
MSSIM_UNARY(Sin, Sin, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Sin, Sin, aclTensor, selfRef)
MSSIM_UNARY(Cos, Cos, const aclTensor, input, aclTensor, out)
MSSIM_INPLACE_UNARY(Cos, Cos, aclTensor, inputRef)
MSSIM_UNARY(Tanh, Tanh, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Tanh, Tanh, aclTensor, selfRef)
MSSIM_UNARY(Sigmoid, Sigmoid, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Sigmoid, Sigmoid, aclTensor, selfRef)
MSSIM_UNARY(Relu, Relu, const aclTensor, self, const aclTensor, out)
MSSIM_INPLACE_UNARY(Relu, Relu, aclTensor, selfRef)
MSSIM_UNARY(Gelu, Gelu, const aclTensor, self, aclTensor, out)
MSSIM_UNARY(Silu, Silu, const aclTensor, self, aclTensor, out)
MSSIM_UNARY(Reciprocal, Reciprocal, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Reciprocal, Reciprocal, const aclTensor, selfRef)
MSSIM_UNARY(Floor, Floor, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Floor, Floor, aclTensor, selfRef)
MSSIM_UNARY(Ceil, Ceil, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Ceil, Ceil, aclTensor, selfRef)
MSSIM_UNARY(Round, Round, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Round, Round, const aclTensor, selfRef)
MSSIM_UNARY(Sign, Sign, const aclTensor, self, aclTensor, result)
MSSIM_UNARY(Erf, Erf, const aclTensor, self, aclTensor, out)
MSSIM_INPLACE_UNARY(Erf, Erf, aclTensor, selfRef)

/// aclnnGeluV2: approximate 0 is the erf form, 1 the tanh approximation.
aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x, int64_t approximate,
                                        aclTensor *y, uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  if (approximate != 0 && approximate != 1) {
    MSSIM_ACLNN_CHECK(checkTensor("aclnnGeluV2GetWorkspaceSize", "x", x));
    MSSIM_ACLNN_CHECK(checkTensor("aclnnGeluV2GetWorkspaceSize", "y", y));
    return failed(kErrParamInvalid, "aclnnGeluV2GetWorkspaceSize",
                  "approximate is " + std::to_string(approximate) +
                      ", not 0 (none) or 1 (tanh)");
  }
  return unaryOp("aclnnGeluV2", approximate ? UnaryOp::GeluTanh : UnaryOp::Gelu,
                 {"x", x}, {"y", y}, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(GeluV2)

//===-- Comparisons and logic ---------------------------------------------===//

MSSIM_COMPARE(Eq, Eq, const aclTensor, const aclTensor)
MSSIM_COMPARE(Ne, Ne, aclTensor, aclTensor)
MSSIM_COMPARE(Gt, Gt, const aclTensor, aclTensor)
MSSIM_COMPARE(Ge, Ge, aclTensor, aclTensor)
MSSIM_COMPARE(Lt, Lt, const aclTensor, const aclTensor)
MSSIM_COMPARE(Le, Le, aclTensor, aclTensor)

aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor *self,
                                            const aclTensor *other,
                                            aclTensor *out,
                                            uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return logicalTT("aclnnLogicalAnd", LogicalOp::And, {"self", self},
                   {"other", other}, {"out", out}, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(LogicalAnd)

aclnnStatus aclnnInplaceLogicalAndGetWorkspaceSize(aclTensor *selfRef,
                                                   const aclTensor *other,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return logicalTT("aclnnInplaceLogicalAnd", LogicalOp::And,
                   {"selfRef", selfRef}, {"other", other}, {"selfRef", selfRef},
                   workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceLogicalAnd)

aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor *self,
                                           const aclTensor *other,
                                           aclTensor *out,
                                           uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  return logicalTT("aclnnLogicalOr", LogicalOp::Or, {"self", self},
                   {"other", other}, {"out", out}, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(LogicalOr)

aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor *selfRef,
                                                  const aclTensor *other,
                                                  uint64_t *workspaceSize,
                                                  aclOpExecutor **executor) {
  return logicalTT("aclnnInplaceLogicalOr", LogicalOp::Or, {"selfRef", selfRef},
                   {"other", other}, {"selfRef", selfRef}, workspaceSize,
                   executor);
}
MSSIM_ACLNN_PHASE2(InplaceLogicalOr)

aclnnStatus aclnnLogicalXorGetWorkspaceSize(const aclTensor *self,
                                            const aclTensor *other,
                                            aclTensor *out,
                                            uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return logicalTT("aclnnLogicalXor", LogicalOp::Xor, {"self", self},
                   {"other", other}, {"out", out}, workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(LogicalXor)

aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor *self,
                                            aclTensor *out,
                                            uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return launch(
      "aclnnLogicalNot", {{"self", self}}, {{"out", out}}, 0,
      [](Mode mode, const Views &in, const Views &outs) {
        return logicalNot(mode, in[0], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(LogicalNot)

aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(aclTensor *selfRef,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return launch(
      "aclnnInplaceLogicalNot", {{"selfRef", selfRef}}, {{"selfRef", selfRef}},
      0,
      [](Mode mode, const Views &in, const Views &outs) {
        return logicalNot(mode, in[0], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceLogicalNot)

//===-- Conversion, selection, fills --------------------------------------===//

/// aclnnCast: out must be of `dtype`.
aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self,
                                      const aclDataType dtype, aclTensor *out,
                                      uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return launch(
      "aclnnCast", {{"self", self}}, {{"out", out}}, 0,
      [dtype](Mode mode, const Views &in, const Views &outs) -> std::string {
        if (outs[0].dtype != dtype)
          return std::string("out is of ") + dtypeName(outs[0].dtype) +
                 ", not of dtype " + dtypeName(dtype);
        return cast(mode, in[0], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(Cast)

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition,
                                        const aclTensor *self,
                                        const aclTensor *other, aclTensor *out,
                                        uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  return launch(
      "aclnnSWhere",
      {{"condition", condition}, {"self", self}, {"other", other}},
      {{"out", out}}, 0,
      [](Mode mode, const Views &in, const Views &outs) {
        return where(mode, in[0], in[1], in[2], outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(SWhere)

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *mask, const aclScalar *value,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *op = "aclnnInplaceMaskedFillScalar";
  MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "value", value));
  Scalar v = scalarOf(value);
  return launch(
      op, {{"mask", mask}}, {{"selfRef", selfRef}}, 0,
      [v](Mode mode, const Views &in, const Views &outs) {
        return maskedFill(mode, outs[0], in[0], v);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceMaskedFillScalar)

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef,
                                                   const aclScalar *value,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  const char *op = "aclnnInplaceFillScalar";
  MSSIM_ACLNN_CHECK(checkScalarValue(phase1(op).c_str(), "value", value));
  Scalar v = scalarOf(value);
  return launch(
      op, {}, {{"selfRef", selfRef}}, 0,
      [v](Mode mode, const Views &, const Views &outs) {
        return fill(mode, outs[0], v);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceFillScalar)

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor *selfRef,
                                             uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return launch(
      "aclnnInplaceZero", {}, {{"selfRef", selfRef}}, 0,
      [](Mode mode, const Views &, const Views &outs) {
        return zero(mode, outs[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceZero)

/// aclnnInplaceCopy: selfRef = src, broadcast and converted.
aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef,
                                             const aclTensor *src,
                                             uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return launch(
      "aclnnInplaceCopy", {{"src", src}}, {{"selfRef", selfRef}}, 0,
      [](Mode mode, const Views &in, const Views &outs) {
        return copy(mode, outs[0], in[0]);
      },
      workspaceSize, executor);
}
MSSIM_ACLNN_PHASE2(InplaceCopy)

} // extern "C"
