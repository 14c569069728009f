//===- CorpusTest.cpp - every fuzz corpus input, replayed -----------------===//
//
// The corpora under unittests/fuzz/corpus/ (seeds, and any input a fuzzing
// run found and that was added since) run through each fuzzed reader in the
// ordinary build: a crash fixed stays fixed without a fuzzing run. Seeds
// named valid-* must be accepted, so that the fuzzer starts from inputs
// that reach past the parser, and bad-* refused.
//
//===----------------------------------------------------------------------===//
#include "fuzz_targets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

void replay(const char *corpus,
            bool (*target)(const uint8_t *data, size_t size)) {
  std::filesystem::path dir =
      std::filesystem::path(MSLEDGER_FUZZ_CORPUS) / corpus;
  size_t inputs = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream file(entry.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)),
                      std::istreambuf_iterator<char>());
    bool accepted =
        target(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    std::string name = entry.path().filename().string();
    if (name.rfind("valid-", 0) == 0) {
      EXPECT_TRUE(accepted) << entry.path();
    } else if (name.rfind("bad-", 0) == 0) {
      EXPECT_FALSE(accepted) << entry.path();
    }
    ++inputs;
  }
  EXPECT_GT(inputs, 0u) << dir;
}

} // namespace

TEST(FuzzCorpus, MergeInputs) {
  replay("mergeinput", msledger::fuzzMergeInput);
}
TEST(FuzzCorpus, Snapshots) { replay("snapshot", msledger::fuzzSnapshot); }
TEST(FuzzCorpus, JobStatus) { replay("jobstatus", msledger::fuzzJobStatus); }
TEST(FuzzCorpus, Suppressions) {
  replay("suppressions", msledger::fuzzSuppressions);
}
TEST(FuzzCorpus, Baselines) { replay("baseline", msledger::fuzzBaseline); }
