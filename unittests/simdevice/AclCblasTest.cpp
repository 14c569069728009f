//===- AclCblasTest.cpp - libacl_cblas.so's products on the host ----------===//
#include "AclTestSupport.h"
#include "acl/ops/acl_cblas.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using AclCblas = AclTest;

/// Host values copied to new device memory.
template <typename T> void *onDevice(const std::vector<T> &values) {
  void *device = nullptr;
  size_t bytes = values.size() * sizeof(T);
  EXPECT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(device, bytes, values.data(), bytes,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  return device;
}

template <typename T> std::vector<T> fromDevice(void *device, size_t count) {
  std::vector<T> values(count);
  EXPECT_EQ(aclrtMemcpy(values.data(), count * sizeof(T), device,
                        count * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  return values;
}

std::vector<aclFloat16> halves(const std::vector<float> &values) {
  std::vector<aclFloat16> out;
  for (float value : values)
    out.push_back(aclFloatToFloat16(value));
  return out;
}

} // namespace

TEST_F(AclCblas, GemmExIsRowMajorWithAlphaAndBeta) {
  // A 2x3, B 3x2 (fp16), C 2x2 (fp32): C = 2 * A * B + 1 * C.
  void *a = onDevice(halves({1, 2, 3, 4, 5, 6}));
  void *b = onDevice(halves({7, 8, 9, 10, 11, 12}));
  void *c = onDevice(std::vector<float>{1, 1, 1, 1});
  void *alpha = onDevice(std::vector<float>{2});
  void *beta = onDevice(std::vector<float>{1});
  ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 3, alpha,
                          a, -1, ACL_FLOAT16, b, -1, ACL_FLOAT16, beta, c, -1,
                          ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(
      fromDevice<float>(c, 4),
      (std::vector<float>{2 * 58 + 1, 2 * 64 + 1, 2 * 139 + 1, 2 * 154 + 1}));
  // op(A) = A^T with A stored 3x2: the same product as A' = {1,3,5;2,4,6}.
  void *t = onDevice(halves({1, 4, 2, 5, 3, 6}));
  void *zero = onDevice(std::vector<float>{0});
  ASSERT_EQ(aclblasGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 3, alpha,
                          t, -1, ACL_FLOAT16, b, -1, ACL_FLOAT16, zero, c, -1,
                          ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(fromDevice<float>(c, 4), (std::vector<float>{116, 128, 278, 308}));
  for (void *p : {a, b, c, alpha, beta, t, zero})
    aclrtFree(p);
}

TEST_F(AclCblas, IntegerProductsAndVectors) {
  void *a = onDevice(std::vector<int8_t>{1, -2, 3, 4});
  void *x = onDevice(std::vector<int8_t>{5, 6});
  void *y = onDevice(std::vector<int32_t>{100, 200});
  void *one = onDevice(std::vector<int32_t>{1});
  void *zero = onDevice(std::vector<int32_t>{0});
  // y = A x, A 2x2.
  ASSERT_EQ(
      aclblasS8gemv(ACL_TRANS_N, 2, 2, static_cast<int32_t *>(one),
                    static_cast<int8_t *>(a), -1, static_cast<int8_t *>(x), -1,
                    static_cast<int32_t *>(zero), static_cast<int32_t *>(y), -1,
                    ACL_COMPUTE_HIGH_PRECISION, nullptr),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(fromDevice<int32_t>(y, 2), (std::vector<int32_t>{-7, 39}));
  for (void *p : {a, x, y, one, zero})
    aclrtFree(p);
}

TEST_F(AclCblas, WhatTheLibraryRefuses) {
  void *m = onDevice(std::vector<float>(16, 1.0f));
  std::vector<float> host(16, 1.0f);
  // fp32 inputs are no combination BLAS computes.
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, m, m,
                          -1, ACL_FLOAT, m, -1, ACL_FLOAT, m, m, -1, ACL_FLOAT,
                          ACL_COMPUTE_HIGH_PRECISION, nullptr),
            ACL_ERROR_UNSUPPORTED_DATA_TYPE);
  // Host memory is not an operand.
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, m,
                          host.data(), -1, ACL_FLOAT16, m, -1, ACL_FLOAT16, m,
                          m, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION,
                          nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, m, m,
                          -1, ACL_FLOAT16, m, -1, ACL_FLOAT16, m, m, -1,
                          ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, nullptr),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_T, 2, 2, 2, m, m,
                          -1, ACL_FLOAT16, m, -1, ACL_FLOAT16, m, m, -1,
                          ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, nullptr),
            ACL_ERROR_INVALID_PARAM)
      << "transC is ACL_TRANS_N only";
  aclrtFree(m);
}
