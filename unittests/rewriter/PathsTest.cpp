//===- PathsTest.cpp - the project root and the files under it ------------===//
#include "paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace msledger;

TEST(Paths, NormaliseMakesAbsoluteAndDropsDots) {
  EXPECT_EQ(normalisePath("/a/./b/../c"), "/a/c");
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  EXPECT_EQ(normalisePath("x/y/../z"), std::string(cwd) + "/x/z");
}

TEST(Paths, UnderMeansStrictlyBelowTheRoot) {
  EXPECT_TRUE(isUnder("/p/a.c", "/p/"));
  EXPECT_TRUE(isUnder("/p/sub/a.c", "/p/"));
  EXPECT_FALSE(isUnder("/p/", "/p/"));
  EXPECT_FALSE(isUnder("/pq/a.c", "/p/"));
  EXPECT_FALSE(isUnder("/other/a.c", "/p/"));
}

TEST(Paths, RelativeToTheRootOrAsItIs) {
  EXPECT_EQ(relativeTo("/p/sub/a.c", "/p/"), "sub/a.c");
  EXPECT_EQ(relativeTo("/usr/include/stdio.h", "/p/"), "/usr/include/stdio.h");
}

TEST(Paths, MsledgerFilesAreNeverTheProjects) {
  char pattern[] = "/tmp/msledger-paths-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  std::string root = std::string(pattern) + "/";
  // Its public headers, wherever they are.
  EXPECT_TRUE(isMsledgerFile(root + "vendor/include/msledger/track.h", root));
  EXPECT_FALSE(isProjectFile(root + "vendor/include/msledger/track.h", root));
  // The CMake package's kept copies, and a build tree of msledger.
  EXPECT_TRUE(isMsledgerFile(root + "msledger-instrumented/main.c", root));
  ASSERT_EQ(mkdir((root + "build").c_str(), 0755), 0);
  std::ofstream(root + "build/CMakeCache.txt")
      << "# cache\nCMAKE_PROJECT_NAME:STATIC=msledger\n";
  EXPECT_TRUE(isMsledgerFile(root + "build/gen/x.c", root));
  // The project's own files, and a root inside a tree of msledger's.
  EXPECT_TRUE(isProjectFile(root + "src/main.c", root));
  EXPECT_FALSE(isProjectFile("/elsewhere/main.c", root));
  EXPECT_TRUE(isProjectFile(root + "build/app/main.c", root + "build/app/"));
  std::system(("rm -rf " + std::string(pattern)).c_str());
}
