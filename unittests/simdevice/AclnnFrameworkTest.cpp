//===- AclnnFrameworkTest.cpp - libnnopbase.so: handles and executors -----===//
#include "AclTestSupport.h"
#include "aclnn/aclnn_base.h"
#include "nnopbase.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using AclnnFramework = AclTest;
using mssim::nn::kErrParamInvalid;
using mssim::nn::kErrParamNullptr;
using mssim::nn::kSuccess;

aclTensor *contiguous(std::vector<int64_t> shape, void *data,
                      aclDataType type = ACL_FLOAT) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return aclCreateTensor(shape.data(), shape.size(), type, strides.data(), 0,
                         ACL_FORMAT_ND, shape.data(), shape.size(), data);
}

std::string recentError() {
  const char *message = aclGetRecentErrMsg();
  return message ? message : "";
}

} // namespace

TEST_F(AclnnFramework, TensorsDescribeTheirView) {
  int64_t shape[] = {2, 3}, strides[] = {1, 2}, storage[] = {6};
  char data[24];
  aclTensor *tensor = aclCreateTensor(shape, 2, ACL_FLOAT16, strides, 0,
                                      ACL_FORMAT_ND, storage, 1, data);
  ASSERT_NE(tensor, nullptr);
  int64_t *dims = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewShape(tensor, &dims, &count), kSuccess);
  EXPECT_EQ(std::vector<int64_t>(dims, dims + count),
            (std::vector<int64_t>{2, 3}));
  delete[] dims;
  ASSERT_EQ(aclGetViewStrides(tensor, &dims, &count), kSuccess);
  EXPECT_EQ(std::vector<int64_t>(dims, dims + count),
            (std::vector<int64_t>{1, 2}));
  delete[] dims;
  ASSERT_EQ(aclGetStorageShape(tensor, &dims, &count), kSuccess);
  EXPECT_EQ(std::vector<int64_t>(dims, dims + count),
            (std::vector<int64_t>{6}));
  delete[] dims;
  aclDataType type;
  aclFormat format;
  int64_t offset = -1;
  void *address = nullptr;
  EXPECT_EQ(aclGetDataType(tensor, &type), kSuccess);
  EXPECT_EQ(type, ACL_FLOAT16);
  EXPECT_EQ(aclGetFormat(tensor, &format), kSuccess);
  EXPECT_EQ(format, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetViewOffset(tensor, &offset), kSuccess);
  EXPECT_EQ(offset, 0);
  EXPECT_EQ(aclGetRawTensorAddr(tensor, &address), kSuccess);
  EXPECT_EQ(address, data);
  EXPECT_EQ(aclGetDataType(tensor, nullptr), kErrParamNullptr);
  EXPECT_EQ(aclDestroyTensor(tensor), kSuccess);
}

TEST_F(AclnnFramework, BadTensorsAreRefused) {
  int64_t shape[] = {2, 3}, strides[] = {3, 1}, small[] = {5},
          negative[] = {-1};
  char data[24];
  EXPECT_EQ(aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND,
                            small, 1, data),
            nullptr)
      << "a view past its storage";
  EXPECT_NE(recentError().find("reaches past its storage"), std::string::npos)
      << recentError();
  EXPECT_EQ(aclCreateTensor(negative, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND,
                            shape, 2, data),
            nullptr);
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND,
                            shape, 2, data),
            nullptr);
  EXPECT_EQ(aclCreateTensor(shape, 2, ACL_STRING, strides, 0, ACL_FORMAT_ND,
                            shape, 2, data),
            nullptr);
  EXPECT_EQ(aclCreateTensor(shape, 2, ACL_FLOAT, strides, -1, ACL_FORMAT_ND,
                            shape, 2, data),
            nullptr);
  aclTensor *empty = contiguous({0, 4}, nullptr);
  EXPECT_NE(empty, nullptr) << "an empty tensor needs no data";
  EXPECT_EQ(aclDestroyTensor(empty), kSuccess);
}

TEST_F(AclnnFramework, DestroysTakeNullAndRefuseWhatIsNotLive) {
  EXPECT_EQ(aclDestroyTensor(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyScalar(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyIntArray(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyFloatArray(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyBoolArray(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyTensorList(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyScalarList(nullptr), kSuccess);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), mssim::nn::kErrInnerNullptr)
      << "unlike the others";
  float value = 1;
  aclScalar *scalar = aclCreateScalar(&value, ACL_FLOAT);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(aclDestroyTensor(reinterpret_cast<aclTensor *>(scalar)),
            kErrParamInvalid)
      << "a scalar is no tensor";
  EXPECT_EQ(aclDestroyScalar(scalar), kSuccess);
  EXPECT_EQ(aclDestroyScalar(scalar), kErrParamInvalid) << "destroyed twice";
}

TEST_F(AclnnFramework, ScalarsAndArraysKeepCopies) {
  int32_t value = 7;
  aclScalar *scalar = aclCreateScalar(&value, ACL_INT32);
  value = 8;
  ASSERT_NE(scalar, nullptr);
  int32_t kept = 0;
  memcpy(&kept, scalar->value, sizeof kept);
  EXPECT_EQ(kept, 7);
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  int64_t ints[] = {1, 2, 3};
  aclIntArray *array = aclCreateIntArray(ints, 3);
  ints[0] = 9;
  uint64_t size = 0;
  ASSERT_EQ(aclGetIntArraySize(array, &size), kSuccess);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(array->values[0], 1);
  EXPECT_EQ(aclCreateIntArray(nullptr, 2), nullptr);
  aclIntArray *none = aclCreateIntArray(nullptr, 0);
  EXPECT_NE(none, nullptr);
  bool bools[] = {true};
  aclBoolArray *flags = aclCreateBoolArray(bools, 1);
  ASSERT_EQ(aclGetBoolArraySize(flags, &size), kSuccess);
  EXPECT_EQ(size, 1u);
  EXPECT_EQ(aclDestroyScalar(scalar), kSuccess);
  EXPECT_EQ(aclDestroyIntArray(array), kSuccess);
  EXPECT_EQ(aclDestroyIntArray(none), kSuccess);
  EXPECT_EQ(aclDestroyBoolArray(flags), kSuccess);
}

TEST_F(AclnnFramework, ListsOwnWhatTheyAreMadeOf) {
  char data[16];
  aclTensor *first = contiguous({4}, data);
  aclTensor *second = contiguous({4}, data);
  const aclTensor *tensors[] = {first, second};
  aclTensorList *list = aclCreateTensorList(tensors, 2);
  ASSERT_NE(list, nullptr);
  uint64_t size = 0;
  ASSERT_EQ(aclGetTensorListSize(list, &size), kSuccess);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclDestroyTensorList(list), kSuccess);
  EXPECT_EQ(aclDestroyTensor(first), kErrParamInvalid)
      << "destroyed with its list";
  EXPECT_FALSE(mssim::nn::isLive(second, mssim::nn::ObjectKind::Tensor));

  // What the real lists would destroy twice is refused: an element twice,
  // in two lists, or destroyed on its own while its list lives.
  aclTensor *third = contiguous({4}, data);
  const aclTensor *twice[] = {third, third};
  EXPECT_EQ(aclCreateTensorList(twice, 2), nullptr);
  aclTensorList *owner = aclCreateTensorList(twice, 1);
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(aclCreateTensorList(twice, 1), nullptr) << "already in a list";
  EXPECT_EQ(aclDestroyTensor(third), kErrParamInvalid) << "its list's";
  EXPECT_EQ(aclDestroyTensorList(owner), kSuccess);
}

TEST_F(AclnnFramework, AnExecutorIsConsumedByItsRunUnlessRepeatable) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclTensor *tensor = contiguous({4}, device);
  int runs = 0;
  auto count = [&runs](std::vector<mssim::nn::Operand> &,
                       std::vector<mssim::nn::Operand> &) {
    ++runs;
    return std::string();
  };
  uint64_t workspaceSize = 0;
  aclOpExecutor *executor = nullptr;
  ASSERT_EQ(mssim::nn::makeExecutor("aclnnTest", {tensor->desc}, {}, count, 0,
                                    &workspaceSize, &executor),
            kSuccess);
  ASSERT_EQ(mssim::nn::runExecutor("aclnnTest", nullptr, 0, executor, nullptr),
            kSuccess);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(mssim::nn::runExecutor("aclnnTest", nullptr, 0, executor, nullptr),
            kErrParamInvalid)
      << "consumed by its run";
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), mssim::nn::kErrInner);

  ASSERT_EQ(mssim::nn::makeExecutor("aclnnTest", {tensor->desc}, {}, count, 0,
                                    &workspaceSize, &executor),
            kSuccess);
  EXPECT_EQ(mssim::nn::runExecutor("aclnnOther", nullptr, 0, executor, nullptr),
            kErrParamInvalid)
      << "another operator's executor";
  EXPECT_FALSE(mssim::nn::isLive(executor, mssim::nn::ObjectKind::Executor))
      << "consumed by a failed run too";

  ASSERT_EQ(mssim::nn::makeExecutor("aclnnTest", {tensor->desc}, {}, count, 0,
                                    &workspaceSize, &executor),
            kSuccess);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), kSuccess);
  EXPECT_EQ(aclSetInputTensorAddr(executor, 0, tensor, device), kSuccess);
  EXPECT_EQ(aclSetInputTensorAddr(executor, 1, tensor, device),
            kErrParamInvalid);
  ASSERT_EQ(mssim::nn::runExecutor("aclnnTest", nullptr, 0, executor, nullptr),
            kSuccess);
  ASSERT_EQ(mssim::nn::runExecutor("aclnnTest", nullptr, 0, executor, nullptr),
            kSuccess);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(runs, 3);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), kSuccess);
  EXPECT_EQ(aclDestroyTensor(tensor), kSuccess);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclnnFramework, TheWorkspaceIsChecked) {
  uint64_t workspaceSize = 0;
  aclOpExecutor *executor = nullptr;
  auto nothing = [](std::vector<mssim::nn::Operand> &,
                    std::vector<mssim::nn::Operand> &) {
    return std::string();
  };
  ASSERT_EQ(mssim::nn::makeExecutor("aclnnTest", {}, {}, nothing, 1024,
                                    &workspaceSize, &executor),
            kSuccess);
  EXPECT_EQ(workspaceSize, 1024u);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), kSuccess)
      << "kept through the refused runs below";
  EXPECT_EQ(
      mssim::nn::runExecutor("aclnnTest", nullptr, 1024, executor, nullptr),
      kErrParamNullptr);
  char host[1024];
  EXPECT_EQ(mssim::nn::runExecutor("aclnnTest", host, 1024, executor, nullptr),
            kErrParamInvalid)
      << "host memory is no workspace";
  void *workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&workspace, 1024, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  EXPECT_EQ(
      mssim::nn::runExecutor("aclnnTest", workspace, 512, executor, nullptr),
      kErrParamInvalid)
      << "smaller than phase 1 asked for";
  EXPECT_EQ(
      mssim::nn::runExecutor("aclnnTest", workspace, 1024, executor, nullptr),
      kSuccess);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), kSuccess);
  EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
}
