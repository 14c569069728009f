//===- ProcessRegistryTest.cpp - device use published across processes ----===//
#include "process_registry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace mssim;

namespace {

class ProcessRegistryTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/mssim-registry-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    Dir = pattern;
    Config.deviceCount = 2;
    Config.deviceMemoryBytes = 1ULL << 30;
    Config.runDir = Dir;
  }
  void TearDown() override { std::system(("rm -rf " + Dir).c_str()); }

  std::string Dir;
  SimConfig Config;
};

} // namespace

TEST_F(ProcessRegistryTest, PublishesCountersOfThisProcess) {
  ProcessRegistry registry(Config);
  ASSERT_TRUE(registry.error().empty()) << registry.error();
  registry.add(0, 4096);
  registry.add(0, 512);
  registry.add(1, 1024);
  registry.remove(0, 512);
  std::vector<ProcessUsage> all = ProcessRegistry::readAll(Dir);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].pid, getpid());
  EXPECT_EQ(all[0].deviceCount, 2u);
  EXPECT_EQ(all[0].capacity[1], 1ULL << 30);
  EXPECT_EQ(all[0].usedBytes[0], 4096u);
  EXPECT_EQ(all[0].liveAllocations[0], 1u);
  EXPECT_EQ(all[0].usedBytes[1], 1024u);
  EXPECT_FALSE(all[0].name.empty());
}

TEST_F(ProcessRegistryTest, UnpublishRemovesTheRecord) {
  {
    ProcessRegistry registry(Config);
    EXPECT_EQ(ProcessRegistry::readAll(Dir).size(), 1u);
  }
  EXPECT_TRUE(ProcessRegistry::readAll(Dir).empty());
}

TEST_F(ProcessRegistryTest, RecordsOfDeadProcessesAreDiscarded) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ProcessRegistry registry(Config);
    registry.add(0, 777);
    _exit(0); // dies without unpublishing, as a killed process would
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::string record = Dir + "/" + std::to_string(child) + ".usage";
  ASSERT_TRUE(std::ifstream(record).good())
      << "the child left its record behind";
  EXPECT_TRUE(ProcessRegistry::readAll(Dir).empty());
  EXPECT_FALSE(std::ifstream(record).good())
      << "the reader removed the stale record";
}

TEST_F(ProcessRegistryTest, ForeignFilesAreIgnored) {
  std::ofstream(Dir + "/garbage.usage") << "not a record";
  std::ofstream(Dir + "/notes.txt") << "hello";
  EXPECT_TRUE(ProcessRegistry::readAll(Dir).empty());
  EXPECT_TRUE(std::ifstream(Dir + "/garbage.usage").good())
      << "unknown files are left alone";
}

TEST_F(ProcessRegistryTest, ChildAfterForkPublishesItsOwnRecord) {
  ProcessRegistry registry(Config);
  registry.add(0, 2048);
  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    registry.reopenAfterFork();
    registry.add(0, 1024);
    char ready = 'r';
    (void)!write(pipeFds[1], &ready, 1);
    pause(); // stays alive until killed
    _exit(0);
  }
  char ready;
  ASSERT_EQ(read(pipeFds[0], &ready, 1), 1);
  std::vector<ProcessUsage> all = ProcessRegistry::readAll(Dir);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_EQ(all.size(), 2u);
  for (const ProcessUsage &usage : all)
    EXPECT_EQ(usage.usedBytes[0], usage.pid == getpid() ? 2048u : 3072u)
        << "pid " << usage.pid;
}

TEST_F(ProcessRegistryTest, UnwritableDirectoryIsReportedNotFatal) {
  Config.runDir = "/proc/mssim-cannot-exist";
  ProcessRegistry registry(Config);
  EXPECT_FALSE(registry.error().empty());
  registry.add(0, 1); // inert, no crash
}
