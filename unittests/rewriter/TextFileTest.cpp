//===- TextFileTest.cpp - whole-file reads and the one atomic writer ------===//
#include "text_file.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

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

std::vector<std::string> names(const std::string &dir) {
  std::vector<std::string> out;
  if (DIR *listing = opendir(dir.c_str())) {
    while (dirent *entry = readdir(listing))
      if (std::string(entry->d_name) != "." &&
          std::string(entry->d_name) != "..")
        out.push_back(entry->d_name);
    closedir(listing);
  }
  return out;
}

std::string contents(const std::string &path) {
  return readRegularFile(path, 1 << 20).value_or("<none>");
}

TEST_F(TextFileTest, ARegularFileIsReplacedWholeKeepingItsMode) {
  std::string dir = Dir, path = dir + "/r.json";
  ASSERT_TRUE(writeOutputFile(path, "one", false));
  chmod(path.c_str(), 0600);
  WrittenFile written;
  ASSERT_TRUE(writeOutputFile(path, "two", true, &written));
  EXPECT_EQ(contents(path), "two");
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(names(dir), std::vector<std::string>{"r.json"})
      << "no temporary left";
  EXPECT_TRUE(written.replaced);
  EXPECT_EQ(written.inode, st.st_ino);
}

TEST_F(TextFileTest, ANameNearNameMaxLeavesRoomForTheTemporary) {
  std::string dir = Dir, path = dir + "/" + std::string(250, 'n');
  ASSERT_TRUE(writeOutputFile(path, "x", false)) << strerror(errno);
  EXPECT_EQ(contents(path), "x");
  EXPECT_EQ(names(dir).size(), 1u);
}

TEST_F(TextFileTest, ALinkIsFollowedAndStays) {
  std::string dir = Dir;
  ASSERT_TRUE(writeOutputFile(dir + "/target", "old", false));
  ASSERT_EQ(symlink("target", (dir + "/link").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir + "/link", "new", false));
  struct stat st;
  ASSERT_EQ(lstat((dir + "/link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(contents(dir + "/target"), "new");
  // A link to nothing yet makes its target.
  ASSERT_EQ(symlink("later", (dir + "/dangling").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir + "/dangling", "made", false));
  EXPECT_EQ(contents(dir + "/later"), "made");
}

TEST_F(TextFileTest, DevicesAndFifosAreWrittenThroughOrRefused) {
  ASSERT_TRUE(writeOutputFile("/dev/null", "gone", false));
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  std::string dir = Dir, fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(writeOutputFile(fifo, "x", false)) << "no reader: no wait";
  EXPECT_EQ(errno, ENXIO);
  int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  EXPECT_TRUE(writeOutputFile(fifo, "through", false));
  char buffer[16] = {};
  EXPECT_EQ(read(reader, buffer, sizeof buffer), 7);
  EXPECT_STREQ(buffer, "through");
  close(reader);
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_FALSE(writeOutputFile(dir, "x", false));
  EXPECT_EQ(errno, EISDIR);
  EXPECT_FALSE(readRegularFile(fifo, 100)) << "never blocks on a FIFO";
  EXPECT_FALSE(readRegularFile("/dev/zero", 100));
}

TEST_F(TextFileTest, OnlyTheFileItWroteIsRemoved) {
  std::string dir = Dir, path = dir + "/start.json";
  WrittenFile mine;
  ASSERT_TRUE(writeOutputFile(path, "mine", false, &mine));
  ASSERT_TRUE(writeOutputFile(path, "another process's", false));
  EXPECT_FALSE(removeIfUnchanged(path, mine));
  EXPECT_EQ(contents(path), "another process's");
  ASSERT_TRUE(writeOutputFile(path, "mine again", false, &mine));
  EXPECT_TRUE(removeIfUnchanged(path, mine));
  EXPECT_TRUE(names(dir).empty());
  WrittenFile through;
  ASSERT_TRUE(writeOutputFile("/dev/null", "", false, &through));
  EXPECT_FALSE(removeIfUnchanged("/dev/null", through));
}

TEST_F(TextFileTest, MsrewriteReplacesALinkInsteadOfFollowingIt) {
  // A project's link may point out of the project root, where msrewrite
  // never writes: the link itself becomes the rewritten file, with the mode
  // of what it pointed to, and its target stays as it was.
  std::string target = Dir + "/outside.c", link = Dir + "/inside.c";
  std::string error;
  ASSERT_TRUE(writeTextFileAtomically(target, "original", &error)) << error;
  ASSERT_EQ(chmod(target.c_str(), 0640), 0);
  ASSERT_EQ(symlink("outside.c", link.c_str()), 0);
  ASSERT_TRUE(writeTextFileAtomically(link, "rewritten", &error)) << error;
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(contents(link), "rewritten");
  EXPECT_EQ(contents(target), "original");
}

TEST_F(TextFileTest, MessagesNameWhatFailed) {
  std::string error;
  EXPECT_FALSE(writeFileAtomically(Dir, "x", false, LinkPolicy::Follow, nullptr,
                                   &error));
  EXPECT_EQ(error, "cannot replace " + Dir + ": Is a directory");
  std::string fifo = Dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(writeTextFileAtomically(fifo, "x", &error));
  EXPECT_EQ(error, "cannot write " + fifo + ": " + strerror(ENXIO));
  // Devices are written through, whoever writes.
  EXPECT_TRUE(writeTextFileAtomically("/dev/null", "x", &error)) << error;
}

TEST_F(TextFileTest, ReadsAtMostTheLimit) {
  std::string path = Dir + "/big";
  std::string error;
  ASSERT_TRUE(writeTextFileAtomically(path, std::string(100, 'b'), &error));
  EXPECT_EQ(readRegularFile(path, 100, &error), std::string(100, 'b'));
  EXPECT_FALSE(readRegularFile(path, 99, &error));
  EXPECT_EQ(error, "cannot read " + path + ": " + strerror(EFBIG));
}

TEST_F(TextFileTest, AppendsMakingTheFile) {
  std::string path = Dir + "/log";
  ASSERT_TRUE(appendToFile(path, "one\n"));
  ASSERT_TRUE(appendToFile(path, "two\n"));
  EXPECT_EQ(contents(path), "one\ntwo\n");
  EXPECT_FALSE(appendToFile(Dir, "x"));
  EXPECT_EQ(errno, EISDIR);
}

} // namespace
