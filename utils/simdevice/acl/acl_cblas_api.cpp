//===- acl_cblas_api.cpp - libacl_cblas.so: GEMM and GEMV on the host -----===//
//
// C = alpha * op(A) * op(B) + beta * C and y = alpha * op(A) * x + beta * y,
// row-major as the real library stores matrices, with its type combinations
// (A and B fp16 into fp16 or fp32, int8 into fp32 or int32; alpha and beta of
// C's type) and its checks. Queued on the stream; the operands are read and
// the result written through the driver, as a DMA would, and must be device
// memory. The leading dimensions and increments are reserved in the real API
// (-1); the packed (NZ) layouts are not simulated and say so.
//
//===----------------------------------------------------------------------===//
#include "acl/ops/acl_cblas.h"
#include "runtime.h"

#include <cstring>
#include <vector>

using namespace mssim;

namespace {

/// The element at `index` of `data` (host bytes of `type`) as a double.
double element(const std::vector<uint8_t> &data, aclDataType type,
               size_t index) {
  const uint8_t *at = data.data() + index * aclDataTypeSize(type);
  switch (type) {
  case ACL_FLOAT16: {
    aclFloat16 half;
    memcpy(&half, at, sizeof half);
    return aclFloat16ToFloat(half);
  }
  case ACL_FLOAT: {
    float value;
    memcpy(&value, at, sizeof value);
    return value;
  }
  case ACL_INT8:
    return static_cast<int8_t>(*at);
  case ACL_INT32: {
    int32_t value;
    memcpy(&value, at, sizeof value);
    return value;
  }
  default:
    return 0;
  }
}

void store(std::vector<uint8_t> &data, aclDataType type, size_t index,
           double value) {
  uint8_t *at = data.data() + index * aclDataTypeSize(type);
  if (type == ACL_FLOAT16) {
    aclFloat16 half = aclFloatToFloat16(static_cast<float>(value));
    memcpy(at, &half, sizeof half);
  } else if (type == ACL_FLOAT) {
    float single = static_cast<float>(value);
    memcpy(at, &single, sizeof single);
  } else if (type == ACL_INT32) {
    int32_t whole = static_cast<int32_t>(value);
    memcpy(at, &whole, sizeof whole);
  }
}

/// The combinations the real library computes.
bool supported(aclDataType a, aclDataType b, aclDataType c) {
  if (a != b)
    return false;
  return (a == ACL_FLOAT16 && (c == ACL_FLOAT16 || c == ACL_FLOAT)) ||
         (a == ACL_INT8 && (c == ACL_FLOAT || c == ACL_INT32));
}

/// `count` elements of `type` at `pointer`, read through the driver.
bool readThrough(const void *pointer, aclDataType type, size_t count,
                 std::vector<uint8_t> *out) {
  return mssim::readDevice(pointer, count * aclDataTypeSize(type), out);
}

/// One matrix product, rows x columns of C, A is rows x inner.
struct Product {
  aclTransType transA, transB;
  size_t rows, columns, inner;
  const void *alpha, *a, *b, *beta;
  void *c;
  aclDataType typeA, typeB, typeC;
};

/// Queues `p` on `stream` after checking what the real library checks.
aclError multiply(const char *api, const Product &p, aclrtStream stream) {
  if (!supported(p.typeA, p.typeB, p.typeC))
    return fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, api,
                "the data types " + std::to_string(p.typeA) + ", " +
                    std::to_string(p.typeB) + " into " +
                    std::to_string(p.typeC) +
                    " are not a combination BLAS computes");
  for (aclTransType trans : {p.transA, p.transB})
    if (trans == ACL_TRANS_NZ || trans == ACL_TRANS_NZ_T)
      return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                  "the packed (NZ) layouts are not simulated");
    else if (trans != ACL_TRANS_N && trans != ACL_TRANS_T)
      return fail(ACL_ERROR_INVALID_PARAM, api, "unknown transpose type");
  for (const void *pointer :
       {p.alpha, p.a, p.b, p.beta, static_cast<const void *>(p.c)})
    if (!inDeviceMemory(pointer))
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "operands, alpha and beta must be in device memory");
  return enqueueTask(api, stream, [p] {
    size_t sizeA = p.rows * p.inner, sizeB = p.inner * p.columns;
    size_t sizeC = p.rows * p.columns;
    std::vector<uint8_t> a, b, c, alpha, beta;
    if (!readThrough(p.a, p.typeA, sizeA, &a) ||
        !readThrough(p.b, p.typeB, sizeB, &b) ||
        !readThrough(p.c, p.typeC, sizeC, &c) ||
        !readThrough(p.alpha, p.typeC, 1, &alpha) ||
        !readThrough(p.beta, p.typeC, 1, &beta))
      return ACL_ERROR_RT_PARAM_INVALID;
    double scaleAB = element(alpha, p.typeC, 0);
    double scaleC = element(beta, p.typeC, 0);
    for (size_t i = 0; i < p.rows; ++i)
      for (size_t j = 0; j < p.columns; ++j) {
        double sum = 0;
        for (size_t l = 0; l < p.inner; ++l) {
          size_t atA =
              p.transA == ACL_TRANS_N ? i * p.inner + l : l * p.rows + i;
          size_t atB =
              p.transB == ACL_TRANS_N ? l * p.columns + j : j * p.inner + l;
          sum += element(a, p.typeA, atA) * element(b, p.typeB, atB);
        }
        size_t atC = i * p.columns + j;
        double before = scaleC == 0 ? 0 : element(c, p.typeC, atC);
        store(c, p.typeC, atC, scaleAB * sum + scaleC * before);
      }
    return mssim::writeDevice(p.c, c) ? ACL_SUCCESS
                                      : ACL_ERROR_RT_PARAM_INVALID;
  });
}

bool reserved(int leading) { return leading == -1 || leading > 0; }

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError
aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC,
              int m, int n, int k, const void *alpha, const void *matrixA,
              int lda, aclDataType dataTypeA, const void *matrixB, int ldb,
              aclDataType dataTypeB, const void *beta, void *matrixC, int ldc,
              aclDataType dataTypeC, aclComputeType type, aclrtStream stream) {
  (void)type; // the host computes in double either way
  if (m <= 0 || n <= 0 || k <= 0 || transC != ACL_TRANS_N || !reserved(lda) ||
      !reserved(ldb) || !reserved(ldc))
    return fail(ACL_ERROR_INVALID_PARAM, "aclblasGemmEx",
                "m, n and k must be positive, transC ACL_TRANS_N, and the "
                "leading dimensions -1");
  return multiply("aclblasGemmEx",
                  Product{transA, transB, size_t(m), size_t(n), size_t(k),
                          alpha, matrixA, matrixB, beta, matrixC, dataTypeA,
                          dataTypeB, dataTypeC},
                  stream);
}

ACL_FUNC_VISIBILITY aclError aclblasHgemm(
    aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
    int k, const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda,
    const aclFloat16 *matrixB, int ldb, const aclFloat16 *beta,
    aclFloat16 *matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  return aclblasGemmEx(transA, transB, transC, m, n, k, alpha, matrixA, lda,
                       ACL_FLOAT16, matrixB, ldb, ACL_FLOAT16, beta, matrixC,
                       ldc, ACL_FLOAT16, type, stream);
}

ACL_FUNC_VISIBILITY aclError aclblasS8gemm(
    aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
    int k, const int32_t *alpha, const int8_t *matrixA, int lda,
    const int8_t *matrixB, int ldb, const int32_t *beta, int32_t *matrixC,
    int ldc, aclComputeType type, aclrtStream stream) {
  return aclblasGemmEx(transA, transB, transC, m, n, k, alpha, matrixA, lda,
                       ACL_INT8, matrixB, ldb, ACL_INT8, beta, matrixC, ldc,
                       ACL_INT32, type, stream);
}

// A matrix-vector product is a matrix product with one column.
ACL_FUNC_VISIBILITY aclError aclblasGemvEx(
    aclTransType transA, int m, int n, const void *alpha, const void *a,
    int lda, aclDataType dataTypeA, const void *x, int incx,
    aclDataType dataTypeX, const void *beta, void *y, int incy,
    aclDataType dataTypeY, aclComputeType type, aclrtStream stream) {
  (void)type;
  if (m <= 0 || n <= 0 || !reserved(lda) || (incx != -1 && incx != 1) ||
      (incy != -1 && incy != 1))
    return fail(ACL_ERROR_INVALID_PARAM, "aclblasGemvEx",
                "m and n must be positive, lda -1, incx and incy -1 or 1");
  // A is m x n as stored; op(A) is rows x inner.
  bool transposed = transA == ACL_TRANS_T;
  size_t rows = transposed ? size_t(n) : size_t(m);
  size_t inner = transposed ? size_t(m) : size_t(n);
  return multiply("aclblasGemvEx",
                  Product{transA, ACL_TRANS_N, rows, 1, inner, alpha, a, x,
                          beta, y, dataTypeA, dataTypeX, dataTypeY},
                  stream);
}

ACL_FUNC_VISIBILITY aclError aclblasHgemv(aclTransType transA, int m, int n,
                                          const aclFloat16 *alpha,
                                          const aclFloat16 *a, int lda,
                                          const aclFloat16 *x, int incx,
                                          const aclFloat16 *beta, aclFloat16 *y,
                                          int incy, aclComputeType type,
                                          aclrtStream stream) {
  return aclblasGemvEx(transA, m, n, alpha, a, lda, ACL_FLOAT16, x, incx,
                       ACL_FLOAT16, beta, y, incy, ACL_FLOAT16, type, stream);
}

ACL_FUNC_VISIBILITY aclError aclblasS8gemv(
    aclTransType transA, int m, int n, const int32_t *alpha, const int8_t *a,
    int lda, const int8_t *x, int incx, const int32_t *beta, int32_t *y,
    int incy, aclComputeType type, aclrtStream stream) {
  return aclblasGemvEx(transA, m, n, alpha, a, lda, ACL_INT8, x, incx, ACL_INT8,
                       beta, y, incy, ACL_INT32, type, stream);
}

} // extern "C"
