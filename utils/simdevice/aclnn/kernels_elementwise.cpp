//===- kernels_elementwise.cpp - Element-wise aclnn kernels ---------------===//
//
// Binary arithmetic, unary math, comparisons, logic and where (kernels.h).
//
//===----------------------------------------------------------------------===//
#include "kernels_internal.h"

#include <algorithm>

namespace mssim::nn {

using namespace detail;

namespace {

const char *binaryName(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "add";
  case BinaryOp::Sub:
    return "sub";
  case BinaryOp::Mul:
    return "mul";
  case BinaryOp::Div:
    return "div";
  case BinaryOp::DivTrunc:
    return "div(trunc)";
  case BinaryOp::DivFloor:
    return "floor_divide";
  case BinaryOp::Pow:
    return "pow";
  case BinaryOp::Maximum:
    return "maximum";
  case BinaryOp::Minimum:
    return "minimum";
  case BinaryOp::Remainder:
    return "remainder";
  case BinaryOp::Fmod:
    return "fmod";
  }
  return "binary";
}

// One operand: a tensor or a Scalar.
struct Operand {
  const TensorView *t = nullptr;
  const Scalar *s = nullptr;
  aclDataType dtype() const { return t ? t->dtype : s->dtype; }
  std::vector<int64_t> shape() const {
    return t ? t->shape : std::vector<int64_t>{};
  }
};

template <class C> C wrapAdd(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return static_cast<C>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return a + b;
}
template <class C> C wrapSub(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return static_cast<C>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  else
    return a - b;
}
template <class C> C wrapMul(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return static_cast<C>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return a * b;
}

template <class C> C floorDivFloat(C a, C b) {
  if (b == 0)
    return a / b;
  C mod = std::fmod(a, b);
  C div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= 1;
  if (div == 0)
    return std::copysign(C(0), a / b);
  C fl = std::floor(div);
  if (div - fl > C(0.5))
    fl += 1;
  return fl;
}

int64_t intPow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1)
      return 1;
    if (base == -1)
      return (exp & 1) ? -1 : 1;
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);
  for (auto e = static_cast<uint64_t>(exp); e; e >>= 1) {
    if (e & 1)
      result *= b;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

// op(a, b); *zero set on an integer division by zero.
template <class C> C applyBinary(BinaryOp op, C a, C b, bool *zero) {
  constexpr bool isInt = std::is_integral_v<C>;
  switch (op) {
  case BinaryOp::Add:
    return wrapAdd(a, b);
  case BinaryOp::Sub:
    return wrapSub(a, b);
  case BinaryOp::Mul:
    return wrapMul(a, b);
  case BinaryOp::Div:
  case BinaryOp::DivTrunc:
    if constexpr (isInt) {
      if (b == 0) {
        *zero = true;
        return 0;
      }
      if (b == -1)
        return wrapSub<C>(0, a);
      return a / b;
    } else {
      return op == BinaryOp::Div ? a / b : std::trunc(a / b);
    }
  case BinaryOp::DivFloor:
    if constexpr (isInt) {
      if (b == 0) {
        *zero = true;
        return 0;
      }
      if (b == -1)
        return wrapSub<C>(0, a);
      C q = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0)))
        --q;
      return q;
    } else {
      return floorDivFloat(a, b);
    }
  case BinaryOp::Pow:
    if constexpr (isInt)
      return intPow(a, b);
    else
      return std::pow(a, b);
  case BinaryOp::Maximum:
  case BinaryOp::Minimum:
    if constexpr (!isInt) {
      if (std::isnan(a) || std::isnan(b))
        return std::numeric_limits<C>::quiet_NaN();
    }
    return op == BinaryOp::Maximum ? std::max(a, b) : std::min(a, b);
  case BinaryOp::Remainder:
  case BinaryOp::Fmod:
    if constexpr (isInt) {
      if (b == 0) {
        *zero = true;
        return 0;
      }
      if (b == -1)
        return 0;
      C r = a % b;
      if (op == BinaryOp::Remainder && r != 0 && ((r < 0) != (b < 0)))
        r += b;
      return r;
    } else {
      C r = std::fmod(a, b);
      if (op == BinaryOp::Remainder && r != 0 && ((r < 0) != (b < 0)))
        r += b;
      return r;
    }
  }
  return a;
}

std::string binaryImpl(Mode mode, BinaryOp op, Operand a, Operand b,
                       const TensorView &out, const Scalar *alpha) {
  const char *name = binaryName(op);
  std::string e;
  std::string what = std::string(name);
  if (a.t && !(e = checkView(*a.t, (what + ": self").c_str(), mode)).empty())
    return e;
  if (b.t && !(e = checkView(*b.t, (what + ": other").c_str(), mode)).empty())
    return e;
  if (!(e = checkView(out, (what + ": out").c_str(), mode)).empty())
    return e;
  if (!isSupportedDtype(a.dtype()) || !isSupportedDtype(b.dtype()) ||
      (alpha && !isSupportedDtype(alpha->dtype)))
    return msg(name, "unsupported scalar dtype");
  if (alpha && op != BinaryOp::Add && op != BinaryOp::Sub)
    return msg(name, "alpha applies to add and sub only");
  aclDataType promoted;
  if (a.t && b.t)
    promoted = promoteTypes(a.dtype(), b.dtype());
  else if (a.t)
    promoted = promoteWithScalar(a.dtype(), b.dtype());
  else
    promoted = promoteWithScalar(b.dtype(), a.dtype());
  aclDataType result = promoted;
  if (op == BinaryOp::Div && !isFloatingDtype(promoted))
    result = ACL_FLOAT; // true division
  if (op == BinaryOp::Sub && promoted == ACL_BOOL)
    return msg(name, "subtraction with two bool operands is not supported, "
                     "use logical_xor");
  if (alpha && !isFloatingDtype(promoted) && isFloatingDtype(alpha->dtype))
    return msg(name, "for integral input tensors, argument alpha must not be "
                     "a floating point number");
  if (alpha && alpha->dtype == ACL_BOOL && promoted != ACL_BOOL)
    return msg(name, "boolean alpha only supported for boolean results");
  std::vector<int64_t> shape;
  if (!broadcastShapes(a.shape(), b.shape(), &shape))
    return msg(name, "shapes ", shapeStr(a.shape()), " and ",
               shapeStr(b.shape()), " do not broadcast");
  if (!(e = expectShape(name, "out", out, shape)).empty())
    return e;
  if (!canCast(result, out.dtype))
    return msg(name, "result type ", dtypeName(result),
               " can't be cast to the desired output type ",
               dtypeName(out.dtype));
  if (mode == Mode::Check)
    return {};

  OutputView ov(out, {a.t, b.t});
  const TensorView &o = ov.view();
  TensorView none;
  const TensorView &ta = a.t ? *a.t : none, &tb = b.t ? *b.t : none;
  std::vector<std::vector<int64_t>> strides = {
      a.t ? expandStrides(ta, shape) : std::vector<int64_t>(shape.size(), 0),
      b.t ? expandStrides(tb, shape) : std::vector<int64_t>(shape.size(), 0),
      o.strides};
  bool zero = false;
  bool round = o.dtype != result;
  withDomain(result, [&](auto tag) {
    using C = decltype(tag);
    C sa = a.s ? scalarAs<C>(*a.s) : C{}, sb = b.s ? scalarAs<C>(*b.s) : C{};
    bool scaled = alpha && scalarAs<C>(*alpha) != C(1);
    C al = alpha ? scalarAs<C>(*alpha) : C(1);
    if (result == ACL_BOOL && alpha)
      al = alpha->toInt() != 0;
    walk(shape, strides, {ta.offset, tb.offset, o.offset},
         [&](const int64_t *off) {
           C x = a.t ? load<C>(ta.dtype, at(ta, off[0])) : sa;
           C y = b.t ? load<C>(tb.dtype, at(tb, off[1])) : sb;
           if (scaled)
             y = wrapMul(y, al);
           C r = applyBinary<C>(op, x, y, &zero);
           if (round)
             r = roundTo<C>(result, r);
           store<C>(o.dtype, at(o, off[2]), r);
         });
  });
  if (zero)
    return msg(name, "integer division by zero");
  ov.finish();
  return {};
}

} // namespace

std::string binary(Mode mode, BinaryOp op, const TensorView &self,
                   const TensorView &other, const TensorView &out,
                   const Scalar *alpha) {
  return binaryImpl(mode, op, {&self, nullptr}, {&other, nullptr}, out, alpha);
}

std::string binaryScalar(Mode mode, BinaryOp op, const TensorView &self,
                         const Scalar &other, const TensorView &out,
                         const Scalar *alpha) {
  return binaryImpl(mode, op, {&self, nullptr}, {nullptr, &other}, out, alpha);
}

std::string scalarBinary(Mode mode, BinaryOp op, const Scalar &self,
                         const TensorView &other, const TensorView &out,
                         const Scalar *alpha) {
  return binaryImpl(mode, op, {nullptr, &self}, {&other, nullptr}, out, alpha);
}

//===-- Unary -------------------------------------------------------------===//

namespace {

const char *unaryName(UnaryOp op) {
  switch (op) {
  case UnaryOp::Abs:
    return "abs";
  case UnaryOp::Neg:
    return "neg";
  case UnaryOp::Sign:
    return "sign";
  case UnaryOp::Floor:
    return "floor";
  case UnaryOp::Ceil:
    return "ceil";
  case UnaryOp::Round:
    return "round";
  case UnaryOp::Relu:
    return "relu";
  case UnaryOp::Exp:
    return "exp";
  case UnaryOp::Log:
    return "log";
  case UnaryOp::Sqrt:
    return "sqrt";
  case UnaryOp::Rsqrt:
    return "rsqrt";
  case UnaryOp::Sin:
    return "sin";
  case UnaryOp::Cos:
    return "cos";
  case UnaryOp::Tanh:
    return "tanh";
  case UnaryOp::Sigmoid:
    return "sigmoid";
  case UnaryOp::Erf:
    return "erf";
  case UnaryOp::Reciprocal:
    return "reciprocal";
  case UnaryOp::Gelu:
    return "gelu";
  case UnaryOp::GeluTanh:
    return "gelu(tanh)";
  case UnaryOp::Silu:
    return "silu";
  }
  return "unary";
}

bool keepsDtype(UnaryOp op) {
  return op == UnaryOp::Abs || op == UnaryOp::Neg || op == UnaryOp::Sign ||
         op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Round ||
         op == UnaryOp::Relu;
}

template <class C> C applyUnary(UnaryOp op, C x) {
  if constexpr (std::is_integral_v<C>) {
    switch (op) {
    case UnaryOp::Abs:
      return x < 0 ? wrapSub<C>(0, x) : x;
    case UnaryOp::Neg:
      return wrapSub<C>(0, x);
    case UnaryOp::Sign:
      return (0 < x) - (x < 0);
    case UnaryOp::Relu:
      return x < 0 ? 0 : x;
    default: // floor, ceil, round: identity on integers
      return x;
    }
  } else {
    const C one = 1, half = C(0.5);
    switch (op) {
    case UnaryOp::Abs:
      return std::fabs(x);
    case UnaryOp::Neg:
      return -x;
    case UnaryOp::Sign:
      return static_cast<C>((C(0) < x) - (x < C(0)));
    case UnaryOp::Floor:
      return std::floor(x);
    case UnaryOp::Ceil:
      return std::ceil(x);
    case UnaryOp::Round:
      return std::nearbyint(x);
    case UnaryOp::Relu:
      return x < C(0) ? C(0) : x;
    case UnaryOp::Exp:
      return std::exp(x);
    case UnaryOp::Log:
      return std::log(x);
    case UnaryOp::Sqrt:
      return std::sqrt(x);
    case UnaryOp::Rsqrt:
      return one / std::sqrt(x);
    case UnaryOp::Sin:
      return std::sin(x);
    case UnaryOp::Cos:
      return std::cos(x);
    case UnaryOp::Tanh:
      return std::tanh(x);
    case UnaryOp::Sigmoid:
      return one / (one + std::exp(-x));
    case UnaryOp::Erf:
      return std::erf(x);
    case UnaryOp::Reciprocal:
      return one / x;
    case UnaryOp::Gelu:
      return x * half * (one + std::erf(x * C(0.70710678118654752440)));
    case UnaryOp::GeluTanh: {
      C inner = C(0.79788456080286535588) * (x + C(0.044715) * x * x * x);
      return half * x * (one + std::tanh(inner));
    }
    case UnaryOp::Silu:
      return x / (one + std::exp(-x));
    }
    return x;
  }
}

} // namespace

std::string unary(Mode mode, UnaryOp op, const TensorView &self,
                  const TensorView &out) {
  const char *name = unaryName(op);
  std::string what = name, e;
  if (!(e = checkView(self, (what + ": self").c_str(), mode)).empty() ||
      !(e = checkView(out, (what + ": out").c_str(), mode)).empty() ||
      !(e = expectShape(name, "out", out, self.shape)).empty())
    return e;
  bool floatOnly =
      op == UnaryOp::Gelu || op == UnaryOp::GeluTanh || op == UnaryOp::Silu;
  if (floatOnly && !isFloatingDtype(self.dtype))
    return msg(name, "not implemented for '", dtypeName(self.dtype), "'");
  if (op == UnaryOp::Neg && self.dtype == ACL_BOOL)
    return msg(name, "negation on a bool tensor is not supported, use "
                     "logical_not");
  aclDataType result = self.dtype;
  if (!keepsDtype(op) && !isFloatingDtype(self.dtype))
    result = ACL_FLOAT;
  if (!canCast(result, out.dtype))
    return msg(name, "result type ", dtypeName(result),
               " can't be cast to the desired output type ",
               dtypeName(out.dtype));
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  bool round = o.dtype != result;
  withDomain(result, [&](auto tag) {
    using C = decltype(tag);
    walk(self.shape, {self.strides, o.strides}, {self.offset, o.offset},
         [&](const int64_t *off) {
           C r = applyUnary<C>(op, load<C>(self.dtype, at(self, off[0])));
           if (round)
             r = roundTo<C>(result, r);
           store<C>(o.dtype, at(o, off[1]), r);
         });
  });
  ov.finish();
  return {};
}

//===-- Comparisons, logic, where -----------------------------------------===//

namespace {

const char *compareName(CompareOp op) {
  static const char *names[] = {"eq", "ne", "gt", "ge", "lt", "le"};
  return names[static_cast<int>(op)];
}

template <class C> bool applyCompare(CompareOp op, C a, C b) {
  switch (op) {
  case CompareOp::Eq:
    return a == b;
  case CompareOp::Ne:
    return a != b;
  case CompareOp::Gt:
    return a > b;
  case CompareOp::Ge:
    return a >= b;
  case CompareOp::Lt:
    return a < b;
  case CompareOp::Le:
    return a <= b;
  }
  return false;
}

// Checks two operands (b a tensor or a Scalar) broadcast into out of any
// dtype; the broadcast shape in *shape.
std::string checkPair(const char *name, Mode mode, const TensorView &a,
                      const TensorView *b, const Scalar *s,
                      const TensorView &out, std::vector<int64_t> *shape) {
  std::string what = name, e;
  if (!(e = checkView(a, (what + ": self").c_str(), mode)).empty())
    return e;
  if (b && !(e = checkView(*b, (what + ": other").c_str(), mode)).empty())
    return e;
  if (!(e = checkView(out, (what + ": out").c_str(), mode)).empty())
    return e;
  if (s && !isSupportedDtype(s->dtype))
    return msg(name, "unsupported scalar dtype ", static_cast<int>(s->dtype));
  std::vector<int64_t> bs = b ? b->shape : std::vector<int64_t>{};
  if (!broadcastShapes(a.shape, bs, shape))
    return msg(name, "shapes ", shapeStr(a.shape), " and ", shapeStr(bs),
               " do not broadcast");
  return expectShape(name, "out", out, *shape);
}

std::string compareImpl(Mode mode, CompareOp op, const TensorView &a,
                        const TensorView *b, const Scalar *s,
                        const TensorView &out) {
  const char *name = compareName(op);
  std::vector<int64_t> shape;
  std::string e = checkPair(name, mode, a, b, s, out, &shape);
  if (!e.empty() || mode == Mode::Check)
    return e;
  aclDataType promoted = b ? promoteTypes(a.dtype, b->dtype)
                           : promoteWithScalar(a.dtype, s->dtype);
  OutputView ov(out, {&a, b});
  const TensorView &o = ov.view();
  TensorView none;
  const TensorView &tb = b ? *b : none;
  std::vector<std::vector<int64_t>> strides = {
      expandStrides(a, shape),
      b ? expandStrides(tb, shape) : std::vector<int64_t>(shape.size(), 0),
      o.strides};
  withDomain(promoted, [&](auto tag) {
    using C = decltype(tag);
    C sv = s ? scalarAs<C>(*s) : C{};
    walk(shape, strides, {a.offset, tb.offset, o.offset},
         [&](const int64_t *off) {
           C x = roundTo<C>(promoted, load<C>(a.dtype, at(a, off[0])));
           C y =
               b ? roundTo<C>(promoted, load<C>(tb.dtype, at(tb, off[1]))) : sv;
           store<int64_t>(o.dtype, at(o, off[2]),
                          applyCompare(op, x, y) ? 1 : 0);
         });
  });
  ov.finish();
  return {};
}

bool nonzero(const TensorView &t, int64_t offset) {
  const uint8_t *p = at(t, offset);
  if (isFloatingDtype(t.dtype))
    return load<double>(t.dtype, p) != 0; // NaN is true
  return load<int64_t>(t.dtype, p) != 0;
}

} // namespace

std::string compare(Mode mode, CompareOp op, const TensorView &self,
                    const TensorView &other, const TensorView &out) {
  return compareImpl(mode, op, self, &other, nullptr, out);
}

std::string compareScalar(Mode mode, CompareOp op, const TensorView &self,
                          const Scalar &other, const TensorView &out) {
  return compareImpl(mode, op, self, nullptr, &other, out);
}

std::string logical(Mode mode, LogicalOp op, const TensorView &self,
                    const TensorView &other, const TensorView &out) {
  const char *name = op == LogicalOp::And  ? "logical_and"
                     : op == LogicalOp::Or ? "logical_or"
                                           : "logical_xor";
  std::vector<int64_t> shape;
  std::string e = checkPair(name, mode, self, &other, nullptr, out, &shape);
  if (!e.empty() || mode == Mode::Check)
    return e;
  OutputView ov(out, {&self, &other});
  const TensorView &o = ov.view();
  walk(shape,
       {expandStrides(self, shape), expandStrides(other, shape), o.strides},
       {self.offset, other.offset, o.offset}, [&](const int64_t *off) {
         bool x = nonzero(self, off[0]), y = nonzero(other, off[1]);
         bool r = op == LogicalOp::And  ? (x && y)
                  : op == LogicalOp::Or ? (x || y)
                                        : (x != y);
         store<int64_t>(o.dtype, at(o, off[2]), r ? 1 : 0);
       });
  ov.finish();
  return {};
}

std::string logicalNot(Mode mode, const TensorView &self,
                       const TensorView &out) {
  std::string e;
  if (!(e = checkView(self, "logical_not: self", mode)).empty() ||
      !(e = checkView(out, "logical_not: out", mode)).empty() ||
      !(e = expectShape("logical_not", "out", out, self.shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  walk(self.shape, {self.strides, o.strides}, {self.offset, o.offset},
       [&](const int64_t *off) {
         store<int64_t>(o.dtype, at(o, off[1]), nonzero(self, off[0]) ? 0 : 1);
       });
  ov.finish();
  return {};
}

std::string where(Mode mode, const TensorView &condition,
                  const TensorView &self, const TensorView &other,
                  const TensorView &out) {
  std::string e;
  if (!(e = checkView(condition, "where: condition", mode)).empty() ||
      !(e = checkView(self, "where: self", mode)).empty() ||
      !(e = checkView(other, "where: other", mode)).empty() ||
      !(e = checkView(out, "where: out", mode)).empty())
    return e;
  if (condition.dtype != ACL_BOOL && condition.dtype != ACL_UINT8)
    return msg("where", "condition of dtype ", dtypeName(condition.dtype),
               ", expected Bool");
  std::vector<int64_t> s1, shape;
  if (!broadcastShapes(condition.shape, self.shape, &s1) ||
      !broadcastShapes(s1, other.shape, &shape))
    return msg("where", "shapes ", shapeStr(condition.shape), ", ",
               shapeStr(self.shape), " and ", shapeStr(other.shape),
               " do not broadcast");
  if (!(e = expectShape("where", "out", out, shape)).empty())
    return e;
  aclDataType result = promoteTypes(self.dtype, other.dtype);
  if (!canCast(result, out.dtype))
    return msg("where", "result type ", dtypeName(result),
               " can't be cast to the desired output type ",
               dtypeName(out.dtype));
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&condition, &self, &other});
  const TensorView &o = ov.view();
  withDomain(result, [&](auto tag) {
    using C = decltype(tag);
    walk(shape,
         {expandStrides(condition, shape), expandStrides(self, shape),
          expandStrides(other, shape), o.strides},
         {condition.offset, self.offset, other.offset, o.offset},
         [&](const int64_t *off) {
           C r = *at(condition, off[0])
                     ? load<C>(self.dtype, at(self, off[1]))
                     : load<C>(other.dtype, at(other, off[2]));
           store<C>(o.dtype, at(o, off[3]), roundTo<C>(result, r));
         });
  });
  ov.finish();
  return {};
}

} // namespace mssim::nn
