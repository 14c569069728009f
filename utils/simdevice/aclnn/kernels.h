//===- kernels.h - Host compute kernels behind the aclnn operators -*- C++
//-*-===//
//
// Contract: the computations of the simulated aclnn operators (CANN's
// operator API), done on the host over the device's shadow memory. aclnn
// follows PyTorch's semantics, and so does every kernel here: each names the
// torch function whose semantics it has.
//
// Tensors are views of storage (TensorView): a dtype (aclDataType codes of
// acl/acl_base.h), a shape, strides in elements (any non-negative values: a
// transposed, sliced or broadcast-expanded view with stride 0), an offset in
// elements, and the storage: its host address (base) and size in bytes. The
// dtypes supported are ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
// ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8 and ACL_BOOL.
//
// Two phases, as aclnn's: every operator takes a Mode.
//  - Mode::Check validates the metadata only (dtypes, ranks, shapes,
//    broadcasting, the output's shape and dtype, that every view fits its
//    storage); bases may be null. It returns an error message, empty when
//    the call is valid: aclnn's first phase turns a message into
//    ACLNN_ERR_PARAM_INVALID.
//  - Mode::Run does the same checks, then computes: it reads the inputs and
//    writes the output views (which may be non-contiguous). Every view with
//    elements needs a base. Nothing is read or written outside the views.
//    Inputs and outputs may overlap (aclnnInplaceAdd passes self as out):
//    the result is as if all inputs were read before any output is written.
//    Run may also fail on data (integer division by zero, an index out of
//    range), with a message and the outputs unspecified.
//
// Arithmetic: floating dtypes compute in float (double for ACL_DOUBLE) and
// are stored rounded to nearest even (scalar_types.h); integers compute in
// int64 and wrap when stored, as torch's do. Binary operators promote as
// torch.result_type: bool < integers < floating; uint8 with int8 gives
// int16; float16 with bfloat16 gives float32; a Scalar only raises the
// category (an int tensor and a floating Scalar give float32, an int8 tensor
// and an integer Scalar stay int8). The result is computed in the promoted
// dtype, then cast to the out tensor's dtype, which must be castable from it
// as torch.can_cast says (no floating to integral, no non-bool to bool).
// Float to integer casts truncate toward zero (NaN gives 0, saturating to
// int64 before wrapping).
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACLNN_KERNELS_H
#define MSSIM_ACLNN_KERNELS_H

#include "acl/acl_base.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mssim::nn {

/// A tensor: a view of storage.
struct TensorView {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> shape;   // view dims (empty: a 0-d scalar tensor)
  std::vector<int64_t> strides; // in elements, one per dim, >= 0
  int64_t offset = 0;           // in elements, from base
  uint8_t *base = nullptr;      // host memory of the storage (null: Check)
  uint64_t storageBytes = 0;    // bytes of storage at base
};

/// An aclScalar: a value and its dtype. Floating dtypes keep the value in
/// `f`, integral dtypes and bool (0 or 1) in `i`.
struct Scalar {
  aclDataType dtype = ACL_DOUBLE;
  double f = 0;
  int64_t i = 0;

  static Scalar ofDouble(double v, aclDataType dtype = ACL_DOUBLE);
  static Scalar ofInt(int64_t v, aclDataType dtype = ACL_INT64);
  static Scalar ofBool(bool v);
  /// The value aclCreateScalar(value, dtype) points at (any supported dtype).
  static Scalar fromBytes(const void *value, aclDataType dtype);
  double toDouble() const;
  int64_t toInt() const;
};

enum class Mode { Check, Run };

//===-- Helpers -----------------------------------------------------------===//

/// Bytes of one element of `dtype`; 0 for an unsupported dtype.
size_t dtypeSize(aclDataType dtype);
/// Whether the kernels take `dtype`.
bool isSupportedDtype(aclDataType dtype);
bool isFloatingDtype(aclDataType dtype);
/// Its name as torch spells it ("Float", "Half", "BFloat16", "Long", ...).
const char *dtypeName(aclDataType dtype);
/// torch.promote_types for two supported dtypes.
aclDataType promoteTypes(aclDataType a, aclDataType b);
/// torch.result_type(tensor, scalar): the scalar raises only the category.
aclDataType promoteWithScalar(aclDataType tensor, aclDataType scalar);
/// torch.can_cast(from, to).
bool canCast(aclDataType from, aclDataType to);
/// Row-major strides of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);
/// A contiguous view of `shape` at `base` (storageBytes: exactly its size).
TensorView contiguousView(aclDataType dtype, const std::vector<int64_t> &shape,
                          void *base);
/// Product of the dims (1 for a 0-d tensor).
int64_t numel(const std::vector<int64_t> &shape);
/// The torch broadcast of two shapes; false if they do not broadcast.
bool broadcastShapes(const std::vector<int64_t> &a,
                     const std::vector<int64_t> &b, std::vector<int64_t> *out);
/// Validates one view: supported dtype, dims >= 0, one stride >= 0 per dim,
/// offset >= 0, offset + the largest index inside storageBytes, and a base
/// in Run mode when it has elements. `what` names it in the message.
std::string checkView(const TensorView &view, const char *what, Mode mode);

//===-- Element-wise ------------------------------------------------------===//

enum class BinaryOp {
  Add,       // torch.add(self, other, alpha): self + alpha * other
  Sub,       // torch.sub(self, other, alpha): self - alpha * other
  Mul,       // torch.mul
  Div,       // torch.div: true division, integers give float32
  DivTrunc,  // torch.div(rounding_mode="trunc")
  DivFloor,  // torch.div(rounding_mode="floor") == torch.floor_divide
  Pow,       // torch.pow
  Maximum,   // torch.maximum (NaN propagates)
  Minimum,   // torch.minimum (NaN propagates)
  Remainder, // torch.remainder: sign of the divisor (Python's %)
  Fmod,      // torch.fmod: sign of the dividend (C fmod)
};

/// out = op(self, other), broadcast. `alpha` (Add, Sub only; null: 1) must
/// not be floating for integral operands, as torch says.
std::string binary(Mode mode, BinaryOp op, const TensorView &self,
                   const TensorView &other, const TensorView &out,
                   const Scalar *alpha = nullptr);
/// out = op(self, other) with a Scalar other (aclnnAdds, aclnnMuls, ...).
std::string binaryScalar(Mode mode, BinaryOp op, const TensorView &self,
                         const Scalar &other, const TensorView &out,
                         const Scalar *alpha = nullptr);
/// out = op(self, other) with a Scalar self (aclnnPowScalarTensor, rsub).
std::string scalarBinary(Mode mode, BinaryOp op, const Scalar &self,
                         const TensorView &other, const TensorView &out,
                         const Scalar *alpha = nullptr);

/// Abs, Neg, Sign, Floor, Ceil, Round (torch.round: half to even) and Relu
/// keep the dtype (floor, ceil, round are the identity on integers); Exp to
/// Reciprocal give float32 for integral or bool input; Gelu, GeluTanh and
/// Silu take floating input only. Neg refuses bool, as torch does.
enum class UnaryOp {
  Abs,
  Neg,
  Sign,
  Floor,
  Ceil,
  Round,
  Relu,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Tanh,
  Sigmoid,
  Erf,
  Reciprocal,
  Gelu,     // torch.nn.functional.gelu, erf form
  GeluTanh, // gelu(approximate="tanh")
  Silu,     // x * sigmoid(x)
};

/// out = op(self), out of self's shape.
std::string unary(Mode mode, UnaryOp op, const TensorView &self,
                  const TensorView &out);

enum class CompareOp { Eq, Ne, Gt, Ge, Lt, Le };

/// torch.eq / ne / gt / ge / lt / le, broadcast, compared in the promoted
/// dtype; out of any dtype holds 1 / 0.
std::string compare(Mode mode, CompareOp op, const TensorView &self,
                    const TensorView &other, const TensorView &out);
std::string compareScalar(Mode mode, CompareOp op, const TensorView &self,
                          const Scalar &other, const TensorView &out);

enum class LogicalOp { And, Or, Xor };

/// torch.logical_and / or / xor: nonzero is true; out of any dtype.
std::string logical(Mode mode, LogicalOp op, const TensorView &self,
                    const TensorView &other, const TensorView &out);
/// torch.logical_not.
std::string logicalNot(Mode mode, const TensorView &self,
                       const TensorView &out);

/// aclnnCast: out (same shape) = self converted to out.dtype, any dtype to any.
std::string cast(Mode mode, const TensorView &self, const TensorView &out);
/// aclnnInplaceCopy / torch.Tensor.copy_: dst = src, src broadcast to dst's
/// shape, converted to dst's dtype (any to any). Contiguous copies too.
std::string copy(Mode mode, const TensorView &dst, const TensorView &src);
/// torch.where(condition, self, other): condition bool (or uint8), all
/// three broadcast; the values promote.
std::string where(Mode mode, const TensorView &condition,
                  const TensorView &self, const TensorView &other,
                  const TensorView &out);
/// torch.Tensor.masked_fill_(mask, value): in place; mask bool (or uint8),
/// broadcastable to self.
std::string maskedFill(Mode mode, const TensorView &self,
                       const TensorView &mask, const Scalar &value);
/// torch.Tensor.fill_(value), in place (aclnnInplaceFillScalar).
std::string fill(Mode mode, const TensorView &self, const Scalar &value);
/// torch.Tensor.zero_ (aclnnInplaceZero).
std::string zero(Mode mode, const TensorView &self);

//===-- Reductions, normalisation -----------------------------------------===//

/// torch.sum(self, dims, keepdim, dtype=out.dtype): an empty `dims` reduces
/// all; self's dtype must be castable to out's; accumulated in double
/// (int64 for integral out).
std::string sum(Mode mode, const TensorView &self,
                const std::vector<int64_t> &dims, bool keepdim,
                const TensorView &out);
/// torch.mean(self, dims, keepdim, dtype=out.dtype): out floating.
std::string mean(Mode mode, const TensorView &self,
                 const std::vector<int64_t> &dims, bool keepdim,
                 const TensorView &out);
/// torch.amax / torch.amin(self, dims, keepdim): an empty `dims` reduces
/// all; out of self's dtype; NaN propagates.
std::string amax(Mode mode, const TensorView &self,
                 const std::vector<int64_t> &dims, bool keepdim,
                 const TensorView &out);
std::string amin(Mode mode, const TensorView &self,
                 const std::vector<int64_t> &dims, bool keepdim,
                 const TensorView &out);
/// torch.max / torch.min(self, dim, keepdim) -> (values, indices): values
/// of self's dtype, indices int64 (or int32), the first extreme (NaN wins).
std::string maxDim(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &values, const TensorView &indices);
std::string minDim(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &values, const TensorView &indices);
/// torch.argmax / torch.argmin(self, dim, keepdim): out int64 (or int32).
std::string argmax(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &out);
std::string argmin(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &out);
/// torch.softmax / torch.log_softmax(self, dim): floating self and out, out
/// of self's shape.
std::string softmax(Mode mode, const TensorView &self, int64_t dim,
                    const TensorView &out);
std::string logSoftmax(Mode mode, const TensorView &self, int64_t dim,
                       const TensorView &out);
/// aclnnLayerNorm / torch.native_layer_norm: normalises over the last
/// normalizedShape.size() dims (which must equal normalizedShape);
/// weight and bias (optional) of normalizedShape; out of input's shape; mean
/// and rstd (optional) of input's leading dims followed by ones.
std::string layerNorm(Mode mode, const TensorView &input,
                      const std::vector<int64_t> &normalizedShape,
                      const TensorView *weight, const TensorView *bias,
                      double eps, const TensorView &out,
                      const TensorView *meanOut, const TensorView *rstdOut);
/// aclnnRmsNorm: y = x / sqrt(mean(x^2) + eps) * gamma over gamma's dims
/// (x's trailing dims); rstd (optional) of x's leading dims followed by ones.
std::string rmsNorm(Mode mode, const TensorView &x, const TensorView &gamma,
                    double eps, const TensorView &y, const TensorView *rstdOut);
/// aclnnGroupNorm / torch.native_group_norm: input (N, C, *) with
/// HxW = prod(*), C divisible by group; weight, bias (optional) of (C);
/// out of input's shape; mean, rstd (optional) of (N, group).
std::string groupNorm(Mode mode, const TensorView &input,
                      const TensorView *weight, const TensorView *bias,
                      int64_t n, int64_t c, int64_t hxw, int64_t group,
                      double eps, const TensorView &out,
                      const TensorView *meanOut, const TensorView *rstdOut);

//===-- Matrix products ---------------------------------------------------===//
// Operands of one dtype (not bool); floating ones accumulate in float
// (double for ACL_DOUBLE), integral in int64. out's dtype: castable from it.

/// torch.mm: (n, k) @ (k, m) -> (n, m).
std::string mm(Mode mode, const TensorView &self, const TensorView &mat2,
               const TensorView &out);
/// torch.bmm: (b, n, k) @ (b, k, m) -> (b, n, m).
std::string bmm(Mode mode, const TensorView &self, const TensorView &mat2,
                const TensorView &out);
/// torch.mv: (n, k) @ (k) -> (n).
std::string mv(Mode mode, const TensorView &self, const TensorView &vec,
               const TensorView &out);
/// torch.matmul: 1-D dot, 2-D mm, 1-D operands promoted to matrices and
/// the added dim removed, batch dims broadcast.
std::string matmul(Mode mode, const TensorView &self, const TensorView &other,
                   const TensorView &out);
/// torch.addmm: out = beta * self + alpha * (mat1 @ mat2), self broadcast
/// to (n, m).
std::string addmm(Mode mode, const TensorView &self, const TensorView &mat1,
                  const TensorView &mat2, const Scalar &beta,
                  const Scalar &alpha, const TensorView &out);

//===-- Shapes and indexing -----------------------------------------------===//

/// torch.permute(self, dims) materialised into out (of the permuted shape).
std::string permute(Mode mode, const TensorView &self,
                    const std::vector<int64_t> &dims, const TensorView &out);
/// torch.cat(tensors, dim): the dtypes promote; shapes equal but along dim.
std::string cat(Mode mode, const std::vector<TensorView> &tensors, int64_t dim,
                const TensorView &out);
/// torch.split(self, splitSize, dim): chunks of splitSize, the last smaller.
std::string split(Mode mode, const TensorView &self, int64_t splitSize,
                  int64_t dim, const std::vector<TensorView> &outs);
/// torch.split(self, sizes, dim) (split_with_sizes): sizes sum to the dim.
std::string splitWithSizes(Mode mode, const TensorView &self,
                           const std::vector<int64_t> &sizes, int64_t dim,
                           const std::vector<TensorView> &outs);
/// self[start:end:step] along dim (torch.slice / narrow), copied into out:
/// negative start / end count from the end, both clamped; step > 0.
std::string slice(Mode mode, const TensorView &self, int64_t dim, int64_t start,
                  int64_t end, int64_t step, const TensorView &out);
/// torch.index_select(self, dim, index): index 1-D (or 0-d) int32 / int64.
std::string indexSelect(Mode mode, const TensorView &self, int64_t dim,
                        const TensorView &index, const TensorView &out);
/// torch.gather(self, dim, index): out of index's shape; index.size(d) <=
/// self.size(d) for d != dim.
std::string gather(Mode mode, const TensorView &self, int64_t dim,
                   const TensorView &index, const TensorView &out);

enum class ScatterReduce { None, Add, Multiply };

/// aclnnScatter / torch.scatter(self, dim, index, src, reduce): out = a copy
/// of self, then out[...index...] = (or +=, *=) src; index.size(d) <=
/// src.size(d) for all d and <= self.size(d) for d != dim.
std::string scatter(Mode mode, const TensorView &self, int64_t dim,
                    const TensorView &index, const TensorView &src,
                    ScatterReduce reduce, const TensorView &out);
/// torch.scatter(self, dim, index, value): src a Scalar.
std::string scatterValue(Mode mode, const TensorView &self, int64_t dim,
                         const TensorView &index, const Scalar &value,
                         ScatterReduce reduce, const TensorView &out);
/// torch.nn.functional.embedding(indices, weight): weight 2-D, out of
/// indices.shape + [weight.size(1)].
std::string embedding(Mode mode, const TensorView &weight,
                      const TensorView &indices, const TensorView &out);
/// torch.arange(start, end, step): out 1-D of ceil((end - start) / step)
/// elements; out[i] = start + i * step, computed in out's dtype's domain.
std::string arange(Mode mode, const Scalar &start, const Scalar &end,
                   const Scalar &step, const TensorView &out);
/// torch.Tensor.repeat(repeats): repeats.size() >= self.dim().
std::string repeat(Mode mode, const TensorView &self,
                   const std::vector<int64_t> &repeats, const TensorView &out);
/// torch.nn.functional.pad(self, pad, mode="constant", value): pad pairs
/// (before, after) from the last dim backwards; negative pads crop.
std::string constantPad(Mode mode, const TensorView &self,
                        const std::vector<int64_t> &pad, const Scalar &value,
                        const TensorView &out);

} // namespace mssim::nn

#endif // MSSIM_ACLNN_KERNELS_H
