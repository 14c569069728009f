//===- reduce.cpp - HCCL's element types and reductions -------------------===//
#include "reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace mssim {
namespace hccl {

size_t elementSize(HcclDataType type) {
  switch (type) {
  case HCCL_DATA_TYPE_INT8:
  case HCCL_DATA_TYPE_UINT8:
  case HCCL_DATA_TYPE_HIF8:
  case HCCL_DATA_TYPE_FP8E4M3:
  case HCCL_DATA_TYPE_FP8E5M2:
  case HCCL_DATA_TYPE_FP8E8M0:
    return 1;
  case HCCL_DATA_TYPE_INT16:
  case HCCL_DATA_TYPE_UINT16:
  case HCCL_DATA_TYPE_FP16:
  case HCCL_DATA_TYPE_BFP16:
    return 2;
  case HCCL_DATA_TYPE_INT32:
  case HCCL_DATA_TYPE_UINT32:
  case HCCL_DATA_TYPE_FP32:
    return 4;
  case HCCL_DATA_TYPE_INT64:
  case HCCL_DATA_TYPE_UINT64:
  case HCCL_DATA_TYPE_FP64:
    return 8;
  case HCCL_DATA_TYPE_INT128:
    return 16;
  default:
    return 0;
  }
}

HcclResult checkType(HcclDataType type, bool reduces) {
  if (elementSize(type) == 0 || type == HCCL_DATA_TYPE_INT128)
    return HCCL_E_NOT_SUPPORT;
  if (!reduces)
    return HCCL_SUCCESS;
  switch (type) {
  case HCCL_DATA_TYPE_UINT8:
  case HCCL_DATA_TYPE_UINT16:
  case HCCL_DATA_TYPE_UINT32:
  case HCCL_DATA_TYPE_HIF8:
  case HCCL_DATA_TYPE_FP8E4M3:
  case HCCL_DATA_TYPE_FP8E5M2:
  case HCCL_DATA_TYPE_FP8E8M0:
    return HCCL_E_NOT_SUPPORT;
  default:
    return HCCL_SUCCESS;
  }
}

HcclResult checkOp(HcclDataType type, HcclReduceOp op) {
  switch (op) {
  case HCCL_REDUCE_SUM:
  case HCCL_REDUCE_MAX:
  case HCCL_REDUCE_MIN:
    return HCCL_SUCCESS;
  case HCCL_REDUCE_PROD:
    // The real library multiplies neither int16 nor bfloat16.
    return type == HCCL_DATA_TYPE_INT16 || type == HCCL_DATA_TYPE_BFP16
               ? HCCL_E_NOT_SUPPORT
               : HCCL_SUCCESS;
  default:
    return HCCL_E_PARA;
  }
}

float halfToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      float value = std::ldexp(static_cast<float>(mantissa), -24);
      return sign ? -value : value;
    }
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) // NaN: keep it a quiet NaN
    return sign | 0x7e00 | static_cast<uint16_t>((magnitude >> 13) & 0x3ff);
  if (magnitude >= 0x477ff000) // rounds to infinity (65520 and above)
    return sign | 0x7c00;
  if (magnitude < 0x38800000) { // below the smallest normal half
    // Subnormal: the value in units of 2^-24, rounded to nearest even.
    float scaled = std::ldexp(std::fabs(value), 24);
    float rounded = std::nearbyint(scaled); // default mode: ties to even
    return sign | static_cast<uint16_t>(rounded);
  }
  uint32_t exponent = (magnitude >> 23) - 112;
  uint32_t mantissa = magnitude & 0x7fffff;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, as it should
  return sign | static_cast<uint16_t>(half);
}

float bfloat16ToFloat(uint16_t value) {
  uint32_t bits = uint32_t(value) << 16;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

uint16_t floatToBfloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

namespace {

/// The unsigned twin of an integer type (wrapping arithmetic), a floating
/// type itself.
template <typename T, bool = std::is_integral<T>::value> struct Arithmetic {
  using Type = std::make_unsigned_t<T>;
};
template <typename T> struct Arithmetic<T, false> { using Type = T; };

template <typename T> T combine(T a, T b, HcclReduceOp op) {
  using Wide = typename Arithmetic<T>::Type;
  switch (op) {
  case HCCL_REDUCE_SUM:
    return static_cast<T>(static_cast<Wide>(a) + static_cast<Wide>(b));
  case HCCL_REDUCE_PROD:
    return static_cast<T>(static_cast<Wide>(a) * static_cast<Wide>(b));
  case HCCL_REDUCE_MAX:
    return std::max(a, b);
  default:
    return std::min(a, b);
  }
}

template <typename T>
void reduceTyped(uint8_t *acc, const uint8_t *in, size_t count,
                 HcclReduceOp op) {
  for (size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, acc + i * sizeof(T), sizeof(T));
    std::memcpy(&b, in + i * sizeof(T), sizeof(T));
    a = combine(a, b, op);
    std::memcpy(acc + i * sizeof(T), &a, sizeof(T));
  }
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
void reduceHalf(uint8_t *acc, const uint8_t *in, size_t count,
                HcclReduceOp op) {
  for (size_t i = 0; i < count; ++i) {
    uint16_t a, b;
    std::memcpy(&a, acc + i * 2, 2);
    std::memcpy(&b, in + i * 2, 2);
    uint16_t result = FromFloat(combine(ToFloat(a), ToFloat(b), op));
    std::memcpy(acc + i * 2, &result, 2);
  }
}

} // namespace

void reduceInto(uint8_t *acc, const uint8_t *in, size_t count,
                HcclDataType type, HcclReduceOp op) {
  switch (type) {
  case HCCL_DATA_TYPE_INT8:
    return reduceTyped<int8_t>(acc, in, count, op);
  case HCCL_DATA_TYPE_INT16:
    return reduceTyped<int16_t>(acc, in, count, op);
  case HCCL_DATA_TYPE_INT32:
    return reduceTyped<int32_t>(acc, in, count, op);
  case HCCL_DATA_TYPE_INT64:
    return reduceTyped<int64_t>(acc, in, count, op);
  case HCCL_DATA_TYPE_UINT64:
    return reduceTyped<uint64_t>(acc, in, count, op);
  case HCCL_DATA_TYPE_FP32:
    return reduceTyped<float>(acc, in, count, op);
  case HCCL_DATA_TYPE_FP64:
    return reduceTyped<double>(acc, in, count, op);
  case HCCL_DATA_TYPE_FP16:
    return reduceHalf<halfToFloat, floatToHalf>(acc, in, count, op);
  case HCCL_DATA_TYPE_BFP16:
    return reduceHalf<bfloat16ToFloat, floatToBfloat16>(acc, in, count, op);
  default:
    return;
  }
}

} // namespace hccl
} // namespace mssim
