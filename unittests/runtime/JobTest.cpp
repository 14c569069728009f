//===- JobTest.cpp - ranks, file names and the job's status files ---------===//
#include "job.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

using namespace msledger;

namespace {

/// Clears every rank variable for the test, and restores none of them:
/// the test process has no rank of its own.
void clearRanks() {
  for (const char *name : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                           "PMIX_RANK", "SLURM_PROCID", "LOCAL_RANK"})
    unsetenv(name);
}

} // namespace

TEST(Job, ExpandsPidAndRank) {
  EXPECT_EQ(expandPath("/tmp/log.%p", 42, -1), "/tmp/log.42");
  EXPECT_EQ(expandPath("%p-%p", 7, -1), "7-7");
  EXPECT_EQ(expandPath("100%", 7, 3), "100%");
  EXPECT_EQ(expandPath("r%r.%p.json", 7, 3), "r3.7.json");
  EXPECT_EQ(expandPath("r%r.json", 7, -1), "rnorank.json");
  EXPECT_EQ(expandPath("%%r", 7, 1), "%1") << "no escape, as LSan's %p";
}

TEST(Job, RankComesFromTheLaunchersVariablesInOrder) {
  clearRanks();
  EXPECT_EQ(processRank(), -1);
  setenv("LOCAL_RANK", "5", 1);
  EXPECT_EQ(processRank(), 5);
  setenv("OMPI_COMM_WORLD_RANK", "9", 1);
  EXPECT_EQ(processRank(), 9) << "the world rank before the local one";
  setenv("RANK", "2", 1);
  EXPECT_EQ(processRank(), 2);
  setenv("RANK", "two", 1);
  EXPECT_EQ(processRank(), 9) << "not a number: the next variable";
  clearRanks();
}

TEST(Job, StatusFilesRoundTrip) {
  JobProcess process;
  process.pid = 1234;
  process.parentPid = 1200;
  process.rank = 3;
  process.program = "/opt/app/worker \"x\"";
  process.exited = true;
  process.findings = 2;
  process.leakedBytes = 65536;
  std::optional<JobProcess> read = parseJobStatus(formatJobStatus(process));
  ASSERT_TRUE(read);
  EXPECT_EQ(read->pid, 1234);
  EXPECT_EQ(read->parentPid, 1200);
  EXPECT_EQ(read->rank, 3);
  EXPECT_EQ(read->program, process.program);
  EXPECT_TRUE(read->exited);
  EXPECT_EQ(read->findings, 2u);
  EXPECT_EQ(read->leakedBytes, 65536u);
  process.rank = -1;
  process.exited = false;
  read = parseJobStatus(formatJobStatus(process));
  ASSERT_TRUE(read);
  EXPECT_EQ(read->rank, -1);
  EXPECT_FALSE(read->exited);
  EXPECT_FALSE(parseJobStatus("{\"pid\": 1"));
  EXPECT_FALSE(parseJobStatus("[]"));
}

TEST(Job, TheDirectorysStatusFilesByPid) {
  char dir[] = "/tmp/msledger-jobtest.XXXXXX";
  ASSERT_TRUE(mkdtemp(dir));
  JobProcess a, b;
  a.pid = 30;
  b.pid = 4;
  b.exited = true;
  std::ofstream(jobStatusPath(dir, a.pid)) << formatJobStatus(a);
  std::ofstream(jobStatusPath(dir, b.pid)) << formatJobStatus(b);
  std::ofstream(jobStatusPath(dir, 5) + ".tmp5") << "partial";
  std::ofstream(std::string(dir) + "/junk.json") << "not json";
  std::vector<JobProcess> processes = readJobDirectory(dir);
  ASSERT_EQ(processes.size(), 2u);
  EXPECT_EQ(processes[0].pid, 4);
  EXPECT_TRUE(processes[0].exited);
  EXPECT_EQ(processes[1].pid, 30);
  EXPECT_FALSE(processes[1].exited);
  std::string cleanup = std::string("rm -rf ") + dir;
  ASSERT_EQ(system(cleanup.c_str()), 0);
}
