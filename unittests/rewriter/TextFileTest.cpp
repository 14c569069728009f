//===- TextFileTest.cpp - whole-file reads and atomic writes --------------===//
#include "text_file.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace msledger;

namespace {

/// A fresh directory for one test, removed with it.
class TextFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/msledger-textfile-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    Dir = pattern;
  }
  void TearDown() override {
    std::string command = "rm -rf '" + Dir + "'";
    EXPECT_EQ(std::system(command.c_str()), 0);
  }
  bool exists(const std::string &path) const {
    struct stat st;
    return stat(path.c_str(), &st) == 0;
  }
  std::string Dir;
};

TEST_F(TextFileTest, RoundTripsBytesIncludingNulAndNoNewline) {
  std::string path = Dir + "/a.cpp";
  std::string text("int a;\0\r\nend", 12);
  std::string error;
  ASSERT_TRUE(writeTextFileAtomically(path, text, &error)) << error;
  std::optional<std::string> read = readTextFile(path, &error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(*read, text);
  ASSERT_TRUE(writeTextFileAtomically(path, "", &error)) << error;
  EXPECT_EQ(readTextFile(path, &error), std::string());
  EXPECT_FALSE(exists(path + ".msledger-tmp"));
}

TEST_F(TextFileTest, KeepsTheModeOfTheFileItReplaces) {
  std::string path = Dir + "/run.sh";
  std::string error;
  ASSERT_TRUE(writeTextFileAtomically(path, "one", &error)) << error;
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  ASSERT_EQ(chmod(path.c_str(), 0751), 0);
  ASSERT_TRUE(writeTextFileAtomically(path, "two", &error)) << error;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0751u);
}

TEST_F(TextFileTest, OnlyARegularFileIsRead) {
  std::string error;
  EXPECT_FALSE(readTextFile(Dir, &error));
  EXPECT_NE(error.find("Is a directory"), std::string::npos) << error;
  std::string fifo = Dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(readTextFile(fifo, &error)) << "never blocks on a FIFO";
  EXPECT_EQ(error, "cannot read " + fifo + ": not a regular file");
  EXPECT_FALSE(readTextFile("/dev/zero", &error)) << "nor reads forever";
}

TEST_F(TextFileTest, FailuresNameThePathAndLeaveNoTemporary) {
  std::string error;
  EXPECT_FALSE(readTextFile(Dir + "/missing.cpp", &error));
  EXPECT_EQ(error,
            "cannot read " + Dir + "/missing.cpp: No such file or directory");
  EXPECT_FALSE(readTextFile(Dir, &error));
  EXPECT_EQ(error, "cannot read " + Dir + ": Is a directory");

  EXPECT_FALSE(
      writeTextFileAtomically(Dir + "/no/such/dir/a.cpp", "x", &error));
  EXPECT_EQ(error.rfind("cannot write " + Dir + "/no/such/dir/a.cpp", 0), 0u)
      << error;

  // The rename fails (a directory is in the way): the temporary goes.
  std::string blocked = Dir + "/blocked";
  ASSERT_EQ(mkdir(blocked.c_str(), 0755), 0);
  EXPECT_FALSE(writeTextFileAtomically(blocked, "x", &error));
  EXPECT_EQ(error.rfind("cannot replace " + blocked + ": ", 0), 0u) << error;
  EXPECT_FALSE(exists(blocked + ".msledger-tmp"));
}

} // namespace
