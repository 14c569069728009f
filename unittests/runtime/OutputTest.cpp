//===- OutputTest.cpp - output files: replaced, written through, refused --===//
#include "output.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace msledger;

namespace {

/// A fresh directory of the test's own, removed with it.
struct Scratch {
  std::string dir;
  Scratch() {
    char pattern[] = "/tmp/msledger-output-test.XXXXXX";
    EXPECT_NE(mkdtemp(pattern), nullptr);
    dir = pattern;
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
};

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

} // namespace

TEST(Output, ARegularFileIsReplacedWholeKeepingItsMode) {
  Scratch scratch;
  std::string dir = scratch.dir, path = dir + "/r.json";
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

TEST(Output, ANameNearNameMaxLeavesRoomForTheTemporary) {
  Scratch scratch;
  std::string dir = scratch.dir, path = dir + "/" + std::string(250, 'n');
  ASSERT_TRUE(writeOutputFile(path, "x", false)) << strerror(errno);
  EXPECT_EQ(contents(path), "x");
  EXPECT_EQ(names(dir).size(), 1u);
}

TEST(Output, ALinkIsFollowedAndStays) {
  Scratch scratch;
  std::string dir = scratch.dir;
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

TEST(Output, DevicesAndFifosAreWrittenThroughOrRefused) {
  ASSERT_TRUE(writeOutputFile("/dev/null", "gone", false));
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  Scratch scratch;
  std::string dir = scratch.dir, fifo = dir + "/fifo";
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

TEST(Output, OnlyTheFileItWroteIsRemoved) {
  Scratch scratch;
  std::string dir = scratch.dir, path = dir + "/start.json";
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
