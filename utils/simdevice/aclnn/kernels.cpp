//===- kernels.cpp - Dtypes, views, copies of the aclnn kernels -----------===//
//
// The shared machinery of kernels.h (dtype promotion, view validation, the
// overlap-safe output) and the copying operators: cast, copy, fill, zero.
//
//===----------------------------------------------------------------------===//
#include "kernels_internal.h"

#include <algorithm>

namespace mssim::nn {

using namespace detail;

Scalar Scalar::ofDouble(double v, aclDataType dtype) {
  Scalar s;
  s.dtype = dtype;
  s.f = v;
  s.i = floatToInt64(v);
  return s;
}

Scalar Scalar::ofInt(int64_t v, aclDataType dtype) {
  Scalar s;
  s.dtype = dtype;
  s.i = v;
  s.f = static_cast<double>(v);
  return s;
}

Scalar Scalar::ofBool(bool v) { return ofInt(v ? 1 : 0, ACL_BOOL); }

Scalar Scalar::fromBytes(const void *value, aclDataType dtype) {
  const auto *p = static_cast<const uint8_t *>(value);
  if (!p || !isSupportedDtype(dtype))
    return Scalar{};
  if (isFloatingDtype(dtype))
    return ofDouble(load<double>(dtype, p), dtype);
  return ofInt(load<int64_t>(dtype, p), dtype);
}

double Scalar::toDouble() const {
  return isFloatingDtype(dtype) ? f : static_cast<double>(i);
}

int64_t Scalar::toInt() const {
  return isFloatingDtype(dtype) ? floatToInt64(f) : i;
}

size_t dtypeSize(aclDataType dtype) {
  switch (dtype) {
  case ACL_INT8:
  case ACL_UINT8:
  case ACL_BOOL:
    return 1;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
    return 2;
  case ACL_FLOAT:
  case ACL_INT32:
    return 4;
  case ACL_DOUBLE:
  case ACL_INT64:
    return 8;
  default:
    return 0;
  }
}

bool isSupportedDtype(aclDataType dtype) { return dtypeSize(dtype) != 0; }

bool isFloatingDtype(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 ||
         dtype == ACL_DOUBLE;
}

const char *dtypeName(aclDataType dtype) {
  switch (dtype) {
  case ACL_FLOAT:
    return "Float";
  case ACL_FLOAT16:
    return "Half";
  case ACL_BF16:
    return "BFloat16";
  case ACL_DOUBLE:
    return "Double";
  case ACL_INT8:
    return "Char";
  case ACL_UINT8:
    return "Byte";
  case ACL_INT16:
    return "Short";
  case ACL_INT32:
    return "Int";
  case ACL_INT64:
    return "Long";
  case ACL_BOOL:
    return "Bool";
  default:
    return "unsupported";
  }
}

namespace {
int category(aclDataType dt) {
  return dt == ACL_BOOL ? 0 : isFloatingDtype(dt) ? 2 : 1;
}
} // namespace

aclDataType promoteTypes(aclDataType a, aclDataType b) {
  if (a == b)
    return a;
  if (a == ACL_BOOL)
    return b;
  if (b == ACL_BOOL)
    return a;
  int ca = category(a), cb = category(b);
  if (ca != cb)
    return ca > cb ? a : b;
  if (ca == 2) {
    if (a == ACL_DOUBLE || b == ACL_DOUBLE)
      return ACL_DOUBLE;
    return ACL_FLOAT; // float with half / bf16, or half with bf16
  }
  // Integers.
  if (a == ACL_UINT8 || b == ACL_UINT8) {
    aclDataType other = a == ACL_UINT8 ? b : a;
    return other == ACL_INT8 ? ACL_INT16 : other;
  }
  return dtypeSize(a) >= dtypeSize(b) ? a : b;
}

aclDataType promoteWithScalar(aclDataType tensor, aclDataType scalar) {
  int ct = category(tensor), cs = category(scalar);
  if (cs <= ct)
    return tensor;
  return cs == 2 ? ACL_FLOAT : ACL_INT64;
}

bool canCast(aclDataType from, aclDataType to) {
  if (isFloatingDtype(from) && !isFloatingDtype(to))
    return false;
  if (from != ACL_BOOL && to == ACL_BOOL)
    return false;
  return true;
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = s;
    s *= std::max<int64_t>(shape[d], 1);
  }
  return strides;
}

TensorView contiguousView(aclDataType dtype, const std::vector<int64_t> &shape,
                          void *base) {
  TensorView v;
  v.dtype = dtype;
  v.shape = shape;
  v.strides = contiguousStrides(shape);
  v.base = static_cast<uint8_t *>(base);
  v.storageBytes = static_cast<uint64_t>(numel(shape)) * dtypeSize(dtype);
  return v;
}

int64_t numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool broadcastShapes(const std::vector<int64_t> &a,
                     const std::vector<int64_t> &b, std::vector<int64_t> *out) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> r(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return false;
    r[n - 1 - i] = da == 1 ? db : da;
  }
  *out = std::move(r);
  return true;
}

std::string checkView(const TensorView &v, const char *what, Mode mode) {
  if (!isSupportedDtype(v.dtype))
    return msg(what, "unsupported dtype ", static_cast<int>(v.dtype));
  if (v.strides.size() != v.shape.size())
    return msg(what, v.shape.size(), " dims but ", v.strides.size(),
               " strides");
  if (v.shape.size() > 64)
    return msg(what, "more than 64 dims");
  if (v.offset < 0)
    return msg(what, "negative offset ", v.offset);
  int64_t n = 1;
  bool empty = false;
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] < 0)
      return msg(what, "negative size ", v.shape[d], " of dim ", d);
    if (v.strides[d] < 0)
      return msg(what, "negative stride ", v.strides[d], " of dim ", d);
    if (v.shape[d] == 0)
      empty = true;
    else if (__builtin_mul_overflow(n, v.shape[d], &n))
      return msg(what, "too many elements");
  }
  if (empty)
    return {};
  int64_t last = v.offset;
  for (size_t d = 0; d < v.shape.size(); ++d) {
    int64_t step;
    if (__builtin_mul_overflow(v.shape[d] - 1, v.strides[d], &step) ||
        __builtin_add_overflow(last, step, &last))
      return msg(what, "view beyond any storage");
  }
  int64_t bytes;
  if (__builtin_add_overflow(last, 1, &bytes) ||
      __builtin_mul_overflow(bytes, static_cast<int64_t>(dtypeSize(v.dtype)),
                             &bytes) ||
      static_cast<uint64_t>(bytes) > v.storageBytes)
    return msg(what, "view ", shapeStr(v.shape), " at offset ", v.offset,
               " needs element ", last, " beyond its storage of ",
               v.storageBytes, " bytes");
  if (mode == Mode::Run && !v.base)
    return msg(what, "no storage (null base)");
  return {};
}

namespace detail {

std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::vector<int64_t> expandStrides(const TensorView &v,
                                   const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 0);
  size_t vd = v.shape.size();
  for (size_t i = 0; i < vd && i < shape.size(); ++i) {
    size_t d = shape.size() - 1 - i, e = vd - 1 - i;
    s[d] = v.shape[e] == 1 ? 0 : v.strides[e];
  }
  return s;
}

namespace {
// The byte range [first, last) a view touches; false when it touches none.
bool byteRange(const TensorView &v, uintptr_t *first, uintptr_t *last) {
  if (!v.base || numel(v.shape) == 0)
    return false;
  int64_t hi = v.offset;
  for (size_t d = 0; d < v.shape.size(); ++d)
    hi += (v.shape[d] - 1) * v.strides[d];
  auto es = static_cast<uintptr_t>(dtypeSize(v.dtype));
  *first = reinterpret_cast<uintptr_t>(v.base) +
           static_cast<uintptr_t>(v.offset) * es;
  *last = reinterpret_cast<uintptr_t>(v.base) +
          (static_cast<uintptr_t>(hi) + 1) * es;
  return true;
}
} // namespace

bool mayOverlap(const TensorView &a, const TensorView &b) {
  uintptr_t a0, a1, b0, b1;
  if (!byteRange(a, &a0, &a1) || !byteRange(b, &b0, &b1))
    return false;
  return a0 < b1 && b0 < a1;
}

void copyRaw(const TensorView &dst, const TensorView &src) {
  std::vector<std::vector<int64_t>> strides = {dst.strides,
                                               expandStrides(src, dst.shape)};
  bool integral = !isFloatingDtype(dst.dtype) && !isFloatingDtype(src.dtype);
  auto run = [&](auto zero) {
    using C = decltype(zero);
    walk(dst.shape, strides, {dst.offset, src.offset}, [&](const int64_t *off) {
      store<C>(dst.dtype, at(dst, off[0]), load<C>(src.dtype, at(src, off[1])));
    });
  };
  if (integral)
    run(int64_t{});
  else
    run(double{});
}

TensorView materialize(const TensorView &v, std::vector<uint8_t> *buffer) {
  buffer->assign(static_cast<size_t>(numel(v.shape)) * dtypeSize(v.dtype) + 1,
                 0);
  TensorView t = contiguousView(v.dtype, v.shape, buffer->data());
  copyRaw(t, v);
  return t;
}

OutputView::OutputView(const TensorView &out,
                       std::initializer_list<const TensorView *> inputs)
    : Out(out) {
  bool overlap = false;
  for (const TensorView *in : inputs)
    if (in && mayOverlap(out, *in))
      overlap = true;
  setUp(overlap);
}

OutputView::OutputView(const TensorView &out,
                       const std::vector<TensorView> &inputs)
    : Out(out) {
  bool overlap = false;
  for (const TensorView &in : inputs)
    if (mayOverlap(out, in))
      overlap = true;
  setUp(overlap);
}

void OutputView::setUp(bool overlap) {
  Temp = overlap;
  if (!Temp)
    return;
  Buffer.assign(
      static_cast<size_t>(numel(Out.shape)) * dtypeSize(Out.dtype) + 1, 0);
  TempView = contiguousView(Out.dtype, Out.shape, Buffer.data());
  // Elements an operator leaves alone (scatter's) keep out's values.
  copyRaw(TempView, Out);
}

void OutputView::finish() {
  if (Temp)
    copyRaw(Out, TempView);
  Temp = false;
}

std::string wrapDim(const char *op, int64_t dim, int64_t ndim, int64_t *out) {
  int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n)
    return msg(op, "dim ", dim, " out of range for a tensor of ", ndim,
               " dims");
  *out = dim < 0 ? dim + n : dim;
  return {};
}

std::string expectShape(const char *op, const char *what, const TensorView &v,
                        const std::vector<int64_t> &shape) {
  if (v.shape != shape)
    return msg(op, what, " has shape ", shapeStr(v.shape), ", expected ",
               shapeStr(shape));
  return {};
}

} // namespace detail

//===-- Copies ------------------------------------------------------------===//

std::string cast(Mode mode, const TensorView &self, const TensorView &out) {
  std::string e;
  if (!(e = checkView(self, "cast: self", mode)).empty() ||
      !(e = checkView(out, "cast: out", mode)).empty() ||
      !(e = expectShape("cast", "out", out, self.shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView o(out, {&self});
  copyRaw(o.view(), self);
  o.finish();
  return {};
}

std::string copy(Mode mode, const TensorView &dst, const TensorView &src) {
  std::string e;
  if (!(e = checkView(dst, "copy: dst", mode)).empty() ||
      !(e = checkView(src, "copy: src", mode)).empty())
    return e;
  std::vector<int64_t> b;
  if (!broadcastShapes(dst.shape, src.shape, &b) || b != dst.shape)
    return msg("copy", "src of shape ", shapeStr(src.shape),
               " does not broadcast to dst's ", shapeStr(dst.shape));
  if (mode == Mode::Check)
    return {};
  OutputView o(dst, {&src});
  copyRaw(o.view(), src);
  o.finish();
  return {};
}

namespace {
void fillRaw(const TensorView &t, const Scalar &value) {
  std::vector<std::vector<int64_t>> strides = {t.strides};
  if (isFloatingDtype(t.dtype)) {
    double v = value.toDouble();
    walk(t.shape, strides, {t.offset},
         [&](const int64_t *off) { store<double>(t.dtype, at(t, off[0]), v); });
  } else {
    int64_t v = value.toInt();
    if (t.dtype == ACL_BOOL && isFloatingDtype(value.dtype))
      v = value.f != 0; // 0.5 is true
    walk(t.shape, strides, {t.offset}, [&](const int64_t *off) {
      store<int64_t>(t.dtype, at(t, off[0]), v);
    });
  }
}
} // namespace

std::string fill(Mode mode, const TensorView &self, const Scalar &value) {
  std::string e = checkView(self, "fill: self", mode);
  if (!e.empty())
    return e;
  if (!isSupportedDtype(value.dtype))
    return msg("fill", "unsupported scalar dtype ",
               static_cast<int>(value.dtype));
  if (mode == Mode::Run)
    fillRaw(self, value);
  return {};
}

std::string zero(Mode mode, const TensorView &self) {
  return fill(mode, self, Scalar::ofInt(0));
}

std::string maskedFill(Mode mode, const TensorView &self,
                       const TensorView &mask, const Scalar &value) {
  std::string e;
  if (!(e = checkView(self, "masked_fill: self", mode)).empty() ||
      !(e = checkView(mask, "masked_fill: mask", mode)).empty())
    return e;
  if (mask.dtype != ACL_BOOL && mask.dtype != ACL_UINT8)
    return msg("masked_fill", "mask of dtype ", dtypeName(mask.dtype),
               ", expected Bool");
  if (!isSupportedDtype(value.dtype))
    return msg("masked_fill", "unsupported scalar dtype ",
               static_cast<int>(value.dtype));
  std::vector<int64_t> b;
  if (!broadcastShapes(self.shape, mask.shape, &b) || b != self.shape)
    return msg("masked_fill", "mask of shape ", shapeStr(mask.shape),
               " does not broadcast to self's ", shapeStr(self.shape));
  if (mode == Mode::Check)
    return {};
  std::vector<uint8_t> buffer;
  TensorView m = mayOverlap(self, mask) ? materialize(mask, &buffer) : mask;
  // The value as self's dtype holds it, once.
  uint8_t cell[8] = {};
  TensorView one = contiguousView(self.dtype, {}, cell);
  fillRaw(one, value);
  size_t es = dtypeSize(self.dtype);
  walk(self.shape, {self.strides, expandStrides(m, self.shape)},
       {self.offset, m.offset}, [&](const int64_t *off) {
         if (*at(m, off[1]))
           std::memcpy(at(self, off[0]), cell, es);
       });
  return {};
}

} // namespace mssim::nn
