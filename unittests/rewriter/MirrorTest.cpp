//===- MirrorTest.cpp - a rewritten copy of the project -------------------===//
#include "mirror.h"
#include "text_file.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace msledger;

namespace {

class MirrorTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/msledger-mirror-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    Dir = pattern;
    Root = Dir + "/src/";
    Mirror = Dir + "/copy/";
    ASSERT_EQ(mkdir(Root.c_str(), 0755), 0);
  }
  void TearDown() override { std::system(("rm -rf " + Dir).c_str()); }
  void write(const std::string &path, const std::string &text) {
    std::string error;
    ASSERT_TRUE(writeTextFileAtomically(path, text, &error)) << error;
  }
  std::string read(const std::string &path) {
    std::string error;
    return readTextFile(path, &error).value_or("<missing>");
  }
  std::string Dir, Root, Mirror;
};

} // namespace

TEST(Mirror, MapsTheRootAndWhatIsBelowItOnly) {
  EXPECT_EQ(mirrored("/p/src/a.c", "/p/src/", "/m/"), "/m/a.c");
  EXPECT_EQ(mirrored("-I/p/src/include", "/p/src/", "/m/"), "-I/m/include");
  EXPECT_EQ(mirrored("/p/src", "/p/src/", "/m/"), "/m");
  // A sibling whose name starts like the root is not the root.
  EXPECT_EQ(mirrored("/p/srcgen/a.c", "/p/src/", "/m/"), "/p/srcgen/a.c");
  EXPECT_EQ(mirrored("-ffile-prefix-map=/p/src/=/p/src/", "/p/src/", "/m/"),
            "-ffile-prefix-map=/m/=/m/");
}

TEST_F(MirrorTest, BuildProductsAreRecognisedByTheirBytes) {
  write(Root + "a.o", std::string("\x7f"
                                  "ELF\x02\x01\x01",
                                  7));
  write(Root + "liba.a", "!<arch>\nrest");
  write(Root + "main.c", "int main(void) { return 0; }\n");
  write(Root + "short", "\x7f");
  EXPECT_TRUE(isBinaryProduct(Root + "a.o"));
  EXPECT_TRUE(isBinaryProduct(Root + "liba.a"));
  EXPECT_FALSE(isBinaryProduct(Root + "main.c"));
  EXPECT_FALSE(isBinaryProduct(Root + "short"));
  EXPECT_FALSE(isBinaryProduct(Root + "missing"));
}

TEST_F(MirrorTest, WritesRewrittenFilesAndCopiesTheRestUnchanged) {
  write(Root + "main.c", "original main\n");
  write(Root + "util.h", "header\n");
  struct stat before;
  ASSERT_EQ(stat((Root + "util.h").c_str(), &before), 0);
  FileRewrite rewrite{
      Root + "main.c", "main.c", "original main\n", "rewritten main\n", {}};
  std::vector<std::string> notes;
  std::set<std::string> written;
  std::string error;
  ASSERT_TRUE(writeMirrorFiles(
      Mirror, {Root + "main.c"}, {}, {Root + "util.h", "/usr/include/x.h"},
      {rewrite}, Root, &written,
      [&](const std::string &n) { notes.push_back(n); }, &error))
      << error;
  EXPECT_EQ(read(Mirror + "main.c"), "rewritten main\n");
  EXPECT_EQ(read(Mirror + "util.h"), "header\n");
  EXPECT_EQ(written, (std::set<std::string>{Root + "main.c", Root + "util.h"}));
  // A copy keeps its modification time: it is no newer than the original.
  struct stat copied;
  ASSERT_EQ(stat((Mirror + "util.h").c_str(), &copied), 0);
  EXPECT_EQ(copied.st_mtim.tv_sec, before.st_mtim.tv_sec);
  EXPECT_EQ(copied.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  // A file outside the root stays where it is, with a note.
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("/usr/include/x.h is outside the project root"),
            std::string::npos);
}

TEST_F(MirrorTest, TheRestOfTheProjectLeavesBuildProductsOut) {
  write(Root + "CMakeLists.txt", "project(x)\n");
  ASSERT_EQ(mkdir((Root + ".git").c_str(), 0755), 0);
  write(Root + ".git/HEAD", "ref\n");
  ASSERT_EQ(mkdir((Root + "build").c_str(), 0755), 0);
  write(Root + "build/compile_commands.json", "[]\n");
  ASSERT_EQ(mkdir((Root + "out").c_str(), 0755), 0);
  write(Root + "out/CMakeCache.txt", "\n");
  write(Root + "old.o", std::string("\x7f"
                                    "ELF....",
                                    8));
  write(Root + "named.obj", "written by a command\n");
  write(Root + "main.c", "already written\n");
  std::string error;
  ASSERT_TRUE(copyRestOfProject(Root, Mirror, Root + "build", {Root + "main.c"},
                                {Root + "named.obj"}, &error))
      << error;
  EXPECT_EQ(read(Mirror + "CMakeLists.txt"), "project(x)\n");
  for (const char *absent :
       {".git/HEAD", "build/compile_commands.json", "out/CMakeCache.txt",
        "old.o", "named.obj", "main.c"})
    EXPECT_NE(access((Mirror + absent).c_str(), F_OK), 0) << absent;
}
