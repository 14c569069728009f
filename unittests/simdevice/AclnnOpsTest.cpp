//===- AclnnOpsTest.cpp - libopapi.so: the simulated operators ------------===//
//
// Each operator family end to end through the public C API only: tensors
// over aclrtMalloc'ed device memory, the operator's two phases, the stream
// synchronised, the result copied back and compared with values computed by
// hand. Then the framework's rules as the operators keep them: a consumed
// executor, the workspace of the operators that reduce, null and dead
// handles, bad shapes, and an operator the simulation does not compute.
//
//===----------------------------------------------------------------------===//
#include "AclTestSupport.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_zero.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr aclnnStatus kSuccess = 0;
constexpr aclnnStatus kNullptr = 161001;
constexpr aclnnStatus kInvalid = 161002;
constexpr uint64_t kScratch = 16 * 1024;

std::string recentError() {
  const char *message = aclGetRecentErrMsg();
  return message ? message : "";
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// Device storage holding `T` values and a tensor viewing it.
template <typename T> class Tensor {
public:
  /// A contiguous tensor of `shape` holding `values`.
  Tensor(std::vector<int64_t> shape, const std::vector<T> &values,
         aclDataType type)
      : Tensor(shape, contiguousStrides(shape), 0, values, type) {}
  /// A view (shape, strides, offset) of 1-D storage holding `values`.
  Tensor(std::vector<int64_t> shape, std::vector<int64_t> strides,
         int64_t offset, const std::vector<T> &values, aclDataType type)
      : count_(values.size()) {
    bytes_ = std::max<size_t>(count_, 1) * sizeof(T);
    EXPECT_EQ(aclrtMalloc(&device_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    if (count_) {
      EXPECT_EQ(aclrtMemcpy(device_, bytes_, values.data(), count_ * sizeof(T),
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
    int64_t storage = static_cast<int64_t>(count_);
    tensor_ = aclCreateTensor(shape.data(), shape.size(), type, strides.data(),
                              offset, ACL_FORMAT_ND, &storage, 1, device_);
    EXPECT_NE(tensor_, nullptr) << recentError();
  }
  ~Tensor() {
    if (tensor_)
      aclDestroyTensor(tensor_);
    aclrtFree(device_);
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;

  aclTensor *get() const { return tensor_; }
  operator aclTensor *() const { return tensor_; }
  /// Gives the handle away (to a tensor list, which destroys it).
  aclTensor *release() {
    aclTensor *t = tensor_;
    tensor_ = nullptr;
    return t;
  }
  /// The whole storage, read back.
  std::vector<T> read() const {
    std::vector<T> values(count_);
    if (count_) {
      EXPECT_EQ(aclrtMemcpy(values.data(), count_ * sizeof(T), device_,
                            count_ * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
    }
    return values;
  }

private:
  size_t count_;
  size_t bytes_ = 0;
  void *device_ = nullptr;
  aclTensor *tensor_ = nullptr;
};

using Phase1 = std::function<aclnnStatus(uint64_t *, aclOpExecutor **)>;
using Phase2 = aclnnStatus (*)(void *, uint64_t, aclOpExecutor *, aclrtStream);

class AclnnOps : public AclTest {
protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    AclTest::TearDown();
  }

  /// Runs both phases, with the workspace phase 1 asks for, and waits;
  /// `expectedWorkspace` is what phase 1 must ask for.
  void run(const Phase1 &phase1, Phase2 phase2, uint64_t expectedWorkspace) {
    uint64_t size = 1;
    aclOpExecutor *executor = nullptr;
    ASSERT_EQ(phase1(&size, &executor), kSuccess) << recentError();
    ASSERT_NE(executor, nullptr);
    EXPECT_EQ(size, expectedWorkspace);
    void *workspace = nullptr;
    if (size) {
      ASSERT_EQ(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST),
                ACL_SUCCESS);
    }
    EXPECT_EQ(phase2(workspace, size, executor, stream_), kSuccess)
        << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    if (workspace) {
      EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
    }
  }

  aclrtStream stream_ = nullptr;
};

uint16_t half(float f) { return aclFloatToFloat16(f); }
float fromHalf(uint16_t h) { return aclFloat16ToFloat(h); }

void expectNear(const std::vector<float> &actual,
                const std::vector<float> &expected, float tolerance = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
}

} // namespace

//===-- Element-wise ------------------------------------------------------===//

TEST_F(AclnnOps, AddBroadcastsAndScalesOtherByAlpha) {
  Tensor<float> self({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
  Tensor<float> other({3}, {10, 20, 30}, ACL_FLOAT);
  Tensor<float> out({2, 3}, std::vector<float>(6, -1), ACL_FLOAT);
  float two = 2;
  aclScalar *alpha = aclCreateScalar(&two, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnAddGetWorkspaceSize(self, other, alpha, out, size,
                                        executor);
      },
      aclnnAdd, 0);
  EXPECT_EQ(out.read(), (std::vector<float>{21, 42, 63, 24, 45, 66}));
  aclDestroyScalar(alpha);
}

TEST_F(AclnnOps, SubOfFloat16RoundsToNearestEven) {
  // 2049 is not a float16: 2048 + 1 - 0 rounds to 2048 (even), 2048 + 3
  // to 2052; 0.5 - 0.25 is exact.
  Tensor<uint16_t> self({3}, {half(2048), half(2048), half(0.5f)}, ACL_FLOAT16);
  Tensor<uint16_t> other({3}, {half(-1), half(-3), half(0.25f)}, ACL_FLOAT16);
  Tensor<uint16_t> out({3}, {0, 0, 0}, ACL_FLOAT16);
  float one = 1;
  aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSubGetWorkspaceSize(self, other, alpha, out, size,
                                        executor);
      },
      aclnnSub, 0);
  std::vector<uint16_t> result = out.read();
  EXPECT_EQ(fromHalf(result[0]), 2048.0f);
  EXPECT_EQ(fromHalf(result[1]), 2052.0f);
  EXPECT_EQ(fromHalf(result[2]), 0.25f);
  aclDestroyScalar(alpha);
}

TEST_F(AclnnOps, NegReadsATransposedView) {
  // Storage [[1, 2, 3], [4, 5, 6]] viewed transposed: (3, 2), strides (1, 3).
  Tensor<float> self({3, 2}, {1, 3}, 0, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
  Tensor<float> out({3, 2}, std::vector<float>(6, 0), ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnNegGetWorkspaceSize(self, out, size, executor);
      },
      aclnnNeg, 0);
  EXPECT_EQ(out.read(), (std::vector<float>{-1, -4, -2, -5, -3, -6}));
}

TEST_F(AclnnOps, InplaceMulsWritesAStridedView) {
  // Every other element of 6, from offset 1: elements 1, 3, 5.
  Tensor<float> self({3}, {2}, 1, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
  float three = 3;
  aclScalar *other = aclCreateScalar(&three, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnInplaceMulsGetWorkspaceSize(self, other, size, executor);
      },
      aclnnInplaceMuls, 0);
  EXPECT_EQ(self.read(), (std::vector<float>{1, 6, 3, 12, 5, 18}));
  aclDestroyScalar(other);
}

TEST_F(AclnnOps, UnaryMathAndActivations) {
  Tensor<float> self({3}, {0, 1, -2}, ACL_FLOAT);
  Tensor<float> exp({3}, {0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnExpGetWorkspaceSize(self, exp, size, executor);
      },
      aclnnExp, 0);
  expectNear(exp.read(), {1.0f, 2.7182817f, 0.13533528f});
  // gelu(x) = x * Phi(x): Phi(1) = 0.8413447, Phi(-2) = 0.0227501.
  Tensor<float> gelu({3}, {9, 9, 9}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnGeluV2GetWorkspaceSize(self, 0, gelu, size, executor);
      },
      aclnnGeluV2, 0);
  expectNear(gelu.read(), {0.0f, 0.8413447f, -0.0455003f});
}

TEST_F(AclnnOps, PowTensorScalarOfIntegers) {
  Tensor<int32_t> self({4}, {-2, 0, 3, 5}, ACL_INT32);
  Tensor<int32_t> out({4}, {0, 0, 0, 0}, ACL_INT32);
  int64_t two = 2;
  aclScalar *exponent = aclCreateScalar(&two, ACL_INT64);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnPowTensorScalarGetWorkspaceSize(self, exponent, out, size,
                                                    executor);
      },
      aclnnPowTensorScalar, 0);
  EXPECT_EQ(out.read(), (std::vector<int32_t>{4, 0, 9, 25}));
  aclDestroyScalar(exponent);
}

TEST_F(AclnnOps, ComparisonsLogicAndSelection) {
  Tensor<float> self({4}, {-1, 0.5f, 2, 7}, ACL_FLOAT);
  Tensor<uint8_t> gt({4}, {9, 9, 9, 9}, ACL_BOOL);
  float one = 1;
  aclScalar *other = aclCreateScalar(&one, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnGtScalarGetWorkspaceSize(self, other, gt, size, executor);
      },
      aclnnGtScalar, 0);
  EXPECT_EQ(gt.read(), (std::vector<uint8_t>{0, 0, 1, 1}));
  Tensor<uint8_t> notGt({4}, {9, 9, 9, 9}, ACL_BOOL);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnLogicalNotGetWorkspaceSize(gt, notGt, size, executor);
      },
      aclnnLogicalNot, 0);
  EXPECT_EQ(notGt.read(), (std::vector<uint8_t>{1, 1, 0, 0}));
  // where(x > 1, x, 100) with 100 broadcast from a 0-d tensor.
  Tensor<float> hundred({}, {100}, ACL_FLOAT);
  Tensor<float> chosen({4}, {0, 0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSWhereGetWorkspaceSize(gt, self, hundred, chosen, size,
                                           executor);
      },
      aclnnSWhere, 0);
  EXPECT_EQ(chosen.read(), (std::vector<float>{100, 100, 2, 7}));
  aclDestroyScalar(other);
}

TEST_F(AclnnOps, CastTruncatesAndMustMatchDtype) {
  Tensor<float> self({3}, {1.9f, -1.9f, 7.5f}, ACL_FLOAT);
  Tensor<int32_t> out({3}, {0, 0, 0}, ACL_INT32);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnCastGetWorkspaceSize(self, ACL_INT32, out, size, executor);
      },
      aclnnCast, 0);
  EXPECT_EQ(out.read(), (std::vector<int32_t>{1, -1, 7}));
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(aclnnCastGetWorkspaceSize(self, ACL_INT64, out, &size, &executor),
            kInvalid);
  EXPECT_NE(recentError().find("not of dtype"), std::string::npos)
      << recentError();
}

TEST_F(AclnnOps, FillsAndCopies) {
  Tensor<float> self({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
  Tensor<uint8_t> mask({2}, {1, 0}, ACL_BOOL); // broadcast over the rows
  float seven = 7;
  aclScalar *value = aclCreateScalar(&seven, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnInplaceMaskedFillScalarGetWorkspaceSize(self, mask, value,
                                                            size, executor);
      },
      aclnnInplaceMaskedFillScalar, 0);
  EXPECT_EQ(self.read(), (std::vector<float>{7, 2, 7, 4}));
  // Copy a column (strided, broadcast along the rows) over self.
  Tensor<int64_t> column({2, 1}, {1, 0}, 0, {5, 6}, ACL_INT64);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnInplaceCopyGetWorkspaceSize(self, column, size, executor);
      },
      aclnnInplaceCopy, 0);
  EXPECT_EQ(self.read(), (std::vector<float>{5, 5, 6, 6}));
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnInplaceFillScalarGetWorkspaceSize(self, value, size,
                                                      executor);
      },
      aclnnInplaceFillScalar, 0);
  EXPECT_EQ(self.read(), (std::vector<float>{7, 7, 7, 7}));
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnInplaceZeroGetWorkspaceSize(self, size, executor);
      },
      aclnnInplaceZero, 0);
  EXPECT_EQ(self.read(), (std::vector<float>{0, 0, 0, 0}));
  aclDestroyScalar(value);
}

//===-- Reductions --------------------------------------------------------===//

TEST_F(AclnnOps, ReduceSumAndMeanOverDims) {
  Tensor<float> self({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
  Tensor<float> sum({2}, {0, 0}, ACL_FLOAT);
  int64_t dim1 = 1;
  aclIntArray *dims = aclCreateIntArray(&dim1, 1);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnReduceSumGetWorkspaceSize(self, dims, false, ACL_FLOAT, sum,
                                              size, executor);
      },
      aclnnReduceSum, kScratch);
  EXPECT_EQ(sum.read(), (std::vector<float>{6, 15}));
  // The mean of the columns of a float16 tensor, dims kept.
  Tensor<uint16_t> halves(
      {2, 3}, {half(1), half(2), half(3), half(4), half(5), half(6)},
      ACL_FLOAT16);
  Tensor<uint16_t> mean({1, 3}, {0, 0, 0}, ACL_FLOAT16);
  int64_t dim0 = 0;
  aclIntArray *rows = aclCreateIntArray(&dim0, 1);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnMeanGetWorkspaceSize(halves, rows, true, ACL_FLOAT16, mean,
                                         size, executor);
      },
      aclnnMean, kScratch);
  std::vector<uint16_t> m = mean.read();
  EXPECT_EQ(fromHalf(m[0]), 2.5f);
  EXPECT_EQ(fromHalf(m[1]), 3.5f);
  EXPECT_EQ(fromHalf(m[2]), 4.5f);
  aclDestroyIntArray(dims);
  aclDestroyIntArray(rows);
}

TEST_F(AclnnOps, MaxDimAndArgMaxOfATransposedView) {
  // Storage [[3, 9, 1], [7, 2, 8]] viewed transposed: [[3, 7], [9, 2], [1, 8]].
  Tensor<float> self({3, 2}, {1, 3}, 0, {3, 9, 1, 7, 2, 8}, ACL_FLOAT);
  Tensor<float> values({3}, {0, 0, 0}, ACL_FLOAT);
  Tensor<int64_t> indices({3}, {-1, -1, -1}, ACL_INT64);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnMaxDimGetWorkspaceSize(self, 1, false, values, indices,
                                           size, executor);
      },
      aclnnMaxDim, kScratch);
  EXPECT_EQ(values.read(), (std::vector<float>{7, 9, 8}));
  EXPECT_EQ(indices.read(), (std::vector<int64_t>{1, 0, 1}));
  Tensor<int64_t> argmax({2}, {-1, -1}, ACL_INT64);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnArgMaxGetWorkspaceSize(self, 0, false, argmax, size,
                                           executor);
      },
      aclnnArgMax, kScratch);
  EXPECT_EQ(argmax.read(), (std::vector<int64_t>{1, 2}));
}

//===-- Softmax and norms -------------------------------------------------===//

TEST_F(AclnnOps, SoftmaxAndLogSoftmax) {
  // softmax([0, ln 3]) = [1/4, 3/4]; of [0, 0]: [1/2, 1/2].
  Tensor<float> self({2, 2}, {0, std::log(3.0f), 0, 0}, ACL_FLOAT);
  Tensor<float> out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSoftmaxGetWorkspaceSize(self, -1, out, size, executor);
      },
      aclnnSoftmax, kScratch);
  expectNear(out.read(), {0.25f, 0.75f, 0.5f, 0.5f});
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnLogSoftmaxGetWorkspaceSize(self, 1, out, size, executor);
      },
      aclnnLogSoftmax, kScratch);
  expectNear(out.read(), {std::log(0.25f), std::log(0.75f), std::log(0.5f),
                          std::log(0.5f)});
}

TEST_F(AclnnOps, LayerNormWithWeightAndStatistics) {
  // Rows [1, 3] (mean 2, variance 1) and [2, 6] (mean 4, variance 4).
  Tensor<float> input({2, 2}, {1, 3, 2, 6}, ACL_FLOAT);
  Tensor<float> weight({2}, {2, 1}, ACL_FLOAT);
  Tensor<float> out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  Tensor<float> mean({2, 1}, {0, 0}, ACL_FLOAT);
  Tensor<float> rstd({2, 1}, {0, 0}, ACL_FLOAT);
  int64_t last = 2;
  aclIntArray *normalized = aclCreateIntArray(&last, 1);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnLayerNormGetWorkspaceSize(input, normalized, weight,
                                              nullptr, 0.0, out, mean, rstd,
                                              size, executor);
      },
      aclnnLayerNorm, kScratch);
  expectNear(out.read(), {-2, 1, -2, 1});
  expectNear(mean.read(), {2, 4});
  expectNear(rstd.read(), {1, 0.5f});
  aclDestroyIntArray(normalized);
}

TEST_F(AclnnOps, RmsNormScalesByTheRootMeanSquare) {
  // Rows [3, 4] (mean square 12.5) and [6, 8] (50), gamma [1, 2].
  Tensor<float> x({2, 2}, {3, 4, 6, 8}, ACL_FLOAT);
  Tensor<float> gamma({2}, {1, 2}, ACL_FLOAT);
  Tensor<float> y({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  Tensor<float> rstd({2, 1}, {0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnRmsNormGetWorkspaceSize(x, gamma, 0.0, y, rstd, size,
                                            executor);
      },
      aclnnRmsNorm, kScratch);
  float r0 = 1 / std::sqrt(12.5f), r1 = 1 / std::sqrt(50.0f);
  expectNear(y.read(), {3 * r0, 8 * r0, 6 * r1, 16 * r1});
  expectNear(rstd.read(), {r0, r1});
}

TEST_F(AclnnOps, GroupNormOfTwoGroups) {
  // N 1, C 2, HxW 2, two groups: channel 0 = [0, 2], channel 1 = [1, 5].
  Tensor<float> self({1, 2, 2}, {0, 2, 1, 5}, ACL_FLOAT);
  Tensor<float> out({1, 2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  Tensor<float> mean({1, 2}, {0, 0}, ACL_FLOAT);
  Tensor<float> rstd({1, 2}, {0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnGroupNormGetWorkspaceSize(self, nullptr, nullptr, 1, 2, 2,
                                              2, 0.0, out, mean, rstd, size,
                                              executor);
      },
      aclnnGroupNorm, kScratch);
  expectNear(out.read(), {-1, 1, -1, 1});
  expectNear(mean.read(), {1, 3});
  expectNear(rstd.read(), {1, 0.5f});
}

//===-- Matrix products ---------------------------------------------------===//

TEST_F(AclnnOps, MmWithATransposedOperand) {
  Tensor<float> self({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
  // mat2 (3, 2) as the transpose of storage [[1, 0, 2], [0, 1, 1]].
  Tensor<float> mat2({3, 2}, {1, 3}, 0, {1, 0, 2, 0, 1, 1}, ACL_FLOAT);
  Tensor<float> out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnMmGetWorkspaceSize(self, mat2, out, 1, size, executor);
      },
      aclnnMm, kScratch);
  EXPECT_EQ(out.read(), (std::vector<float>{7, 5, 16, 11}));
}

TEST_F(AclnnOps, MatmulBroadcastsBatchesAndAddmmScales) {
  // (2, 1, 2) @ (2, 1) -> (2, 1, 1).
  Tensor<float> self({2, 1, 2}, {1, 2, 3, 4}, ACL_FLOAT);
  Tensor<float> other({2, 1}, {10, 1}, ACL_FLOAT);
  Tensor<float> out({2, 1, 1}, {0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnMatmulGetWorkspaceSize(self, other, out, 0, size, executor);
      },
      aclnnMatmul, kScratch);
  EXPECT_EQ(out.read(), (std::vector<float>{12, 34}));
  // addmm: 2 * [1, 1] (broadcast) + 3 * ([[1, 2]] @ [[1], [1]]).
  Tensor<float> bias({1}, {1}, ACL_FLOAT);
  Tensor<float> mat1({1, 2}, {1, 2}, ACL_FLOAT);
  Tensor<float> mat2({2, 1}, {1, 1}, ACL_FLOAT);
  Tensor<float> sum({1, 1}, {0}, ACL_FLOAT);
  float two = 2, three = 3;
  aclScalar *beta = aclCreateScalar(&two, ACL_FLOAT);
  aclScalar *alpha = aclCreateScalar(&three, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnAddmmGetWorkspaceSize(bias, mat1, mat2, beta, alpha, sum, 0,
                                          size, executor);
      },
      aclnnAddmm, kScratch);
  EXPECT_EQ(sum.read(), (std::vector<float>{11}));
  aclDestroyScalar(beta);
  aclDestroyScalar(alpha);
}

//===-- Shapes and indexing -----------------------------------------------===//

TEST_F(AclnnOps, CatAndSplitThroughTensorLists) {
  Tensor<int32_t> a({1, 2}, {1, 2}, ACL_INT32);
  Tensor<int32_t> b({2, 2}, {3, 4, 5, 6}, ACL_INT32);
  aclTensor *parts[] = {a.release(), b.release()};
  aclTensorList *list = aclCreateTensorList(parts, 2);
  Tensor<int32_t> whole({3, 2}, std::vector<int32_t>(6, 0), ACL_INT32);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnCatGetWorkspaceSize(list, 0, whole, size, executor);
      },
      aclnnCat, 0);
  EXPECT_EQ(whole.read(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(aclDestroyTensorList(list), kSuccess);

  // Split the columns: widths 1 and 1.
  Tensor<int32_t> left({3, 1}, {0, 0, 0}, ACL_INT32);
  Tensor<int32_t> right({3, 1}, {0, 0, 0}, ACL_INT32);
  aclTensor *outs[] = {left.release(), right.release()};
  aclTensorList *outList = aclCreateTensorList(outs, 2);
  int64_t widths[] = {1, 1};
  aclIntArray *sizes = aclCreateIntArray(widths, 2);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSplitWithSizeGetWorkspaceSize(whole, sizes, 1, outList,
                                                  size, executor);
      },
      aclnnSplitWithSize, 0);
  EXPECT_EQ(left.read(), (std::vector<int32_t>{1, 3, 5}));
  EXPECT_EQ(right.read(), (std::vector<int32_t>{2, 4, 6}));
  EXPECT_EQ(aclDestroyTensorList(outList), kSuccess);

  // Into two views of one buffer, interleaved: its columns.
  Tensor<int32_t> both({3, 2}, std::vector<int32_t>(6, 0), ACL_INT32);
  int64_t column[] = {3, 1}, strides[] = {2, 1}, storage[] = {6};
  void *data = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(both, &data), kSuccess);
  aclTensor *columns[] = {aclCreateTensor(column, 2, ACL_INT32, strides, 0,
                                          ACL_FORMAT_ND, storage, 1, data),
                          aclCreateTensor(column, 2, ACL_INT32, strides, 1,
                                          ACL_FORMAT_ND, storage, 1, data)};
  aclTensorList *columnList = aclCreateTensorList(columns, 2);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSplitWithSizeGetWorkspaceSize(whole, sizes, 1, columnList,
                                                  size, executor);
      },
      aclnnSplitWithSize, 0);
  EXPECT_EQ(both.read(), whole.read());
  EXPECT_EQ(aclDestroyTensorList(columnList), kSuccess);
  aclDestroyIntArray(sizes);
}

TEST_F(AclnnOps, SlicesAndPermute) {
  Tensor<float> self({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}, ACL_FLOAT);
  Tensor<float> odd({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSliceGetWorkspaceSize(self, 1, 1, 100, 2, odd, size,
                                          executor);
      },
      aclnnSlice, 0);
  EXPECT_EQ(odd.read(), (std::vector<float>{1, 3, 5, 7}));
  // Row 1 (from -1), columns 0 and 2.
  int64_t starts[] = {-1, 0}, ends[] = {2, 4}, axes[] = {0, 1},
          steps[] = {1, 2};
  aclIntArray *s = aclCreateIntArray(starts, 2),
              *e = aclCreateIntArray(ends, 2), *a = aclCreateIntArray(axes, 2),
              *st = aclCreateIntArray(steps, 2);
  Tensor<float> corner({1, 2}, {0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnSliceV2GetWorkspaceSize(self, s, e, a, st, corner, size,
                                            executor);
      },
      aclnnSliceV2, 0);
  EXPECT_EQ(corner.read(), (std::vector<float>{4, 6}));
  int64_t order[] = {1, 0};
  aclIntArray *dims = aclCreateIntArray(order, 2);
  Tensor<float> transposed({4, 2}, std::vector<float>(8, 0), ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnPermuteGetWorkspaceSize(self, dims, transposed, size,
                                            executor);
      },
      aclnnPermute, 0);
  EXPECT_EQ(transposed.read(), (std::vector<float>{0, 4, 1, 5, 2, 6, 3, 7}));
  for (aclIntArray *array : {s, e, a, st, dims})
    aclDestroyIntArray(array);
}

TEST_F(AclnnOps, IndexingOperators) {
  Tensor<float> self({3, 2}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
  Tensor<int64_t> index({2}, {2, 0}, ACL_INT64);
  Tensor<float> rows({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnIndexSelectGetWorkspaceSize(self, 0, index, rows, size,
                                                executor);
      },
      aclnnIndexSelect, 0);
  EXPECT_EQ(rows.read(), (std::vector<float>{5, 6, 1, 2}));
  // gather(self, 1, [[1], [0], [1]]) = [[2], [3], [6]].
  Tensor<int64_t> picks({3, 1}, {1, 0, 1}, ACL_INT64);
  Tensor<float> gathered({3, 1}, {0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnGatherGetWorkspaceSize(self, 1, picks, gathered, size,
                                           executor);
      },
      aclnnGather, 0);
  EXPECT_EQ(gathered.read(), (std::vector<float>{2, 3, 6}));
  // scatter(self, 1, picks, 9, reduce add): adds 9 where picks point.
  Tensor<float> scattered({3, 2}, std::vector<float>(6, 0), ACL_FLOAT);
  float nine = 9;
  aclScalar *value = aclCreateScalar(&nine, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnScatterValueGetWorkspaceSize(self, 1, picks, value, 1,
                                                 scattered, size, executor);
      },
      aclnnScatterValue, 0);
  EXPECT_EQ(scattered.read(), (std::vector<float>{1, 11, 12, 4, 5, 15}));
  // embedding: rows of the weight by int32 indices.
  Tensor<int32_t> ids({2}, {1, 1}, ACL_INT32);
  Tensor<float> embedded({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnEmbeddingGetWorkspaceSize(self, ids, embedded, size,
                                              executor);
      },
      aclnnEmbedding, 0);
  EXPECT_EQ(embedded.read(), (std::vector<float>{3, 4, 3, 4}));
  aclDestroyScalar(value);
}

TEST_F(AclnnOps, GeneratorsRepeatAndPad) {
  int64_t start = 1, end = 10, step = 3;
  aclScalar *from = aclCreateScalar(&start, ACL_INT64);
  aclScalar *to = aclCreateScalar(&end, ACL_INT64);
  aclScalar *by = aclCreateScalar(&step, ACL_INT64);
  Tensor<int64_t> range({3}, {0, 0, 0}, ACL_INT64);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnArangeGetWorkspaceSize(from, to, by, range, size, executor);
      },
      aclnnArange, 0);
  EXPECT_EQ(range.read(), (std::vector<int64_t>{1, 4, 7}));
  Tensor<int32_t> self({2}, {1, 2}, ACL_INT32);
  int64_t times[] = {2, 2};
  aclIntArray *repeats = aclCreateIntArray(times, 2);
  Tensor<int32_t> tiled({2, 4}, std::vector<int32_t>(8, 0), ACL_INT32);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnRepeatGetWorkspaceSize(self, repeats, tiled, size,
                                           executor);
      },
      aclnnRepeat, 0);
  EXPECT_EQ(tiled.read(), (std::vector<int32_t>{1, 2, 1, 2, 1, 2, 1, 2}));
  int64_t pads[] = {1, 2};
  aclIntArray *pad = aclCreateIntArray(pads, 2);
  int32_t minusOne = -1;
  aclScalar *value = aclCreateScalar(&minusOne, ACL_INT32);
  Tensor<int32_t> padded({5}, std::vector<int32_t>(5, 0), ACL_INT32);
  run(
      [&](uint64_t *size, aclOpExecutor **executor) {
        return aclnnConstantPadNdGetWorkspaceSize(self, pad, value, padded,
                                                  size, executor);
      },
      aclnnConstantPadNd, 0);
  EXPECT_EQ(padded.read(), (std::vector<int32_t>{-1, 1, 2, -1, -1}));
  for (aclScalar *scalar : {from, to, by, value})
    aclDestroyScalar(scalar);
  aclDestroyIntArray(repeats);
  aclDestroyIntArray(pad);
}

//===-- The framework's rules, as the operators keep them -----------------===//

TEST_F(AclnnOps, PhaseTwoConsumesTheExecutor) {
  Tensor<float> self({2}, {1, 2}, ACL_FLOAT);
  Tensor<float> out({2}, {0, 0}, ACL_FLOAT);
  uint64_t size = 1;
  aclOpExecutor *executor = nullptr;
  ASSERT_EQ(aclnnNegGetWorkspaceSize(self, out, &size, &executor), kSuccess);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(aclnnNeg(nullptr, 0, executor, stream_), kSuccess);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclnnNeg(nullptr, 0, executor, stream_), kInvalid);
  EXPECT_NE(recentError().find("not a live executor"), std::string::npos)
      << recentError();
  // Nor does another operator's phase 2 take an executor.
  ASSERT_EQ(aclnnNegGetWorkspaceSize(self, out, &size, &executor), kSuccess);
  EXPECT_EQ(aclnnExp(nullptr, 0, executor, stream_), kInvalid);
  EXPECT_EQ(out.read(), (std::vector<float>{-1, -2}));
}

TEST_F(AclnnOps, ReductionsRefuseAMissingOrSmallWorkspace) {
  Tensor<float> self({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
  auto phase1 = [&](aclOpExecutor **executor) {
    uint64_t size = 0;
    EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(self, 0, self, &size, executor),
              kSuccess);
    EXPECT_EQ(size, kScratch);
  };
  aclOpExecutor *executor = nullptr;
  phase1(&executor);
  EXPECT_EQ(aclnnSoftmax(nullptr, 0, executor, stream_), kInvalid);
  EXPECT_NE(recentError().find("phase 1 asked for 16384"), std::string::npos)
      << recentError();
  phase1(&executor);
  EXPECT_EQ(aclnnSoftmax(nullptr, kScratch, executor, stream_), kNullptr);
  void *small = nullptr;
  ASSERT_EQ(aclrtMalloc(&small, kScratch / 2, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  phase1(&executor);
  EXPECT_EQ(aclnnSoftmax(small, kScratch / 2, executor, stream_), kInvalid);
  // A refused phase 2 consumed the executor all the same.
  EXPECT_EQ(aclnnSoftmax(small, kScratch / 2, executor, stream_), kInvalid);
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
  EXPECT_EQ(self.read(), (std::vector<float>{1, 2, 3, 4})) << "never ran";
}

TEST_F(AclnnOps, NullAndDeadHandles) {
  Tensor<float> self({2}, {1, 2}, ACL_FLOAT);
  Tensor<float> out({2}, {0, 0}, ACL_FLOAT);
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  float one = 1;
  aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(self, nullptr, alpha, out, &size, &executor),
      kNullptr);
  EXPECT_NE(recentError().find("other is null"), std::string::npos)
      << recentError();
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(self, self, nullptr, out, &size, &executor),
      kNullptr);
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(self, self, alpha, out, nullptr, &executor),
      kNullptr);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(self, self, alpha, out, &size, nullptr),
            kNullptr);
  EXPECT_EQ(aclnnAdd(nullptr, 0, nullptr, stream_), kNullptr);
  // A destroyed tensor is no tensor.
  int64_t shape[] = {2};
  aclTensor *dead = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0,
                                    ACL_FORMAT_ND, shape, 1, nullptr);
  ASSERT_EQ(aclDestroyTensor(dead), kSuccess);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(self, dead, alpha, out, &size, &executor),
            kInvalid);
  EXPECT_NE(recentError().find("not a live tensor"), std::string::npos)
      << recentError();
  // Optional tensors may be null; required ones of the same operator not.
  EXPECT_EQ(aclnnLayerNormGetWorkspaceSize(self, nullptr, nullptr, nullptr,
                                           1e-5, out, nullptr, nullptr, &size,
                                           &executor),
            kNullptr);
  aclDestroyScalar(alpha);
}

TEST_F(AclnnOps, BadShapesAndDtypesAreRefusedInPhaseOne) {
  Tensor<float> self({2, 3}, std::vector<float>(6, 1), ACL_FLOAT);
  Tensor<float> other({2}, {1, 2}, ACL_FLOAT); // does not broadcast to (2, 3)
  Tensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(aclnnMulGetWorkspaceSize(self, other, out, &size, &executor),
            kInvalid);
  std::string message = recentError();
  EXPECT_NE(message.find("aclnnMulGetWorkspaceSize"), std::string::npos)
      << message;
  EXPECT_NE(message.find("do not broadcast"), std::string::npos) << message;
  // out of the wrong shape.
  Tensor<float> wrong({3, 2}, std::vector<float>(6, 0), ACL_FLOAT);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(self, self, wrong, &size, &executor),
            kInvalid);
  EXPECT_NE(recentError().find("shape"), std::string::npos) << recentError();
  // mm of mismatched inner dims.
  EXPECT_EQ(aclnnMmGetWorkspaceSize(self, self, out, 0, &size, &executor),
            kInvalid);
  EXPECT_NE(recentError().find("aclnnMmGetWorkspaceSize"), std::string::npos)
      << recentError();
  // A float result into an integral out.
  Tensor<int32_t> ints({2, 3}, std::vector<int32_t>(6, 0), ACL_INT32);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(self, self, ints, &size, &executor),
            kInvalid);
  // A reduction's dim out of range.
  int64_t three = 3;
  aclIntArray *dims = aclCreateIntArray(&three, 1);
  Tensor<float> sum({2}, {0, 0}, ACL_FLOAT);
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(self, dims, false, ACL_FLOAT, sum,
                                           &size, &executor),
            kInvalid);
  EXPECT_NE(recentError().find("dim"), std::string::npos) << recentError();
  aclDestroyIntArray(dims);
}

TEST_F(AclnnOps, UnsimulatedOperatorsRefuse) {
  Tensor<float> self({2}, {1, 2}, ACL_FLOAT);
  Tensor<float> out({2}, {0, 0}, ACL_FLOAT);
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  setenv("MSSIM_QUIET_UNSIMULATED", "1", 1);
  EXPECT_EQ(aclnnAcosGetWorkspaceSize(self, out, &size, &executor), kInvalid);
  unsetenv("MSSIM_QUIET_UNSIMULATED");
}

TEST_F(AclnnOps, ARepeatableExecutorTakesNewAddressesOfAListsTensors) {
  Tensor<int32_t> a({2}, {1, 2}, ACL_INT32), b({1}, {3}, ACL_INT32);
  Tensor<int32_t> c({1}, {9}, ACL_INT32), whole({3}, {0, 0, 0}, ACL_INT32);
  aclTensor *parts[] = {a.release(), b.release()};
  aclTensorList *list = aclCreateTensorList(parts, 2);
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  ASSERT_EQ(aclnnCatGetWorkspaceSize(list, 0, whole, &size, &executor),
            kSuccess);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), kSuccess);
  ASSERT_EQ(aclnnCat(nullptr, 0, executor, nullptr), kSuccess);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(whole.read(), (std::vector<int32_t>{1, 2, 3}));
  // Input 0 (the list), its tensor 1: now c's storage.
  void *elsewhere = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(c, &elsewhere), kSuccess);
  EXPECT_EQ(aclSetDynamicInputTensorAddr(executor, 0, 1, list, elsewhere),
            kSuccess);
  EXPECT_EQ(aclSetDynamicInputTensorAddr(executor, 0, 2, list, elsewhere),
            kInvalid)
      << "the list has two tensors";
  EXPECT_EQ(aclSetDynamicInputTensorAddr(executor, 1, 0, list, elsewhere),
            kInvalid)
      << "Cat has one input";
  EXPECT_EQ(aclSetDynamicInputTensorAddr(nullptr, 0, 0, list, elsewhere),
            kNullptr);
  ASSERT_EQ(aclnnCat(nullptr, 0, executor, nullptr), kSuccess);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(whole.read(), (std::vector<int32_t>{1, 2, 9}));
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), kSuccess);
  EXPECT_EQ(aclDestroyTensorList(list), kSuccess);
}
