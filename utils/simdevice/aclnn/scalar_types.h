//===- scalar_types.h - float16 / bfloat16 conversions -----------*- C++
//-*-===//
//
// Contract: bit-exact conversions between IEEE binary16 (float16), bfloat16
// and float / double, as a device and PyTorch do them: widening is exact;
// narrowing rounds to nearest, ties to even, overflows to infinity, keeps
// the sign of zero, and turns a NaN into a quiet NaN of the same sign.
// Narrowing from double is correctly rounded (one rounding, not two: the
// double is first rounded to float by round-to-odd, which a second
// round-to-nearest-even to 16 bits cannot distinguish from the exact value).
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACLNN_SCALAR_TYPES_H
#define MSSIM_ACLNN_SCALAR_TYPES_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mssim::nn {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// binary16 bits to float (exact).
inline float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) // inf / NaN
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0)
      return bitsFloat(sign);
    // Subnormal: mant * 2^-24, exact in float.
    float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// float to binary16 bits, round to nearest even.
inline uint16_t floatToHalf(float f) {
  uint32_t u = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t absu = u & 0x7fffffffu;
  if (absu > 0x7f800000u) // NaN: keep the top mantissa bits, stay quiet
    return static_cast<uint16_t>(sign | 0x7e00u | ((absu >> 13) & 0x3ffu));
  if (absu >= 0x477ff000u) // >= 65520 rounds to infinity (inf included)
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (absu < 0x38800000u) { // below the smallest normal half (2^-14)
    // Subnormal or zero: value / 2^-24, rounded to nearest even.
    float a = bitsFloat(absu);
    float scaled = a * 16777216.0f;   // exact (power of two)
    float r = std::nearbyint(scaled); // default rounding mode: ties to even
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(r));
  }
  uint32_t exp = (absu >> 23) - 112;
  uint32_t mant = absu & 0x7fffffu;
  uint32_t half = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, up to infinity: correct
  return static_cast<uint16_t>(sign | half);
}

/// bfloat16 bits to float (exact).
inline float bf16ToFloat(uint16_t b) {
  return bitsFloat(static_cast<uint32_t>(b) << 16);
}

/// float to bfloat16 bits, round to nearest even.
inline uint16_t floatToBf16(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN, quiet
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7fffu + lsb;
  return static_cast<uint16_t>(u >> 16);
}

/// double to float rounded to odd: truncate toward zero, then set the last
/// bit if inexact. Rounding that float again to a format of at most 22
/// significant bits gives the correctly rounded result of the double.
inline float doubleToFloatOdd(double d) {
  float f = static_cast<float>(d);
  if (std::isnan(d) || std::isinf(d) || static_cast<double>(f) == d)
    return f;
  uint32_t u = floatBits(f);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d))
    --u; // one step toward zero (inf steps back to FLT_MAX)
  return bitsFloat(u | 1u);
}

inline uint16_t doubleToHalf(double d) {
  return floatToHalf(doubleToFloatOdd(d));
}
inline uint16_t doubleToBf16(double d) {
  return floatToBf16(doubleToFloatOdd(d));
}

} // namespace mssim::nn

#endif // MSSIM_ACLNN_SCALAR_TYPES_H
