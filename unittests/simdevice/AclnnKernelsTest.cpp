//===- AclnnKernelsTest.cpp - The aclnn host compute kernels --------------===//
//
// Every family of utils/simdevice/aclnn/kernels.h against independent
// expectations: hand-computed constants or naive references that spell the
// index arithmetic out per element. Values are read back through a decoder
// of this file's own (not the kernels' load / scalar_types.h).
//
//===----------------------------------------------------------------------===//
#include "kernels.h"
#include "scalar_types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace mssim::nn;

namespace {

const double NaN = std::numeric_limits<double>::quiet_NaN();

// A tensor that owns its storage; v views all of it, contiguous.
struct Tensor {
  std::vector<uint8_t> bytes;
  TensorView v;
  operator const TensorView &() const { return v; }
};

// Encodes value as dtype into p (fp16 / bf16 through scalar_types.h, whose
// own tests are below).
void encode(aclDataType dt, uint8_t *p, double value) {
  auto put = [p](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (dt) {
  case ACL_FLOAT:
    put(static_cast<float>(value));
    break;
  case ACL_DOUBLE:
    put(value);
    break;
  case ACL_FLOAT16:
    put(doubleToHalf(value));
    break;
  case ACL_BF16:
    put(doubleToBf16(value));
    break;
  case ACL_INT8:
    put(static_cast<int8_t>(value));
    break;
  case ACL_UINT8:
    put(static_cast<uint8_t>(value));
    break;
  case ACL_INT16:
    put(static_cast<int16_t>(value));
    break;
  case ACL_INT32:
    put(static_cast<int32_t>(value));
    break;
  case ACL_INT64:
    put(static_cast<int64_t>(value));
    break;
  case ACL_BOOL:
    put(static_cast<uint8_t>(value != 0));
    break;
  default:
    break;
  }
}

// Decodes independently of the kernels: binary16 by its definition.
double decode(aclDataType dt, const uint8_t *p) {
  auto get = [p](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (dt) {
  case ACL_FLOAT:
    return get(0.0f);
  case ACL_DOUBLE:
    return get(0.0);
  case ACL_FLOAT16: {
    uint16_t h = get(uint16_t{});
    int sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
    double v = exp == 31  ? (mant ? NaN : INFINITY)
               : exp == 0 ? std::ldexp(mant, -24)
                          : std::ldexp(mant + 1024, exp - 25);
    return sign ? -v : v;
  }
  case ACL_BF16: {
    uint32_t u = static_cast<uint32_t>(get(uint16_t{})) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  case ACL_INT8:
    return get(int8_t{});
  case ACL_UINT8:
    return get(uint8_t{});
  case ACL_INT16:
    return get(int16_t{});
  case ACL_INT32:
    return get(int32_t{});
  case ACL_INT64:
    return static_cast<double>(get(int64_t{}));
  case ACL_BOOL:
    return get(uint8_t{});
  default:
    return NaN;
  }
}

size_t sizeOf(aclDataType dt) {
  switch (dt) {
  case ACL_DOUBLE:
  case ACL_INT64:
    return 8;
  case ACL_FLOAT:
  case ACL_INT32:
    return 4;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
    return 2;
  default:
    return 1;
  }
}

int64_t count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

// A contiguous tensor of `shape` holding `values` (row-major).
Tensor make(aclDataType dt, std::vector<int64_t> shape,
            std::vector<double> values) {
  Tensor t;
  int64_t n = count(shape);
  t.bytes.assign(static_cast<size_t>(n) * sizeOf(dt), 0);
  for (int64_t i = 0; i < n && i < static_cast<int64_t>(values.size()); ++i)
    encode(dt, t.bytes.data() + i * sizeOf(dt), values[i]);
  t.v.dtype = dt;
  t.v.shape = shape;
  t.v.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    t.v.strides[d - 1] = t.v.strides[d] * shape[d];
  t.v.base = t.bytes.data();
  t.v.storageBytes = t.bytes.size();
  return t;
}

Tensor zeros(aclDataType dt, std::vector<int64_t> shape) {
  return make(dt, shape, {});
}

// Storage for a view: `elements` slots, viewed with shape/strides/offset.
Tensor strided(aclDataType dt, int64_t elements, std::vector<int64_t> shape,
               std::vector<int64_t> strides, int64_t offset = 0) {
  Tensor t = make(dt, {elements}, {});
  t.v.shape = shape;
  t.v.strides = strides;
  t.v.offset = offset;
  return t;
}

// The view's elements in row-major order, by per-element index arithmetic.
std::vector<double> read(const TensorView &v) {
  std::vector<double> r;
  int64_t n = count(v.shape);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, off = v.offset;
    for (size_t d = v.shape.size(); d-- > 0;) {
      off += (rest % v.shape[d]) * v.strides[d];
      rest /= v.shape[d];
    }
    r.push_back(decode(v.dtype, v.base + off * sizeOf(v.dtype)));
  }
  return r;
}

// t's 2-D view transposed (a non-contiguous view of the same storage).
TensorView transposed(const TensorView &v) {
  TensorView t = v;
  std::swap(t.shape[0], t.shape[1]);
  std::swap(t.strides[0], t.strides[1]);
  return t;
}

void expectNear(const std::vector<double> &got, const std::vector<double> &want,
                double tol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    else if (std::isinf(want[i]))
      EXPECT_EQ(got[i], want[i]) << "element " << i;
    else
      EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
          << "element " << i;
  }
}

#define RUN_OK(call) ASSERT_EQ((call), "")
#define FAILS(call, fragment)                                                  \
  do {                                                                         \
    std::string e_ = (call);                                                   \
    EXPECT_NE(e_.find(fragment), std::string::npos) << "message: " << e_;      \
  } while (0)

//===-- scalar_types.h ----------------------------------------------------===//

TEST(AclnnScalarTypes, HalfRoundsToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00); // the tie rounds to infinity
  EXPECT_EQ(floatToHalf(INFINITY), 0x7C00);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3C00);     // tie, even
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1p-11f), 0x3C02); // tie, up to even
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001);            // smallest subnormal
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000);            // tie to even zero
  EXPECT_EQ(floatToHalf(0x1.8p-24f), 0x0002);          // tie up to even
  EXPECT_EQ(floatToHalf(0x1.ffcp-15f), 0x0400);        // up into normals
  uint16_t nan = floatToHalf(NAN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfToFloat(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
}

TEST(AclnnScalarTypes, Bf16AndDoubleRounding) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3F80);     // tie, even
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3F82); // tie, up to even
  EXPECT_EQ(floatToBf16(-INFINITY), 0xFF80);
  EXPECT_EQ(floatToBf16(3.0e38f), 0x7F62);
  EXPECT_EQ(floatToBf16(3.4e38f), 0x7F80); // rounds up to infinity
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  EXPECT_EQ(bf16ToFloat(0x4049), 3.140625f);
  // Just above a half tie: one correct rounding goes up, float first
  // would land on the tie and go to even.
  EXPECT_EQ(doubleToHalf(1.0 + 0x1p-11 + 0x1p-40), 0x3C01);
  EXPECT_EQ(doubleToBf16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81);
  EXPECT_EQ(doubleToHalf(1e300), 0x7C00);
  EXPECT_EQ(doubleToHalf(-1e-300), 0x8000);
}

//===-- Dtypes, views -----------------------------------------------------===//

TEST(AclnnKernels, PromotionAsTorch) {
  EXPECT_EQ(promoteTypes(ACL_INT8, ACL_UINT8), ACL_INT16);
  EXPECT_EQ(promoteTypes(ACL_UINT8, ACL_INT32), ACL_INT32);
  EXPECT_EQ(promoteTypes(ACL_FLOAT16, ACL_BF16), ACL_FLOAT);
  EXPECT_EQ(promoteTypes(ACL_FLOAT16, ACL_INT64), ACL_FLOAT16);
  EXPECT_EQ(promoteTypes(ACL_BOOL, ACL_INT8), ACL_INT8);
  EXPECT_EQ(promoteTypes(ACL_FLOAT, ACL_DOUBLE), ACL_DOUBLE);
  EXPECT_EQ(promoteWithScalar(ACL_INT32, ACL_DOUBLE), ACL_FLOAT);
  EXPECT_EQ(promoteWithScalar(ACL_INT8, ACL_INT64), ACL_INT8);
  EXPECT_EQ(promoteWithScalar(ACL_BOOL, ACL_INT32), ACL_INT64);
  EXPECT_EQ(promoteWithScalar(ACL_FLOAT16, ACL_DOUBLE), ACL_FLOAT16);
  EXPECT_TRUE(canCast(ACL_INT32, ACL_FLOAT16));
  EXPECT_FALSE(canCast(ACL_FLOAT, ACL_INT64));
  EXPECT_FALSE(canCast(ACL_INT8, ACL_BOOL));
  EXPECT_TRUE(canCast(ACL_BOOL, ACL_BOOL));
}

TEST(AclnnKernels, ChecksRejectBadViews) {
  Tensor a = make(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor out = zeros(ACL_FLOAT, {2, 3});
  TensorView bad = a.v;
  bad.shape = {2, -3};
  FAILS(binary(Mode::Check, BinaryOp::Add, bad, a, out), "negative size");
  bad = a.v;
  bad.strides = {3};
  FAILS(binary(Mode::Check, BinaryOp::Add, bad, a, out), "strides");
  bad = a.v;
  bad.offset = 1; // last element beyond the 24 bytes
  FAILS(binary(Mode::Check, BinaryOp::Add, bad, a, out), "beyond its storage");
  bad = a.v;
  bad.strides = {-3, 1};
  FAILS(binary(Mode::Check, BinaryOp::Add, bad, a, out), "negative stride");
  bad = a.v;
  bad.strides = {int64_t(1) << 62, 1};
  FAILS(binary(Mode::Check, BinaryOp::Add, bad, a, out), "storage");
  bad = a.v;
  bad.dtype = ACL_COMPLEX64;
  FAILS(binary(Mode::Check, BinaryOp::Add, bad, a, out), "unsupported");
  bad = a.v;
  bad.base = nullptr;
  EXPECT_EQ(binary(Mode::Check, BinaryOp::Add, bad, a, out), "");
  FAILS(binary(Mode::Run, BinaryOp::Add, bad, a, out), "null base");
  // An empty view needs no storage.
  Tensor e = zeros(ACL_FLOAT, {0, 3});
  e.v.storageBytes = 0;
  EXPECT_EQ(unary(Mode::Run, UnaryOp::Abs, e, e), "");
}

//===-- Binary ------------------------------------------------------------===//

TEST(AclnnKernels, AddBroadcastWithAlpha) {
  Tensor a = make(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = make(ACL_FLOAT, {3}, {10, 20, 30});
  Tensor out = zeros(ACL_FLOAT, {2, 3});
  Scalar alpha = Scalar::ofDouble(2);
  RUN_OK(binary(Mode::Run, BinaryOp::Add, a, b, out, &alpha));
  expectNear(read(out), {21, 42, 63, 24, 45, 66});
  // Column vector against row vector: [2,1] + [1,3] -> [2,3].
  Tensor c = make(ACL_INT32, {2, 1}, {1, 2});
  Tensor r = make(ACL_INT32, {1, 3}, {10, 20, 30});
  Tensor o2 = zeros(ACL_INT32, {2, 3});
  RUN_OK(binary(Mode::Run, BinaryOp::Sub, c, r, o2));
  expectNear(read(o2), {-9, -19, -29, -8, -18, -28});
  FAILS(binary(Mode::Check, BinaryOp::Add, a, make(ACL_FLOAT, {2}, {}), out),
        "do not broadcast");
  FAILS(binary(Mode::Check, BinaryOp::Add, a, b, zeros(ACL_FLOAT, {3, 2})),
        "out has shape");
}

TEST(AclnnKernels, BinaryFloat16NonContiguous) {
  // a^T (a stored 3x2) + b, fp16, written into a strided out (every other
  // slot of 12).
  Tensor a = make(ACL_FLOAT16, {3, 2}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
  Tensor b = make(ACL_FLOAT16, {2, 3}, {1, 1, 1, 1000, 1000, 1000});
  Tensor out = strided(ACL_FLOAT16, 12, {2, 3}, {6, 2});
  RUN_OK(binary(Mode::Run, BinaryOp::Add, transposed(a), b, out));
  std::vector<double> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      // fp16 inputs, sum rounded to fp16 once.
      float x = halfToFloat(doubleToHalf(0.1 * (j * 2 + i + 1)));
      float y = i ? 1000.0f : 1.0f;
      want.push_back(halfToFloat(floatToHalf(x + y)));
    }
  expectNear(read(out), want, 0);
  // Untouched slots stay zero.
  TensorView gaps = out.v;
  gaps.offset = 1;
  expectNear(read(gaps), {0, 0, 0, 0, 0, 0}, 0);
}

TEST(AclnnKernels, PromotionAndOutDtypes) {
  Tensor i8 = make(ACL_INT8, {3}, {-100, 50, 7});
  Tensor u8 = make(ACL_UINT8, {3}, {200, 100, 3});
  Tensor o16 = zeros(ACL_INT16, {3});
  RUN_OK(binary(Mode::Run, BinaryOp::Add, i8, u8, o16));
  expectNear(read(o16), {100, 150, 10}, 0);
  // int8 * int8 wraps in int8 before reaching an int32 out.
  Tensor o32 = zeros(ACL_INT32, {3});
  RUN_OK(binary(Mode::Run, BinaryOp::Mul, i8, i8, o32));
  expectNear(read(o32), {16, -60, 49}, 0); // 10000, 2500 mod 256
  // int tensor + float scalar -> float32.
  Tensor i32 = make(ACL_INT32, {2}, {1, 2});
  Tensor of = zeros(ACL_FLOAT, {2});
  RUN_OK(
      binaryScalar(Mode::Run, BinaryOp::Add, i32, Scalar::ofDouble(0.5), of));
  expectNear(read(of), {1.5, 2.5});
  FAILS(binaryScalar(Mode::Check, BinaryOp::Add, i32, Scalar::ofDouble(0.5),
                     zeros(ACL_INT32, {2})),
        "can't be cast");
  Tensor bl = make(ACL_BOOL, {2}, {1, 0});
  FAILS(binary(Mode::Check, BinaryOp::Sub, bl, bl, zeros(ACL_BOOL, {2})),
        "bool");
  Scalar fa = Scalar::ofDouble(1.5);
  FAILS(
      binary(Mode::Check, BinaryOp::Add, i32, i32, zeros(ACL_INT32, {2}), &fa),
      "alpha");
  // bool + bool is or.
  Tensor ob = zeros(ACL_BOOL, {2});
  RUN_OK(binary(Mode::Run, BinaryOp::Add, bl, make(ACL_BOOL, {2}, {1, 1}), ob));
  expectNear(read(ob), {1, 1}, 0);
}

TEST(AclnnKernels, DivisionFamilies) {
  Tensor a = make(ACL_INT32, {4}, {7, -7, 7, -7});
  Tensor b = make(ACL_INT32, {4}, {2, 2, -2, -2});
  Tensor f = zeros(ACL_FLOAT, {4});
  RUN_OK(binary(Mode::Run, BinaryOp::Div, a, b, f));
  expectNear(read(f), {3.5, -3.5, -3.5, 3.5});
  Tensor i = zeros(ACL_INT32, {4});
  RUN_OK(binary(Mode::Run, BinaryOp::DivFloor, a, b, i));
  expectNear(read(i), {3, -4, -4, 3}, 0);
  RUN_OK(binary(Mode::Run, BinaryOp::DivTrunc, a, b, i));
  expectNear(read(i), {3, -3, -3, 3}, 0);
  RUN_OK(binary(Mode::Run, BinaryOp::Remainder, a, b, i));
  expectNear(read(i), {1, 1, -1, -1}, 0);
  RUN_OK(binary(Mode::Run, BinaryOp::Fmod, a, b, i));
  expectNear(read(i), {1, -1, 1, -1}, 0);
  FAILS(binary(Mode::Run, BinaryOp::Remainder, a,
               make(ACL_INT32, {4}, {1, 0, 1, 1}), i),
        "division by zero");
  FAILS(binary(Mode::Check, BinaryOp::Div, a, b, i), "can't be cast");
  // Floating remainder / floor division, bf16.
  Tensor x = make(ACL_BF16, {3}, {5.5, -5.5, 1});
  Tensor y = make(ACL_BF16, {3}, {2, 2, 0});
  Tensor o = zeros(ACL_BF16, {3});
  RUN_OK(binary(Mode::Run, BinaryOp::Remainder, x, y, o));
  expectNear(read(o), {1.5, 0.5, NaN}, 0);
  RUN_OK(binary(Mode::Run, BinaryOp::DivFloor, x, y, o));
  expectNear(read(o), {2, -3, INFINITY}, 0);
}

TEST(AclnnKernels, PowMaxMinScalarForms) {
  Tensor a = make(ACL_FLOAT, {4}, {1, 2, 3, NaN});
  Tensor b = make(ACL_FLOAT, {4}, {4, 1, NaN, 0});
  Tensor o = zeros(ACL_FLOAT, {4});
  RUN_OK(binary(Mode::Run, BinaryOp::Maximum, a, b, o));
  expectNear(read(o), {4, 2, NaN, NaN});
  RUN_OK(binary(Mode::Run, BinaryOp::Minimum, a, b, o));
  expectNear(read(o), {1, 1, NaN, NaN});
  RUN_OK(binaryScalar(Mode::Run, BinaryOp::Pow, a, Scalar::ofInt(2), o));
  expectNear(read(o), {1, 4, 9, NaN});
  RUN_OK(scalarBinary(Mode::Run, BinaryOp::Pow, Scalar::ofDouble(2), a, o));
  expectNear(read(o), {2, 4, 8, NaN});
  Tensor ib = make(ACL_INT64, {3}, {3, -1, 2});
  Tensor oi = zeros(ACL_INT64, {3});
  RUN_OK(binary(Mode::Run, BinaryOp::Pow, make(ACL_INT64, {3}, {2, 2, -3}), ib,
                oi));
  expectNear(read(oi), {8, 0, 9}, 0);
  // rsub-like: 10 - x.
  RUN_OK(scalarBinary(Mode::Run, BinaryOp::Sub, Scalar::ofInt(10), ib, oi));
  expectNear(read(oi), {7, 11, 8}, 0);
}

TEST(AclnnKernels, InPlaceAndOverlappingOut) {
  // out = self: aclnnInplaceAdd.
  Tensor a = make(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  RUN_OK(binaryScalar(Mode::Run, BinaryOp::Mul, a, Scalar::ofInt(3), a));
  expectNear(read(a), {3, 6, 9, 12});
  // self + self^T into self: every read before any write.
  Tensor m = make(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  RUN_OK(binary(Mode::Run, BinaryOp::Add, m, transposed(m), m));
  expectNear(read(m), {2, 5, 5, 8});
  // out shifted by one element over its own input.
  Tensor s = make(ACL_INT32, {5}, {1, 2, 3, 4, 0});
  TensorView in = s.v, out = s.v;
  in.shape = out.shape = {4};
  out.offset = 1;
  RUN_OK(unary(Mode::Run, UnaryOp::Neg, in, out));
  expectNear(read(s), {1, -1, -2, -3, -4}, 0);
}

//===-- Unary -------------------------------------------------------------===//

TEST(AclnnKernels, UnaryMathAgainstLibm) {
  std::vector<double> xs = {-2.5, -0.5, 0.25, 1, 3};
  Tensor x = make(ACL_FLOAT, {5}, xs);
  Tensor o = zeros(ACL_FLOAT, {5});
  struct Case {
    UnaryOp op;
    double (*ref)(double);
  };
  Case cases[] = {
      {UnaryOp::Exp, [](double v) { return std::exp(v); }},
      {UnaryOp::Sin, [](double v) { return std::sin(v); }},
      {UnaryOp::Cos, [](double v) { return std::cos(v); }},
      {UnaryOp::Tanh, [](double v) { return std::tanh(v); }},
      {UnaryOp::Erf, [](double v) { return std::erf(v); }},
      {UnaryOp::Abs, [](double v) { return std::fabs(v); }},
      {UnaryOp::Neg, [](double v) { return -v; }},
      {UnaryOp::Floor, [](double v) { return std::floor(v); }},
      {UnaryOp::Ceil, [](double v) { return std::ceil(v); }},
      {UnaryOp::Relu, [](double v) { return v > 0 ? v : 0; }},
      {UnaryOp::Reciprocal, [](double v) { return 1 / v; }},
      {UnaryOp::Sigmoid, [](double v) { return 1 / (1 + std::exp(-v)); }},
      {UnaryOp::Silu, [](double v) { return v / (1 + std::exp(-v)); }},
      {UnaryOp::Sign, [](double v) { return double((v > 0) - (v < 0)); }},
  };
  for (const Case &c : cases) {
    RUN_OK(unary(Mode::Run, c.op, x, o));
    std::vector<double> want;
    for (double v : xs)
      want.push_back(c.ref(v));
    expectNear(read(o), want, 1e-6);
  }
  Tensor p = make(ACL_FLOAT, {3}, {4, 0.25, -1});
  Tensor po = zeros(ACL_FLOAT, {3});
  RUN_OK(unary(Mode::Run, UnaryOp::Sqrt, p, po));
  expectNear(read(po), {2, 0.5, NaN});
  RUN_OK(unary(Mode::Run, UnaryOp::Rsqrt, p, po));
  expectNear(read(po), {0.5, 2, NaN});
  RUN_OK(unary(Mode::Run, UnaryOp::Log, p, po));
  expectNear(read(po), {std::log(4.0), std::log(0.25), NaN});
}

TEST(AclnnKernels, GeluRoundAndDtypes) {
  Tensor x = make(ACL_FLOAT, {3}, {1, -1, 0});
  Tensor o = zeros(ACL_FLOAT, {3});
  RUN_OK(unary(Mode::Run, UnaryOp::Gelu, x, o));
  expectNear(read(o), {0.8413447460685429, -0.15865525393145707, 0}, 1e-6);
  RUN_OK(unary(Mode::Run, UnaryOp::GeluTanh, x, o));
  expectNear(read(o), {0.8411919906082768, -0.15880800939172324, 0}, 1e-6);
  // Round half to even, in bf16.
  Tensor r = make(ACL_BF16, {6}, {0.5, 1.5, 2.5, -0.5, -1.5, 2.75});
  Tensor ro = zeros(ACL_BF16, {6});
  RUN_OK(unary(Mode::Run, UnaryOp::Round, r, ro));
  expectNear(read(ro), {0, 2, 2, 0, -2, 3}, 0);
  // Integral input of a floating op gives float32 (into an fp16 out, too).
  Tensor i = make(ACL_INT32, {2}, {0, 1});
  Tensor ho = zeros(ACL_FLOAT16, {2});
  RUN_OK(unary(Mode::Run, UnaryOp::Exp, i, ho));
  expectNear(read(ho), {1, halfToFloat(floatToHalf(std::exp(1.0f)))}, 0);
  FAILS(unary(Mode::Check, UnaryOp::Exp, i, zeros(ACL_INT32, {2})),
        "can't be cast");
  FAILS(unary(Mode::Check, UnaryOp::Gelu, i, zeros(ACL_FLOAT, {2})),
        "not implemented");
  FAILS(unary(Mode::Check, UnaryOp::Neg, make(ACL_BOOL, {2}, {}),
              zeros(ACL_BOOL, {2})),
        "bool");
  Tensor ai = make(ACL_INT16, {3}, {-5, 0, 7});
  Tensor aio = zeros(ACL_INT16, {3});
  RUN_OK(unary(Mode::Run, UnaryOp::Abs, ai, aio));
  expectNear(read(aio), {5, 0, 7}, 0);
}

//===-- Comparisons, logic, where, cast -----------------------------------===//

TEST(AclnnKernels, Comparisons) {
  Tensor a = make(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  Tensor b = make(ACL_INT64, {2}, {2, 2});
  Tensor o = zeros(ACL_BOOL, {2, 2});
  RUN_OK(compare(Mode::Run, CompareOp::Gt, a, b, o));
  expectNear(read(o), {0, 0, 1, 1}, 0);
  RUN_OK(compare(Mode::Run, CompareOp::Le, transposed(a), b, o));
  expectNear(read(o), {1, 0, 1, 0}, 0);
  Tensor of = zeros(ACL_FLOAT16, {2, 2});
  RUN_OK(compareScalar(Mode::Run, CompareOp::Eq, a, Scalar::ofDouble(3), of));
  expectNear(read(of), {0, 0, 1, 0}, 0);
  RUN_OK(compareScalar(Mode::Run, CompareOp::Ne, a, Scalar::ofInt(3), o));
  expectNear(read(o), {1, 1, 0, 1}, 0);
  // An int tensor against 2.5 compares as float.
  Tensor i = make(ACL_INT32, {3}, {2, 3, 4});
  Tensor io = zeros(ACL_BOOL, {3});
  RUN_OK(compareScalar(Mode::Run, CompareOp::Lt, i, Scalar::ofDouble(2.5), io));
  expectNear(read(io), {1, 0, 0}, 0);
  RUN_OK(compareScalar(Mode::Run, CompareOp::Ge, i, Scalar::ofInt(3), io));
  expectNear(read(io), {0, 1, 1}, 0);
  FAILS(compare(Mode::Check, CompareOp::Eq, a, make(ACL_FLOAT, {3}, {}), o),
        "broadcast");
}

TEST(AclnnKernels, LogicalOps) {
  Tensor a = make(ACL_FLOAT, {4}, {0, 1, 0, -2});
  Tensor b = make(ACL_INT8, {4}, {0, 0, 3, 1});
  Tensor o = zeros(ACL_BOOL, {4});
  RUN_OK(logical(Mode::Run, LogicalOp::And, a, b, o));
  expectNear(read(o), {0, 0, 0, 1}, 0);
  RUN_OK(logical(Mode::Run, LogicalOp::Or, a, b, o));
  expectNear(read(o), {0, 1, 1, 1}, 0);
  Tensor oi = zeros(ACL_INT32, {4});
  RUN_OK(logical(Mode::Run, LogicalOp::Xor, a, b, oi));
  expectNear(read(oi), {0, 1, 1, 0}, 0);
  RUN_OK(logicalNot(Mode::Run, a, o));
  expectNear(read(o), {1, 0, 1, 0}, 0);
}

TEST(AclnnKernels, CastAndCopy) {
  Tensor f = make(ACL_FLOAT, {5}, {300.7, -1.9, 0.5, NaN, 2});
  Tensor i8 = zeros(ACL_INT8, {5});
  RUN_OK(cast(Mode::Run, f, i8));
  expectNear(read(i8), {44, -1, 0, 0, 2}, 0); // truncate, then wrap
  Tensor bl = zeros(ACL_BOOL, {5});
  RUN_OK(cast(Mode::Run, f, bl));
  expectNear(read(bl), {1, 1, 1, 1, 1}, 0);
  Tensor h = make(ACL_FLOAT16, {2}, {1.0009765625, 65504});
  Tensor bf = zeros(ACL_BF16, {2});
  RUN_OK(cast(Mode::Run, h, bf));
  expectNear(read(bf), {1, 65536}, 0);
  Tensor d = make(ACL_DOUBLE, {1}, {1.0 + 0x1p-11 + 0x1p-40});
  Tensor dh = zeros(ACL_FLOAT16, {1});
  RUN_OK(cast(Mode::Run, d, dh));
  expectNear(read(dh), {1.0009765625}, 0);
  FAILS(cast(Mode::Check, f, zeros(ACL_INT8, {4})), "shape");
  // copy_: a [3] row broadcast into a transposed [2,3] view, int -> fp16.
  Tensor src = make(ACL_INT32, {3}, {7, 8, 9});
  Tensor store = zeros(ACL_FLOAT16, {3, 2});
  RUN_OK(copy(Mode::Run, transposed(store), src));
  expectNear(read(store), {7, 7, 8, 8, 9, 9}, 0);
  FAILS(copy(Mode::Check, store, src), "broadcast");
  // Contiguous copy of a strided (every other) view.
  Tensor big = make(ACL_FLOAT, {6}, {0, 1, 2, 3, 4, 5});
  TensorView evens = big.v;
  evens.shape = {3};
  evens.strides = {2};
  Tensor dst = zeros(ACL_DOUBLE, {3});
  RUN_OK(copy(Mode::Run, dst, evens));
  expectNear(read(dst), {0, 2, 4}, 0);
}

TEST(AclnnKernels, WhereMaskedFillFill) {
  Tensor c = make(ACL_BOOL, {2, 1}, {1, 0});
  Tensor a = make(ACL_INT32, {3}, {1, 2, 3});
  Tensor b = make(ACL_FLOAT16, {2, 3}, {-1, -2, -3, -4, -5, -6});
  Tensor o = zeros(ACL_FLOAT16, {2, 3});
  RUN_OK(where(Mode::Run, c, a, b, o));
  expectNear(read(o), {1, 2, 3, -4, -5, -6}, 0);
  FAILS(where(Mode::Check, make(ACL_FLOAT, {2, 1}, {}), a, b, o), "Bool");
  FAILS(where(Mode::Check, c, a, b, zeros(ACL_INT32, {2, 3})), "cast");
  // masked_fill_ on a transposed fp32 view, mask broadcast by rows.
  Tensor t = make(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor mask = make(ACL_BOOL, {2}, {0, 1});
  RUN_OK(maskedFill(Mode::Run, transposed(t), mask, Scalar::ofDouble(-0.5)));
  expectNear(read(t), {1, 2, 3, -0.5, -0.5, -0.5});
  FAILS(
      maskedFill(Mode::Check, t, make(ACL_BOOL, {3, 2}, {}), Scalar::ofInt(0)),
      "broadcast");
  Tensor s = strided(ACL_INT16, 6, {3}, {2}, 1);
  RUN_OK(fill(Mode::Run, s, Scalar::ofInt(-7)));
  TensorView all = s.v;
  all.shape = {6};
  all.strides = {1};
  all.offset = 0;
  expectNear(read(all), {0, -7, 0, -7, 0, -7}, 0);
  Tensor z = make(ACL_BF16, {2}, {3, 4});
  RUN_OK(zero(Mode::Run, z));
  expectNear(read(z), {0, 0}, 0);
}

//===-- Reductions
//----------------------------------------------------------===//

TEST(AclnnKernels, SumAndMean) {
  // x[i][j][k] = 100 i + 10 j + k, shape [2,3,4].
  std::vector<double> xs;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        xs.push_back(100 * i + 10 * j + k);
  Tensor x = make(ACL_FLOAT, {2, 3, 4}, xs);
  Tensor o = zeros(ACL_FLOAT, {3});
  RUN_OK(sum(Mode::Run, x, {0, -1}, false, o));
  for (int j = 0; j < 3; ++j) {
    double want = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k)
        want += 100 * i + 10 * j + k;
    EXPECT_EQ(read(o)[j], want);
  }
  Tensor ok = zeros(ACL_FLOAT, {2, 1, 4});
  RUN_OK(mean(Mode::Run, x, {1}, true, ok));
  expectNear(read(ok), {10, 11, 12, 13, 110, 111, 112, 113});
  Tensor all = zeros(ACL_DOUBLE, {});
  RUN_OK(sum(Mode::Run, x, {}, false, all));
  expectNear(read(all), {2 * (0 + 10 + 20) * 4 + 12 * 100 + 6 * 6}, 0);
  // int32 summed into int64; transposed input.
  Tensor m = make(ACL_INT32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor mo = zeros(ACL_INT64, {3});
  RUN_OK(sum(Mode::Run, transposed(m), {1}, false, mo));
  expectNear(read(mo), {5, 7, 9}, 0);
  // fp16 mean.
  Tensor h = make(ACL_FLOAT16, {4}, {1, 2, 3, 5});
  Tensor ho = zeros(ACL_FLOAT16, {});
  RUN_OK(mean(Mode::Run, h, {0}, false, ho));
  expectNear(read(ho), {2.75}, 0);
  FAILS(sum(Mode::Check, x, {0, 0}, false, o), "multiple times");
  FAILS(sum(Mode::Check, x, {3}, false, o), "out of range");
  FAILS(sum(Mode::Check, x, {0}, false, o), "shape");
  FAILS(sum(Mode::Check, x, {0}, false, zeros(ACL_INT32, {3, 4})), "summed");
  FAILS(mean(Mode::Check, m, {0}, false, zeros(ACL_INT32, {3})), "floating");
}

TEST(AclnnKernels, MaxMinFamilies) {
  Tensor x = make(ACL_FLOAT, {2, 4}, {3, 7, 7, 1, -2, NaN, 5, NaN});
  Tensor v = zeros(ACL_FLOAT, {2});
  Tensor idx = zeros(ACL_INT64, {2});
  RUN_OK(maxDim(Mode::Run, x, 1, false, v, idx));
  expectNear(read(v), {7, NaN});
  expectNear(read(idx), {1, 1}, 0); // first of the ties; first NaN
  Tensor vk = zeros(ACL_FLOAT, {1, 4});
  Tensor ik = zeros(ACL_INT32, {1, 4});
  RUN_OK(minDim(Mode::Run, x, 0, true, vk, ik));
  expectNear(read(vk), {-2, NaN, 5, NaN});
  expectNear(read(ik), {1, 1, 1, 1}, 0);
  Tensor a = zeros(ACL_FLOAT, {});
  RUN_OK(amax(Mode::Run, make(ACL_FLOAT, {2, 2}, {1, 9, 4, 2}), {}, false, a));
  expectNear(read(a), {9});
  Tensor ints = make(ACL_INT16, {2, 3}, {5, -1, 4, 2, 8, -3});
  Tensor ai = zeros(ACL_INT16, {2});
  RUN_OK(amin(Mode::Run, transposed(ints), {0}, false, ai));
  expectNear(read(ai), {-1, -3}, 0);
  Tensor am = zeros(ACL_INT64, {3});
  RUN_OK(argmax(Mode::Run, ints, 0, false, am));
  expectNear(read(am), {0, 1, 0}, 0);
  RUN_OK(argmin(Mode::Run, ints, 0, false, am));
  expectNear(read(am), {1, 0, 1}, 0);
  FAILS(argmax(Mode::Check, ints, 0, false, zeros(ACL_FLOAT, {3})), "Long");
  FAILS(amax(Mode::Check, make(ACL_FLOAT, {0, 2}, {}), {0}, false,
             zeros(ACL_FLOAT, {2})),
        "non-zero size");
  FAILS(maxDim(Mode::Check, x, 1, false, zeros(ACL_DOUBLE, {2}), idx),
        "values");
}

TEST(AclnnKernels, SoftmaxAndLogSoftmax) {
  std::vector<double> xs = {1, 2, 3, -1, 0, 1000};
  Tensor x = make(ACL_FLOAT, {2, 3}, xs);
  Tensor o = zeros(ACL_FLOAT, {2, 3});
  RUN_OK(softmax(Mode::Run, x, -1, o));
  std::vector<double> want;
  for (int r = 0; r < 2; ++r) {
    double mx = std::max({xs[3 * r], xs[3 * r + 1], xs[3 * r + 2]}), s = 0;
    for (int c = 0; c < 3; ++c)
      s += std::exp(xs[3 * r + c] - mx);
    for (int c = 0; c < 3; ++c)
      want.push_back(std::exp(xs[3 * r + c] - mx) / s);
  }
  expectNear(read(o), want, 1e-6);
  // log_softmax over dim 0 of the transpose (each row of x), written into
  // a transposed bf16 out.
  Tensor lo = zeros(ACL_BF16, {2, 3});
  RUN_OK(logSoftmax(Mode::Run, transposed(x), 0, transposed(lo)));
  std::vector<double> lw;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      lw.push_back(std::log(want[3 * r + c] > 0 ? want[3 * r + c] : 0));
  lw[3] = -1001;
  lw[4] = -1000;
  lw[5] = 0;
  expectNear(read(lo), lw, 1e-2);
  FAILS(
      softmax(Mode::Check, make(ACL_INT32, {2}, {}), 0, zeros(ACL_FLOAT, {2})),
      "floating");
  FAILS(softmax(Mode::Check, x, 2, o), "out of range");
}

TEST(AclnnKernels, LayerNorm) {
  std::vector<double> xs = {1, 2, 3, 4, 2, 4, 6, 8};
  Tensor x = make(ACL_FLOAT, {2, 4}, xs);
  Tensor w = make(ACL_FLOAT, {4}, {1, 2, 1, 2});
  Tensor b = make(ACL_FLOAT, {4}, {0, 0, 1, 1});
  Tensor o = zeros(ACL_FLOAT, {2, 4});
  Tensor mu = zeros(ACL_FLOAT, {2, 1});
  Tensor rs = zeros(ACL_FLOAT, {2, 1});
  RUN_OK(layerNorm(Mode::Run, x, {4}, &w.v, &b.v, 1e-5, o, &mu.v, &rs.v));
  // Row 0: mean 2.5, var 1.25; row 1: mean 5, var 5.
  double r0 = 1 / std::sqrt(1.25 + 1e-5), r1 = 1 / std::sqrt(5 + 1e-5);
  expectNear(read(mu), {2.5, 5});
  expectNear(read(rs), {r0, r1});
  expectNear(read(o),
             {-1.5 * r0, -0.5 * r0 * 2, 0.5 * r0 + 1, 1.5 * r0 * 2 + 1, -3 * r1,
              -1 * r1 * 2, 1 * r1 + 1, 3 * r1 * 2 + 1},
             1e-5);
  // fp16, no affine, normalised over the last two dims.
  Tensor h = make(ACL_FLOAT16, {1, 2, 2}, {0, 1, 2, 3});
  Tensor ho = zeros(ACL_FLOAT16, {1, 2, 2});
  RUN_OK(layerNorm(Mode::Run, h, {2, 2}, nullptr, nullptr, 0, ho, nullptr,
                   nullptr));
  double r = 1 / std::sqrt(1.25);
  expectNear(read(ho), {-1.5 * r, -0.5 * r, 0.5 * r, 1.5 * r}, 1e-3);
  FAILS(
      layerNorm(Mode::Check, x, {3}, nullptr, nullptr, 0, o, nullptr, nullptr),
      "trailing");
  FAILS(layerNorm(Mode::Check, x, {4}, &b.v, nullptr, 0, o, &rs.v, &w.v),
        "rstd");
}

TEST(AclnnKernels, RmsNormAndGroupNorm) {
  Tensor x = make(ACL_FLOAT, {2, 2}, {3, 4, 1, -1});
  Tensor g = make(ACL_FLOAT, {2}, {1, 0.5});
  Tensor y = zeros(ACL_FLOAT, {2, 2});
  Tensor rs = zeros(ACL_FLOAT, {2, 1});
  RUN_OK(rmsNorm(Mode::Run, x, g, 0, y, &rs.v));
  double r0 = 1 / std::sqrt(12.5), r1 = 1.0;
  expectNear(read(rs), {r0, r1});
  expectNear(read(y), {3 * r0, 2 * r0, 1, -0.5});
  FAILS(rmsNorm(Mode::Check, x, make(ACL_FLOAT, {3}, {}), 0, y, nullptr),
        "gamma");
  // group_norm: N=2, C=4, HxW=3 (spatial 3), 2 groups, by a naive loop.
  std::vector<double> xs;
  for (int i = 0; i < 24; ++i)
    xs.push_back((i * 7) % 11 - 5);
  Tensor in = make(ACL_FLOAT, {2, 4, 3}, xs);
  Tensor w = make(ACL_FLOAT, {4}, {1, 2, 3, 4});
  Tensor b = make(ACL_FLOAT, {4}, {0, 1, 0, -1});
  Tensor out = zeros(ACL_FLOAT, {2, 4, 3});
  Tensor mu = zeros(ACL_FLOAT, {2, 2});
  Tensor rstd = zeros(ACL_FLOAT, {2, 2});
  RUN_OK(groupNorm(Mode::Run, in, &w.v, &b.v, 2, 4, 3, 2, 1e-5, out, &mu.v,
                   &rstd.v));
  std::vector<double> want(24), wantMu, wantR;
  for (int n = 0; n < 2; ++n)
    for (int gr = 0; gr < 2; ++gr) {
      double s = 0, sq = 0;
      for (int e = 0; e < 6; ++e)
        s += xs[n * 12 + gr * 6 + e];
      double m = s / 6;
      for (int e = 0; e < 6; ++e)
        sq += (xs[n * 12 + gr * 6 + e] - m) * (xs[n * 12 + gr * 6 + e] - m);
      double r = 1 / std::sqrt(sq / 6 + 1e-5);
      wantMu.push_back(m);
      wantR.push_back(r);
      for (int e = 0; e < 6; ++e) {
        int c = gr * 2 + e / 3;
        int at = n * 12 + gr * 6 + e;
        want[at] = (xs[at] - m) * r * (c + 1) + (c == 1 ? 1 : c == 3 ? -1 : 0);
      }
    }
  expectNear(read(out), want, 1e-5);
  expectNear(read(mu), wantMu, 1e-6);
  expectNear(read(rstd), wantR, 1e-5);
  FAILS(groupNorm(Mode::Check, in, nullptr, nullptr, 2, 4, 3, 3, 0, out,
                  nullptr, nullptr),
        "divisible");
  FAILS(groupNorm(Mode::Check, in, nullptr, nullptr, 2, 4, 4, 2, 0, out,
                  nullptr, nullptr),
        "HxW");
}

//===-- Matrix products
//-----------------------------------------------------===//

// Naive (n,k)@(k,m) of row-major vectors.
std::vector<double> naiveMm(const std::vector<double> &a,
                            const std::vector<double> &b, int n, int k, int m) {
  std::vector<double> c(n * m, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      for (int l = 0; l < k; ++l)
        c[i * m + j] += a[i * k + l] * b[l * m + j];
  return c;
}

std::vector<double> iota(int n, double start = 1) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(start + i);
  return v;
}

TEST(AclnnKernels, MmBmmMv) {
  Tensor a = make(ACL_FLOAT, {2, 3}, iota(6));
  Tensor b = make(ACL_FLOAT, {3, 4}, iota(12));
  Tensor o = zeros(ACL_FLOAT, {2, 4});
  RUN_OK(mm(Mode::Run, a, b, o));
  expectNear(read(o), naiveMm(iota(6), iota(12), 2, 3, 4));
  // A transposed operand (stored 3x2) in fp16.
  Tensor at = make(ACL_FLOAT16, {3, 2}, {1, 4, 2, 5, 3, 6});
  Tensor bh = make(ACL_FLOAT16, {3, 4}, iota(12));
  Tensor oh = zeros(ACL_FLOAT16, {2, 4});
  RUN_OK(mm(Mode::Run, transposed(at), bh, oh));
  expectNear(read(oh), naiveMm(iota(6), iota(12), 2, 3, 4), 0);
  FAILS(mm(Mode::Check, a, a, o), "cannot be multiplied");
  FAILS(mm(Mode::Check, a, make(ACL_FLOAT16, {3, 4}, {}), o), "one dtype");
  Tensor ba = make(ACL_INT32, {2, 2, 2}, iota(8));
  Tensor bb = make(ACL_INT32, {2, 2, 1}, {1, -1, 2, 0});
  Tensor bo = zeros(ACL_INT64, {2, 2, 1});
  RUN_OK(bmm(Mode::Run, ba, bb, bo));
  expectNear(read(bo), {-1, -1, 10, 14}, 0);
  Tensor v = make(ACL_FLOAT, {3}, {1, 0, -1});
  Tensor vo = zeros(ACL_FLOAT, {2});
  RUN_OK(mv(Mode::Run, a, v, vo));
  expectNear(read(vo), {-2, -2});
  FAILS(bmm(Mode::Check, a, b, o), "3-D");
}

TEST(AclnnKernels, MatmulBroadcastAndAddmm) {
  // 1-D . 1-D -> 0-d.
  Tensor v = make(ACL_FLOAT, {3}, {1, 2, 3});
  Tensor s = zeros(ACL_FLOAT, {});
  RUN_OK(matmul(Mode::Run, v, v, s));
  expectNear(read(s), {14});
  // [2,1,2,3] @ [3,3,2] -> [2,3,2,2]: batch dims broadcast.
  std::vector<double> av = iota(12), bv = iota(18, -5);
  Tensor a = make(ACL_FLOAT, {2, 1, 2, 3}, av);
  Tensor b = make(ACL_FLOAT, {3, 3, 2}, bv);
  Tensor o = zeros(ACL_FLOAT, {2, 3, 2, 2});
  RUN_OK(matmul(Mode::Run, a, b, o));
  std::vector<double> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      std::vector<double> am(av.begin() + i * 6, av.begin() + i * 6 + 6),
          bm(bv.begin() + j * 6, bv.begin() + j * 6 + 6);
      for (double x : naiveMm(am, bm, 2, 3, 2))
        want.push_back(x);
    }
  expectNear(read(o), want);
  // 1-D @ 3-D: [3] @ [3,3,2] -> [3,2].
  Tensor o2 = zeros(ACL_FLOAT, {3, 2});
  RUN_OK(matmul(Mode::Run, v, b, o2));
  std::vector<double> w2;
  for (int j = 0; j < 3; ++j) {
    std::vector<double> bm(bv.begin() + j * 6, bv.begin() + j * 6 + 6);
    for (double x : naiveMm({1, 2, 3}, bm, 1, 3, 2))
      w2.push_back(x);
  }
  expectNear(read(o2), w2);
  // 2-D @ 1-D.
  Tensor m = make(ACL_FLOAT, {2, 3}, iota(6));
  Tensor o3 = zeros(ACL_FLOAT, {2});
  RUN_OK(matmul(Mode::Run, m, v, o3));
  expectNear(read(o3), {14, 32});
  FAILS(matmul(Mode::Check, a, b, zeros(ACL_FLOAT, {2, 3, 2})), "shape");
  FAILS(matmul(Mode::Check, a, m, o), "cannot be multiplied");
  // addmm: 0.5 * bias(row broadcast) + 2 * (m @ m^T).
  Tensor bias = make(ACL_FLOAT, {2}, {10, 20});
  Tensor ao = zeros(ACL_FLOAT, {2, 2});
  RUN_OK(addmm(Mode::Run, bias, m, transposed(m), Scalar::ofDouble(0.5),
               Scalar::ofDouble(2), ao));
  expectNear(read(ao), {5 + 28, 10 + 64, 5 + 64, 10 + 154});
}

//===-- Shapes and indexing
//-------------------------------------------------===//

TEST(AclnnKernels, PermuteCatSplitSlice) {
  Tensor x = make(ACL_INT32, {2, 3, 4}, iota(24, 0));
  Tensor p = zeros(ACL_INT32, {4, 2, 3});
  RUN_OK(permute(Mode::Run, x, {2, 0, 1}, p));
  std::vector<double> want;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        want.push_back(i * 12 + j * 4 + k);
  expectNear(read(p), want, 0);
  FAILS(permute(Mode::Check, x, {0, 0, 1}, p), "repeated");
  // cat of int32 [2,1] and float16 [2,2] along dim 1 -> float32 [2,3].
  Tensor a = make(ACL_INT32, {2, 1}, {1, 2});
  Tensor b = make(ACL_FLOAT16, {2, 2}, {0.5, 1.5, 2.5, 3.5});
  Tensor c = zeros(ACL_FLOAT, {2, 3});
  RUN_OK(cat(Mode::Run, {a.v, b.v}, -1, c));
  expectNear(read(c), {1, 0.5, 1.5, 2, 2.5, 3.5}, 0);
  FAILS(cat(Mode::Check, {a.v, b.v}, 0, c), "sizes of tensors");
  FAILS(cat(Mode::Check, {a.v, b.v}, 1, zeros(ACL_INT32, {2, 3})), "cast");
  // split into chunks of 2 along dim 1 of a transposed view: [3,2] -> ...
  Tensor m = make(ACL_FLOAT, {2, 5}, iota(10, 0));
  Tensor s0 = zeros(ACL_FLOAT, {2, 2}), s1 = zeros(ACL_FLOAT, {2, 2}),
         s2 = zeros(ACL_FLOAT, {2, 1});
  RUN_OK(split(Mode::Run, m, 2, 1, {s0.v, s1.v, s2.v}));
  expectNear(read(s0), {0, 1, 5, 6});
  expectNear(read(s1), {2, 3, 7, 8});
  expectNear(read(s2), {4, 9});
  Tensor t0 = zeros(ACL_BF16, {1, 2}), t1 = zeros(ACL_BF16, {4, 2});
  RUN_OK(splitWithSizes(Mode::Run, transposed(m), {1, 4}, 0, {t0.v, t1.v}));
  expectNear(read(t0), {0, 5}, 0);
  expectNear(read(t1), {1, 6, 2, 7, 3, 8, 4, 9}, 0);
  FAILS(splitWithSizes(Mode::Check, m, {1, 3}, 1, {t0.v, t1.v}), "sum");
  // slice [-4:100:2] along dim 1.
  Tensor sl = zeros(ACL_FLOAT, {2, 2});
  RUN_OK(slice(Mode::Run, m, 1, -4, 100, 2, sl));
  expectNear(read(sl), {1, 3, 6, 8});
  FAILS(slice(Mode::Check, m, 1, 0, 5, 0, sl), "step");
  Tensor empty = zeros(ACL_FLOAT, {2, 0});
  RUN_OK(slice(Mode::Run, m, 1, 4, 2, 1, empty));
}

TEST(AclnnKernels, IndexSelectGatherScatterEmbedding) {
  Tensor x = make(ACL_FLOAT, {3, 4}, iota(12, 0));
  Tensor idx = make(ACL_INT64, {2}, {2, 0});
  Tensor o = zeros(ACL_FLOAT, {2, 4});
  RUN_OK(indexSelect(Mode::Run, x, 0, idx, o));
  expectNear(read(o), {8, 9, 10, 11, 0, 1, 2, 3});
  Tensor oc = zeros(ACL_FLOAT16, {3, 2});
  RUN_OK(indexSelect(Mode::Run, x, 1, make(ACL_INT32, {2}, {3, 1}), oc));
  expectNear(read(oc), {3, 1, 7, 5, 11, 9}, 0);
  FAILS(indexSelect(Mode::Run, x, 0, make(ACL_INT64, {2}, {3, 0}), o),
        "out of range");
  FAILS(indexSelect(Mode::Check, x, 0, make(ACL_FLOAT, {2}, {}), o), "Long");
  // gather(dim=1): out[i][j] = x[i][index[i][j]].
  Tensor gi = make(ACL_INT64, {2, 3}, {3, 0, 0, 1, 2, 3});
  Tensor go = zeros(ACL_FLOAT, {2, 3});
  RUN_OK(gather(Mode::Run, x, 1, gi, go));
  expectNear(read(go), {3, 0, 0, 5, 6, 7});
  FAILS(gather(Mode::Check, x, 1, make(ACL_INT64, {4, 1}, {}),
               zeros(ACL_FLOAT, {4, 1})),
        "larger");
  // scatter(dim=0): out[index[i][j]][j] = src[i][j]; then with add.
  Tensor self = make(ACL_FLOAT, {3, 2}, {0, 0, 0, 0, 0, 0});
  Tensor si = make(ACL_INT64, {2, 2}, {2, 0, 2, 1});
  Tensor src = make(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  Tensor so = zeros(ACL_FLOAT, {3, 2});
  RUN_OK(scatter(Mode::Run, self, 0, si, src, ScatterReduce::None, so));
  expectNear(read(so), {0, 2, 0, 4, 3, 0}); // the later write wins
  RUN_OK(scatter(Mode::Run, self, 0, si, src, ScatterReduce::Add, so));
  expectNear(read(so), {0, 2, 0, 4, 4, 0});
  // In place, on self itself, with a value.
  RUN_OK(scatterValue(Mode::Run, self, 1, make(ACL_INT32, {3, 1}, {1, 0, 1}),
                      Scalar::ofDouble(9), ScatterReduce::None, self));
  expectNear(read(self), {0, 9, 9, 0, 0, 9});
  FAILS(scatter(Mode::Run, self, 0, make(ACL_INT64, {1, 1}, {5}), src,
                ScatterReduce::None, so),
        "out of bounds");
  // embedding: rows of weight by indices [2,2] -> out [2,2,3].
  Tensor w = make(ACL_BF16, {4, 3}, iota(12, 0));
  Tensor ei = make(ACL_INT32, {2, 2}, {3, 0, 1, 3});
  Tensor eo = zeros(ACL_BF16, {2, 2, 3});
  RUN_OK(embedding(Mode::Run, w, ei, eo));
  expectNear(read(eo), {9, 10, 11, 0, 1, 2, 3, 4, 5, 9, 10, 11}, 0);
  FAILS(embedding(Mode::Check, w, ei, zeros(ACL_BF16, {2, 3})), "shape");
}

TEST(AclnnKernels, ArangeRepeatPad) {
  Tensor a = zeros(ACL_FLOAT, {4});
  RUN_OK(arange(Mode::Run, Scalar::ofDouble(0), Scalar::ofDouble(1),
                Scalar::ofDouble(0.3), a));
  expectNear(read(a), {0, 0.3, 0.6, 0.9});
  Tensor ai = zeros(ACL_INT64, {3});
  RUN_OK(arange(Mode::Run, Scalar::ofInt(10), Scalar::ofInt(1),
                Scalar::ofInt(-4), ai));
  expectNear(read(ai), {10, 6, 2}, 0);
  FAILS(arange(Mode::Check, Scalar::ofInt(0), Scalar::ofInt(5),
               Scalar::ofInt(1), ai),
        "shape");
  FAILS(arange(Mode::Check, Scalar::ofInt(0), Scalar::ofInt(5),
               Scalar::ofInt(-1), ai),
        "sign");
  // repeat [2] by (2, 3) -> [2, 6]; a transposed [2,2] fp16 by (1, 2).
  Tensor r = make(ACL_INT8, {2}, {1, 2});
  Tensor ro = zeros(ACL_INT8, {2, 6});
  RUN_OK(repeat(Mode::Run, r, {2, 3}, ro));
  expectNear(read(ro), {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, 0);
  Tensor h = make(ACL_FLOAT16, {2, 2}, {1, 2, 3, 4});
  Tensor ho = zeros(ACL_FLOAT16, {2, 4});
  RUN_OK(repeat(Mode::Run, transposed(h), {1, 2}, ho));
  expectNear(read(ho), {1, 3, 1, 3, 2, 4, 2, 4}, 0);
  FAILS(repeat(Mode::Check, h, {2}, ho), "smaller");
  // pad (1, 2) on the last dim and (-1, 0) on the first (crop a row).
  Tensor x = make(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  Tensor xo = zeros(ACL_FLOAT, {1, 5});
  RUN_OK(constantPad(Mode::Run, x, {1, 2, -1, 0}, Scalar::ofDouble(-1), xo));
  expectNear(read(xo), {-1, 3, 4, -1, -1});
  Tensor bo = zeros(ACL_BF16, {4, 4});
  RUN_OK(constantPad(Mode::Run, transposed(x), {1, 1, 1, 1}, Scalar::ofInt(0),
                     bo));
  expectNear(read(bo), {0, 0, 0, 0, 0, 1, 3, 0, 0, 2, 4, 0, 0, 0, 0, 0}, 0);
  FAILS(constantPad(Mode::Check, x, {1}, Scalar::ofInt(0), xo), "even");
  FAILS(constantPad(Mode::Check, x, {-3, 0}, Scalar::ofInt(0), xo),
        "negative output size");
}

} // namespace
