//===- AclProfTest.cpp - libmsprofiler.so's sessions and msproftx ---------===//
#include "AclTestSupport.h"
#include "acl/acl_prof.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

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
  EXPECT_EQ(aclprofCreateStamp(), nullptr) << "msproftx is not on";
  std::string path = resultFolder();
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  aclprofConfig *config = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE,
                                              nullptr, ACL_PROF_MSPROFTX);
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
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
  aclprofDestroyStamp(stamp); // a double destroy does nothing

  // The pool holds 100 stamps; aclprofFinalize frees those still live.
  std::vector<void *> stamps;
  for (int i = 0; i < 100; ++i)
    stamps.push_back(aclprofCreateStamp());
  EXPECT_EQ(std::count(stamps.begin(), stamps.end(), nullptr), 0);
  EXPECT_EQ(aclprofCreateStamp(), nullptr) << "the pool is used up";
  aclprofDestroyStamp(stamps.back());
  stamps.back() = aclprofCreateStamp();
  EXPECT_NE(stamps.back(), nullptr);
  EXPECT_EQ(aclprofStop(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofMark(stamps.front()), ACL_SUCCESS) << "until finalize";
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofMark(stamps.front()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofCreateStamp(), nullptr);
  aclprofDestroyStamp(stamps.front()); // freed already: left alone
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  rmdir(path.c_str());
  rmdir(path.substr(0, path.rfind('/')).c_str());

  aclprofStepInfo *step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, nullptr),
            ACL_SUCCESS);
  aclprofDestroyStepInfo(step);
}

TEST_F(AclProfiling, AclFinalizeEndsTheSessionAsTheRealOneDoes) {
  std::string path = resultFolder();
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  aclprofConfig *config = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE,
                                              nullptr, ACL_PROF_MSPROFTX);
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
  void *stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN) << "ended already";
  EXPECT_EQ(aclprofMark(stamp), ACL_ERROR_INVALID_PARAM) << "freed with it";
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS) << "a host object";
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  rmdir(path.c_str());
  rmdir(path.substr(0, path.rfind('/')).c_str());
}

TEST_F(AclProfiling, SubscribeConfigsAreHostObjects) {
  int pipe[2];
  ASSERT_EQ(::pipe(pipe), 0);
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr)
      << "a descriptor is needed";
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &pipe[1]), nullptr)
      << "the time switch is 0 or 1";
  aclprofSubscribeConfig *config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &pipe[1]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_ERROR_INVALID_PARAM)
      << "a double destroy is refused, not a double free";
  EXPECT_EQ(aclprofDestroySubscribeConfig(nullptr), ACL_ERROR_INVALID_PARAM);
  close(pipe[0]);
  close(pipe[1]);
}

TEST_F(AclProfiling, AModelSubscriptionLastsUntilUnsubscribed) {
  int pipe[2];
  ASSERT_EQ(::pipe(pipe), 0);
  int reader = pipe[0], writer = pipe[1];
  std::string weights(4096, 'w');
  uint32_t model = 0;
  ASSERT_EQ(aclmdlLoadFromMem(weights.data(), weights.size(), &model),
            ACL_SUCCESS);
  aclprofSubscribeConfig *config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &pipe[1]);
  ASSERT_NE(config, nullptr);

  EXPECT_EQ(aclprofModelSubscribe(model + 100, config),
            ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclprofModelSubscribe(model, nullptr), ACL_ERROR_INVALID_PARAM);
  aclprofSubscribeConfig *idle =
      aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &pipe[1]);
  EXPECT_EQ(aclprofModelSubscribe(model, idle), ACL_ERROR_INVALID_PARAM)
      << "a subscription that asks for nothing";
  EXPECT_EQ(aclprofDestroySubscribeConfig(idle), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelUnSubscribe(model), ACL_ERROR_INVALID_MODEL_ID)
      << "not subscribed";

  ASSERT_EQ(aclprofModelSubscribe(model, config), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelSubscribe(model, config),
            ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
  std::string path = resultFolder();
  EXPECT_EQ(aclprofInit(path.c_str(), path.size()), ACL_ERROR_PROF_API_CONFLICT)
      << "a session and subscriptions exclude each other";
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS)
      << "the subscription does not need its config";

  EXPECT_EQ(aclprofModelUnSubscribe(model), ACL_SUCCESS);
  EXPECT_EQ(pipe[1], -1) << "the library closes the caller's descriptor";
  char byte;
  EXPECT_EQ(read(reader, &byte, 1), 0) << "the reader sees the end";
  EXPECT_EQ(fcntl(writer, F_GETFD), -1) << "closed";
  EXPECT_EQ(aclprofModelUnSubscribe(model), ACL_ERROR_INVALID_MODEL_ID);
  close(reader);

  // An initialised session refuses subscriptions the same way.
  ASSERT_EQ(::pipe(pipe), 0);
  config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &pipe[1]);
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelSubscribe(model, config), ACL_ERROR_PROF_API_CONFLICT);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  rmdir(path.c_str());
  rmdir(path.substr(0, path.rfind('/')).c_str());

  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
  close(pipe[0]);
  close(pipe[1]);
  // (A subscription whose model is unloaded first cannot be ended -- the
  // unsubscribe wants a loaded model -- and outlives aclFinalize, as on the
  // real stack: this process's later tests would inherit it.)
  EXPECT_EQ(aclmdlUnload(model), ACL_SUCCESS);
}

} // namespace
