//===- kernels_linalg.cpp - Matrix products -------------------------------===//
//
// mm, bmm, mv, matmul, addmm (kernels.h): one batched product over views.
//
//===----------------------------------------------------------------------===//
#include "kernels_internal.h"

#include <algorithm>

namespace mssim::nn {

using namespace detail;

namespace {

// Operands of a batched product: a (batch..., n, k), b (batch..., k, m),
// out (batch..., n, m) as views (batch dims expanded with stride 0).
struct Product {
  std::vector<int64_t> batch;
  int64_t n = 0, k = 0, m = 0;
  TensorView a, b, out;
};

std::string checkOperands(const char *op, Mode mode, const TensorView &a,
                          const TensorView &b, const TensorView &out) {
  std::string s = op, e;
  if (!(e = checkView(a, (s + ": self").c_str(), mode)).empty() ||
      !(e = checkView(b, (s + ": other").c_str(), mode)).empty() ||
      !(e = checkView(out, (s + ": out").c_str(), mode)).empty())
    return e;
  if (a.dtype != b.dtype)
    return msg(op, "expected operands of one dtype, got ", dtypeName(a.dtype),
               " and ", dtypeName(b.dtype));
  if (a.dtype == ACL_BOOL)
    return msg(op, "not implemented for 'Bool'");
  if (!canCast(a.dtype, out.dtype))
    return msg(op, "result type ", dtypeName(a.dtype),
               " can't be cast to the desired output type ",
               dtypeName(out.dtype));
  return {};
}

// View v (dims >= 2) with its batch dims broadcast to `batch`.
TensorView batched(const TensorView &v, const std::vector<int64_t> &batch) {
  TensorView r = v;
  size_t nd = v.shape.size();
  std::vector<int64_t> vb(v.shape.begin(), v.shape.end() - 2);
  TensorView head = v;
  head.shape = vb;
  head.strides.assign(v.strides.begin(), v.strides.end() - 2);
  r.shape = batch;
  r.strides = expandStrides(head, batch);
  r.shape.push_back(v.shape[nd - 2]);
  r.shape.push_back(v.shape[nd - 1]);
  r.strides.push_back(v.strides[nd - 2]);
  r.strides.push_back(v.strides[nd - 1]);
  return r;
}

// beta * bias + alpha * a @ b into p.out (bias null: plain product).
void runProduct(const Product &p, const TensorView *bias, const Scalar *beta,
                const Scalar *alpha) {
  const TensorView &a = p.a, &b = p.b, &o = p.out;
  aclDataType dt = a.dtype;
  size_t nb = p.batch.size();
  std::vector<int64_t> aS(a.strides.begin(), a.strides.begin() + nb),
      bS(b.strides.begin(), b.strides.begin() + nb),
      oS(o.strides.begin(), o.strides.begin() + nb);
  int64_t an = a.strides[nb], ak = a.strides[nb + 1], bk = b.strides[nb],
          bm = b.strides[nb + 1], on = o.strides[nb], om = o.strides[nb + 1];
  std::vector<int64_t> biasStrides;
  if (bias)
    biasStrides = expandStrides(*bias, {p.n, p.m});
  withDomain(dt, [&](auto tag) {
    using C = decltype(tag);
    C al = alpha ? scalarAs<C>(*alpha) : C(1);
    C be = beta ? scalarAs<C>(*beta) : C(0);
    bool round = o.dtype != dt;
    walk(p.batch, {aS, bS, oS}, {a.offset, b.offset, o.offset},
         [&](const int64_t *off) {
           for (int64_t i = 0; i < p.n; ++i)
             for (int64_t j = 0; j < p.m; ++j) {
               C acc{};
               for (int64_t l = 0; l < p.k; ++l) {
                 C x = load<C>(dt, at(a, off[0] + i * an + l * ak));
                 C y = load<C>(dt, at(b, off[1] + l * bk + j * bm));
                 if constexpr (std::is_integral_v<C>)
                   acc = static_cast<C>(static_cast<uint64_t>(acc) +
                                        static_cast<uint64_t>(x) *
                                            static_cast<uint64_t>(y));
                 else
                   acc += x * y;
               }
               if (bias) {
                 acc = acc * al;
                 if (be != C(0))
                   acc += be *
                          load<C>(bias->dtype,
                                  at(*bias, bias->offset + i * biasStrides[0] +
                                                j * biasStrides[1]));
               }
               if (round)
                 acc = roundTo<C>(dt, acc);
               store<C>(o.dtype, at(o, off[2] + i * on + j * om), acc);
             }
         });
  });
}

// Runs p into out (or the temporary standing in for it when out overlaps an
// input); layout(v) gives v, a view of out's shape, as (batch..., n, m).
template <class L>
std::string
finish(Mode mode, Product &p, std::vector<TensorView> ins,
       const TensorView &out, L &&layout, const TensorView *bias = nullptr,
       const Scalar *beta = nullptr, const Scalar *alpha = nullptr) {
  if (mode == Mode::Check)
    return {};
  if (bias)
    ins.push_back(*bias);
  OutputView ov(out, ins);
  p.out = layout(ov.view());
  runProduct(p, bias, beta, alpha);
  ov.finish();
  return {};
}

TensorView same(const TensorView &v) { return v; }

} // namespace

std::string mm(Mode mode, const TensorView &self, const TensorView &mat2,
               const TensorView &out) {
  std::string e = checkOperands("mm", mode, self, mat2, out);
  if (!e.empty())
    return e;
  if (self.shape.size() != 2 || mat2.shape.size() != 2)
    return msg("mm", "expected 2-D operands, got ", shapeStr(self.shape),
               " and ", shapeStr(mat2.shape));
  if (self.shape[1] != mat2.shape[0])
    return msg("mm", "shapes ", shapeStr(self.shape), " and ",
               shapeStr(mat2.shape), " cannot be multiplied");
  if (!(e = expectShape("mm", "out", out, {self.shape[0], mat2.shape[1]}))
           .empty())
    return e;
  Product p{{}, self.shape[0], self.shape[1], mat2.shape[1], self, mat2, out};
  return finish(mode, p, {self, mat2}, out, same);
}

std::string bmm(Mode mode, const TensorView &self, const TensorView &mat2,
                const TensorView &out) {
  std::string e = checkOperands("bmm", mode, self, mat2, out);
  if (!e.empty())
    return e;
  if (self.shape.size() != 3 || mat2.shape.size() != 3)
    return msg("bmm", "expected 3-D operands, got ", shapeStr(self.shape),
               " and ", shapeStr(mat2.shape));
  if (self.shape[0] != mat2.shape[0] || self.shape[2] != mat2.shape[1])
    return msg("bmm", "shapes ", shapeStr(self.shape), " and ",
               shapeStr(mat2.shape), " cannot be multiplied");
  if (!(e = expectShape("bmm", "out", out,
                        {self.shape[0], self.shape[1], mat2.shape[2]}))
           .empty())
    return e;
  Product p{{self.shape[0]},
            self.shape[1],
            self.shape[2],
            mat2.shape[2],
            self,
            mat2,
            out};
  return finish(mode, p, {self, mat2}, out, same);
}

std::string mv(Mode mode, const TensorView &self, const TensorView &vec,
               const TensorView &out) {
  std::string e = checkOperands("mv", mode, self, vec, out);
  if (!e.empty())
    return e;
  if (self.shape.size() != 2 || vec.shape.size() != 1)
    return msg("mv", "expected a 2-D matrix and a 1-D vector, got ",
               shapeStr(self.shape), " and ", shapeStr(vec.shape));
  if (self.shape[1] != vec.shape[0])
    return msg("mv", "shapes ", shapeStr(self.shape), " and ",
               shapeStr(vec.shape), " cannot be multiplied");
  if (!(e = expectShape("mv", "out", out, {self.shape[0]})).empty())
    return e;
  TensorView b = vec;
  b.shape = {vec.shape[0], 1};
  b.strides = {vec.strides[0], 0};
  Product p{{}, self.shape[0], self.shape[1], 1, self, b, out};
  return finish(mode, p, {self, vec}, out, [](const TensorView &v) {
    TensorView o = v;
    o.shape.push_back(1);
    o.strides.push_back(0);
    return o;
  });
}

std::string matmul(Mode mode, const TensorView &self, const TensorView &other,
                   const TensorView &out) {
  std::string e = checkOperands("matmul", mode, self, other, out);
  if (!e.empty())
    return e;
  size_t da = self.shape.size(), db = other.shape.size();
  if (da == 0 || db == 0)
    return msg("matmul", "both arguments need at least 1 dim, got ",
               shapeStr(self.shape), " and ", shapeStr(other.shape));
  TensorView a = self, b = other;
  if (da == 1) {
    a.shape = {1, self.shape[0]};
    a.strides = {0, self.strides[0]};
  }
  if (db == 1) {
    b.shape = {other.shape[0], 1};
    b.strides = {other.strides[0], 0};
  }
  size_t na = a.shape.size(), nb = b.shape.size();
  int64_t n = a.shape[na - 2], k = a.shape[na - 1], m = b.shape[nb - 1];
  if (b.shape[nb - 2] != k)
    return msg("matmul", "shapes ", shapeStr(self.shape), " and ",
               shapeStr(other.shape), " cannot be multiplied");
  std::vector<int64_t> ba(a.shape.begin(), a.shape.end() - 2),
      bb(b.shape.begin(), b.shape.end() - 2), batch;
  if (!broadcastShapes(ba, bb, &batch))
    return msg("matmul", "batch dims of ", shapeStr(self.shape), " and ",
               shapeStr(other.shape), " do not broadcast");
  std::vector<int64_t> shape = batch;
  if (da > 1)
    shape.push_back(n);
  if (db > 1)
    shape.push_back(m);
  if (!(e = expectShape("matmul", "out", out, shape)).empty())
    return e;
  // out as (batch..., n, m): the removed dims come back with stride 0.
  auto layout = [&](const TensorView &v) {
    TensorView o = v;
    o.shape = batch;
    o.strides.assign(v.strides.begin(), v.strides.begin() + batch.size());
    size_t next = batch.size();
    o.shape.push_back(n);
    o.strides.push_back(da > 1 ? v.strides[next++] : 0);
    o.shape.push_back(m);
    o.strides.push_back(db > 1 ? v.strides[next] : 0);
    return o;
  };
  Product p{batch, n, k, m, batched(a, batch), batched(b, batch), out};
  return finish(mode, p, {self, other}, out, layout);
}

std::string addmm(Mode mode, const TensorView &self, const TensorView &mat1,
                  const TensorView &mat2, const Scalar &beta,
                  const Scalar &alpha, const TensorView &out) {
  std::string e = checkOperands("addmm", mode, mat1, mat2, out);
  if (!e.empty())
    return e;
  if (!(e = checkView(self, "addmm: self", mode)).empty())
    return e;
  if (self.dtype != mat1.dtype)
    return msg("addmm", "expected self of dtype ", dtypeName(mat1.dtype),
               ", got ", dtypeName(self.dtype));
  if (mat1.shape.size() != 2 || mat2.shape.size() != 2)
    return msg("addmm", "expected 2-D matrices, got ", shapeStr(mat1.shape),
               " and ", shapeStr(mat2.shape));
  if (mat1.shape[1] != mat2.shape[0])
    return msg("addmm", "shapes ", shapeStr(mat1.shape), " and ",
               shapeStr(mat2.shape), " cannot be multiplied");
  std::vector<int64_t> shape = {mat1.shape[0], mat2.shape[1]}, b;
  if (!broadcastShapes(self.shape, shape, &b) || b != shape)
    return msg("addmm", "self of shape ", shapeStr(self.shape),
               " does not broadcast to ", shapeStr(shape));
  if (!(e = expectShape("addmm", "out", out, shape)).empty())
    return e;
  if (!isSupportedDtype(beta.dtype) || !isSupportedDtype(alpha.dtype))
    return msg("addmm", "unsupported scalar dtype");
  if (!isFloatingDtype(mat1.dtype) &&
      (isFloatingDtype(beta.dtype) || isFloatingDtype(alpha.dtype)))
    return msg("addmm", "for integral input tensors, beta and alpha must not "
                        "be floating point numbers");
  Product p{{}, mat1.shape[0], mat1.shape[1], mat2.shape[1], mat1, mat2, out};
  return finish(mode, p, {mat1, mat2}, out, same, &self, &beta, &alpha);
}

} // namespace mssim::nn
