//===- AclFvTest.cpp - libacl_retr.so: feature vector search descriptions -===//
#include "AclTestSupport.h"
#include "acl/ops/acl_fv.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

namespace {

using AclFv = AclTest;

/// What one aclrtMalloc of `size` bytes takes of the device: an
/// independent measure of what a description's parameter block costs.
size_t allocationCost(size_t size) {
  size_t free = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  void *memory = nullptr;
  EXPECT_EQ(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_NORMAL_ONLY),
            ACL_SUCCESS);
  size_t after = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &after, &total), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  return free - after;
}

} // namespace

TEST_F(AclFv, InitParaTakesDeviceMemoryUntilDestroyed) {
  EXPECT_EQ(aclfvCreateInitPara(0), nullptr);
  EXPECT_EQ(aclfvCreateInitPara(600000001), nullptr);
  size_t before = deviceBytesInUse();
  aclfvInitPara *para = aclfvCreateInitPara(100);
  ASSERT_NE(para, nullptr);
  // One small parameter block, as one aclrtMalloc of a few bytes takes.
  EXPECT_EQ(deviceBytesInUse() - before, allocationCost(24));
  EXPECT_EQ(aclfvSet1NTopNum(para, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvSet1NTopNum(para, 200), ACL_SUCCESS);
  EXPECT_EQ(aclfvSetNMTopNum(para, 499), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvSetNMTopNum(para, 4800), ACL_SUCCESS);
  EXPECT_EQ(aclfvDestroyInitPara(para), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclfvDestroyInitPara(para), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvSet1NTopNum(para, 200), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvDestroyInitPara(nullptr), ACL_SUCCESS); // as the real one
}

TEST_F(AclFv, FeatureInfoChecksItsFeatures) {
  std::vector<uint8_t> features(36 * 4, 1);
  EXPECT_EQ(aclfvCreateFeatureInfo(0, 0, 0, 36, 4, nullptr, 144), nullptr);
  EXPECT_EQ(aclfvCreateFeatureInfo(1024, 0, 0, 36, 4, features.data(), 144),
            nullptr);
  EXPECT_EQ(aclfvCreateFeatureInfo(0, 0, 0, 32, 4, features.data(), 128),
            nullptr);
  EXPECT_EQ(aclfvCreateFeatureInfo(0, 0, 0, 36, 4, features.data(), 140),
            nullptr);
  size_t before = deviceBytesInUse();
  aclfvFeatureInfo *info =
      aclfvCreateFeatureInfo(2, 3, 0, 36, 4, features.data(), 144);
  ASSERT_NE(info, nullptr);
  EXPECT_GT(deviceBytesInUse(), before);
  EXPECT_EQ(aclfvDestroyFeatureInfo(info), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclfvDestroyFeatureInfo(info), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(features[0], 1); // not the description's to free
}

TEST_F(AclFv, SearchDescriptions) {
  EXPECT_EQ(aclfvCreateRepoRange(5, 4, 0, 0), nullptr);
  EXPECT_EQ(aclfvCreateRepoRange(0, 1024, 0, 0), nullptr);
  std::vector<uint8_t> tables(2 * 32768);
  EXPECT_EQ(aclfvCreateQueryTable(2, 32000, tables.data(), 64000), nullptr);
  EXPECT_EQ(aclfvCreateQueryTable(2, 32768, tables.data(), 32768), nullptr);
  std::vector<uint32_t> resultNum(2), id0(8), id1(8), offsets(8);
  std::vector<float> distances(8);
  EXPECT_EQ(aclfvCreateSearchResult(2, resultNum.data(), 4, id0.data(),
                                    id1.data(), offsets.data(),
                                    distances.data(), 32),
            nullptr);
  EXPECT_EQ(aclfvCreateSearchResult(2, resultNum.data(), 8, nullptr, id1.data(),
                                    offsets.data(), distances.data(), 32),
            nullptr);

  size_t before = deviceBytesInUse();
  aclfvQueryTable *table =
      aclfvCreateQueryTable(2, 32768, tables.data(), 65536);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(deviceBytesInUse(), before); // a host object only
  aclfvRepoRange *range = aclfvCreateRepoRange(0, 3, 0, 3);
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(aclfvCreateSearchInput(table, range, 4801), nullptr);
  EXPECT_EQ(aclfvCreateSearchInput(nullptr, range, 4), nullptr);
  aclfvSearchInput *input = aclfvCreateSearchInput(table, range, 4);
  ASSERT_NE(input, nullptr);
  aclfvSearchResult *result =
      aclfvCreateSearchResult(2, resultNum.data(), 8, id0.data(), id1.data(),
                              offsets.data(), distances.data(), 32);
  ASSERT_NE(result, nullptr);
  // Four descriptions with a device block each: range, input, result.
  EXPECT_GT(deviceBytesInUse(), before);
  // The input copied the table's and range's values: they can go first.
  EXPECT_EQ(aclfvDestroyQueryTable(table), ACL_SUCCESS);
  EXPECT_EQ(aclfvDestroyRepoRange(range), ACL_SUCCESS);
  EXPECT_EQ(aclfvCreateSearchInput(table, range, 4), nullptr);
  EXPECT_EQ(aclfvDestroySearchInput(input), ACL_SUCCESS);
  EXPECT_EQ(aclfvDestroySearchResult(result), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclfvDestroyQueryTable(table), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvDestroyRepoRange(range), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvDestroySearchInput(input), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvDestroySearchResult(result), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclfvDestroyQueryTable(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclfvDestroySearchResult(nullptr), ACL_SUCCESS);
}

TEST_F(AclFv, DescriptionsWithDeviceMemoryNeedADevice) {
  aclfvInitPara *para = reinterpret_cast<aclfvInitPara *>(1);
  std::thread noDevice([&] { para = aclfvCreateInitPara(100); });
  noDevice.join();
  EXPECT_EQ(para, nullptr);
}

TEST_F(AclFv, SearchIsNotSimulated) {
  setenv("MSSIM_QUIET_UNSIMULATED", "1", 1);
  aclfvInitPara *para = aclfvCreateInitPara(100);
  EXPECT_EQ(aclfvInit(para), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclfvRelease(), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclfvDestroyInitPara(para), ACL_SUCCESS);
  unsetenv("MSSIM_QUIET_UNSIMULATED");
}
