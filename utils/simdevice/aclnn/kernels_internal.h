//===- kernels_internal.h - What the kernel files share ----------*- C++
//-*-===//
//
// Contract: internals of the aclnn kernels (kernels.h), not for callers:
// typed element access, the strided walk every kernel iterates with, the
// overlap-safe output, and the pieces of the metadata checks.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACLNN_KERNELS_INTERNAL_H
#define MSSIM_ACLNN_KERNELS_INTERNAL_H

#include "kernels.h"
#include "scalar_types.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>

namespace mssim::nn::detail {

/// Message "<op>: <parts...>".
template <class... T> std::string msg(const char *op, const T &...parts) {
  std::ostringstream s;
  s << op << ": ";
  (s << ... << parts);
  return s.str();
}

std::string shapeStr(const std::vector<int64_t> &shape);

/// Float to int64 as the kernels cast: truncation, NaN 0, saturating.
inline int64_t floatToInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

/// Loads the element at p of dtype dt as C (float, double or int64_t).
template <class C> C load(aclDataType dt, const uint8_t *p) {
  auto get = [p](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  auto from = [](auto v) -> C {
    using V = decltype(v);
    if constexpr (std::is_integral_v<C> && std::is_floating_point_v<V>)
      return floatToInt64(v);
    else
      return static_cast<C>(v);
  };
  switch (dt) {
  case ACL_FLOAT:
    return from(get(0.0f));
  case ACL_DOUBLE:
    return from(get(0.0));
  case ACL_FLOAT16:
    return from(halfToFloat(get(uint16_t{})));
  case ACL_BF16:
    return from(bf16ToFloat(get(uint16_t{})));
  case ACL_INT8:
    return from(get(int8_t{}));
  case ACL_UINT8:
    return from(get(uint8_t{}));
  case ACL_INT16:
    return from(get(int16_t{}));
  case ACL_INT32:
    return from(get(int32_t{}));
  case ACL_INT64:
    return from(get(int64_t{}));
  case ACL_BOOL:
    return from(static_cast<int64_t>(get(uint8_t{}) != 0));
  default:
    return C{};
  }
}

/// Stores v (float, double or int64_t) at p as dtype dt: floats rounded to
/// nearest even, integers wrapped, bool = nonzero.
template <class C> void store(aclDataType dt, uint8_t *p, C v) {
  auto put = [p](auto x) { std::memcpy(p, &x, sizeof x); };
  auto asInt = [v]() -> int64_t {
    if constexpr (std::is_floating_point_v<C>)
      return floatToInt64(v);
    else
      return v;
  };
  switch (dt) {
  case ACL_FLOAT:
    put(static_cast<float>(v));
    break;
  case ACL_DOUBLE:
    put(static_cast<double>(v));
    break;
  case ACL_FLOAT16:
    if constexpr (std::is_same_v<C, float>)
      put(floatToHalf(v));
    else
      put(doubleToHalf(static_cast<double>(v)));
    break;
  case ACL_BF16:
    if constexpr (std::is_same_v<C, float>)
      put(floatToBf16(v));
    else
      put(doubleToBf16(static_cast<double>(v)));
    break;
  case ACL_INT8:
    put(static_cast<int8_t>(static_cast<uint64_t>(asInt())));
    break;
  case ACL_UINT8:
    put(static_cast<uint8_t>(static_cast<uint64_t>(asInt())));
    break;
  case ACL_INT16:
    put(static_cast<int16_t>(static_cast<uint64_t>(asInt())));
    break;
  case ACL_INT32:
    put(static_cast<int32_t>(static_cast<uint64_t>(asInt())));
    break;
  case ACL_INT64:
    put(asInt());
    break;
  case ACL_BOOL:
    put(static_cast<uint8_t>(v != C{} ? 1 : 0));
    break;
  default:
    break;
  }
}

/// v as dtype dt holds it (rounded or wrapped), back in C.
template <class C> C roundTo(aclDataType dt, C v) {
  uint8_t buf[8];
  store<C>(dt, buf, v);
  return load<C>(dt, buf);
}

/// Calls f with a value of the compute type of dt: float for float, float16
/// and bfloat16, double for double, int64_t for the integers and bool.
template <class F> auto withDomain(aclDataType dt, F &&f) {
  if (dt == ACL_DOUBLE)
    return f(double{});
  if (isFloatingDtype(dt))
    return f(float{});
  return f(int64_t{});
}

inline uint8_t *at(const TensorView &v, int64_t offset) {
  return v.base + offset * static_cast<int64_t>(dtypeSize(v.dtype));
}

/// Scalar s in compute type C.
template <class C> C scalarAs(const Scalar &s) {
  if constexpr (std::is_floating_point_v<C>)
    return static_cast<C>(s.toDouble());
  else
    return isFloatingDtype(s.dtype) ? floatToInt64(s.f) : s.i;
}

/// Strides of v read as a tensor of `shape` (v broadcast to it: right
/// aligned, size-1 and missing dims stride 0).
std::vector<int64_t> expandStrides(const TensorView &v,
                                   const std::vector<int64_t> &shape);

/// Calls f(offsets) for every index of `shape` in row-major order, with
/// offsets[k] = start[k] + sum(index[d] * strides[k][d]).
template <class F>
void walk(const std::vector<int64_t> &shape,
          const std::vector<std::vector<int64_t>> &strides,
          const std::vector<int64_t> &start, F &&f) {
  int64_t n = numel(shape);
  if (n == 0)
    return;
  size_t nd = shape.size(), k = start.size();
  std::vector<int64_t> idx(nd, 0), off = start;
  for (int64_t i = 0; i < n; ++i) {
    f(static_cast<const int64_t *>(off.data()));
    for (size_t d = nd; d-- > 0;) {
      ++idx[d];
      for (size_t j = 0; j < k; ++j)
        off[j] += strides[j][d];
      if (idx[d] < shape[d])
        break;
      for (size_t j = 0; j < k; ++j)
        off[j] -= strides[j][d] * shape[d];
      idx[d] = 0;
    }
  }
}

/// Whether the bytes two views touch may overlap (same storage).
bool mayOverlap(const TensorView &a, const TensorView &b);

/// A contiguous copy of v (same dtype) owned by `buffer`.
TensorView materialize(const TensorView &v, std::vector<uint8_t> *buffer);

/// dst = src (src broadcast to dst's shape), converting; no overlap check.
void copyRaw(const TensorView &dst, const TensorView &src);

/// The view an operator writes: `out` itself, or a contiguous temporary when
/// out overlaps one of the inputs; finish() copies the temporary to out.
class OutputView {
public:
  OutputView(const TensorView &out,
             std::initializer_list<const TensorView *> inputs);
  OutputView(const TensorView &out, const std::vector<TensorView> &inputs);
  const TensorView &view() const { return Temp ? TempView : Out; }
  void finish();

private:
  void setUp(bool overlap);
  TensorView Out, TempView;
  std::vector<uint8_t> Buffer;
  bool Temp = false;
};

/// Normalises dim into [0, ndim) as torch.maybe_wrap_dim (a 0-d tensor
/// takes 0 and -1); a message on failure.
std::string wrapDim(const char *op, int64_t dim, int64_t ndim, int64_t *out);
/// A message unless view has exactly `shape`.
std::string expectShape(const char *op, const char *what, const TensorView &v,
                        const std::vector<int64_t> &shape);

} // namespace mssim::nn::detail

#endif // MSSIM_ACLNN_KERNELS_INTERNAL_H
