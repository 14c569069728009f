//===- AclProfTest.cpp - libmsprofiler.so's sessions and msproftx ---------===//
#include "AclTestSupport.h"
#include "acl/acl_prof.h"

#include <gtest/gtest.h>

#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using AclProfiling = AclTest;

std::string resultFolder() {
  return "/tmp/mssim-prof-" + std::to_string(getpid()) + "/out";
}

TEST_F(AclProfiling, ASessionRunsInTheRealOrderAndRefusesAnyOther) {
  std::string path = resultFolder();
  uint32_t devices[] = {0};
  aclprofConfig *config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE,
                                              nullptr, ACL_PROF_ACL_API);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_NOT_RUN);
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);

  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  struct stat info;
  EXPECT_EQ(stat(path.c_str(), &info), 0) << "the result folder is created";
  EXPECT_EQ(aclprofInit(path.c_str(), path.size()),
            ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclprofStart(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_ALREADY_RUN);
  EXPECT_EQ(aclprofStop(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  rmdir(path.c_str());
  rmdir(path.substr(0, path.rfind('/')).c_str());
}

TEST_F(AclProfiling, BadArgumentsAreRefused) {
  EXPECT_EQ(aclprofInit(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit("/tmp", 3), ACL_ERROR_INVALID_PARAM)
      << "length must be the path's";
  EXPECT_EQ(aclprofInit("/proc/none/x", 12), ACL_ERROR_INVALID_FILE);
  uint32_t twice[] = {0, 0};
  EXPECT_EQ(aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, nullptr, 0),
            nullptr);
  uint32_t absent[] = {99};
  EXPECT_EQ(aclprofCreateConfig(absent, 1, ACL_AICORE_NONE, nullptr, 0),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, 0),
            nullptr)
      << "no device is allowed only for msproftx";
  aclprofConfig *tx = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr,
                                          ACL_PROF_MSPROFTX);
  EXPECT_NE(tx, nullptr);
  EXPECT_EQ(aclprofDestroyConfig(tx), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclProfiling, StampsMarksAndRanges) {
  void *stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  EXPECT_EQ(aclprofSetStampTraceMessage(stamp, "step", 4), ACL_SUCCESS);
  EXPECT_EQ(aclprofMark(stamp), ACL_SUCCESS);
  EXPECT_EQ(aclprofPush(stamp), ACL_SUCCESS);
  EXPECT_EQ(aclprofPop(), ACL_SUCCESS);
  EXPECT_EQ(aclprofPop(), ACL_ERROR_INVALID_PARAM);
  uint32_t range = 0;
  EXPECT_EQ(aclprofRangeStart(stamp, &range), ACL_SUCCESS);
  EXPECT_EQ(aclprofRangeStop(range), ACL_SUCCESS);
  EXPECT_EQ(aclprofRangeStop(range), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofMarkEx("host", 4, nullptr), ACL_SUCCESS);
  aclprofDestroyStamp(stamp);
  EXPECT_EQ(aclprofMark(stamp), ACL_ERROR_INVALID_PARAM);

  aclprofStepInfo *step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, nullptr),
            ACL_SUCCESS);
  aclprofDestroyStepInfo(step);
}

} // namespace
