//===- LaunchTest.cpp - reading and redirecting a compiler command --------===//
#include "launch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using namespace msledger;

namespace {

using Args = std::vector<std::string>;

CompilerCommand parse(const Args &argv, const std::string &directory = "/b") {
  CompilerCommand compile;
  std::string error;
  EXPECT_TRUE(parseCompilerCommand(argv, directory, &compile, &error)) << error;
  return compile;
}

TEST(LaunchTest, ReadsACMakeNinjaCompilation) {
  CompilerCommand compile =
      parse({"ccache", "/usr/bin/c++", "-I/src/lib/include", "-isystem",
             "/opt/x", "-MD", "-MT", "app.o", "-MF", "dir/app.o.d", "-o",
             "dir/app.o", "-c", "/src/app/main.cpp"});
  EXPECT_EQ(compile.skipReason, "");
  EXPECT_EQ(compile.wrappers, Args{"ccache"});
  ASSERT_FALSE(compile.command.empty());
  EXPECT_EQ(compile.command[0], "/usr/bin/c++");
  EXPECT_EQ(compile.source, "/src/app/main.cpp");
  EXPECT_EQ(compile.command[compile.sourceArgument], "/src/app/main.cpp");
  EXPECT_EQ(compile.output, "/b/dir/app.o");
  EXPECT_EQ(compile.depfile, "/b/dir/app.o.d");
  ASSERT_EQ(compile.includeDirs.size(), 1u); // -isystem is not rewritten
  EXPECT_EQ(compile.includeDirs[0].path, "/src/lib/include");
  EXPECT_TRUE(compile.includeDirs[0].joined);
}

TEST(LaunchTest, DependencyFileNamedAfterTheObjectOrTheSource) {
  EXPECT_EQ(parse({"gcc", "-MD", "-c", "a/x.c", "-o", "obj/x.o"}).depfile,
            "/b/obj/x.d");
  EXPECT_EQ(parse({"gcc", "-MMD", "-c", "a/x.c"}).depfile, "/b/x.d");
  EXPECT_EQ(parse({"gcc", "-c", "a/x.c"}).depfile, "");
}

TEST(LaunchTest, SaysWhyACommandIsRunAsItIs) {
  EXPECT_EQ(parse({"c++", "a.o", "b.o", "-o", "app"}).skipReason,
            "not a compilation (no -c or -S)");
  EXPECT_EQ(parse({"c++", "-E", "-c", "a.cpp"}).skipReason,
            "produces no object");
  EXPECT_EQ(parse({"cc", "-c", "a.c", "b.c"}).skipReason, "2 sources");
  EXPECT_EQ(parse({"cc", "-c", "start.S"}).skipReason, "not C or C++: start.S");
  EXPECT_EQ(parse({"cc", "-x", "assembler", "-c", "a.c"}).skipReason,
            "not C or C++: a.c");
  EXPECT_EQ(parse({"cc", "-c", "a.c", "-o"}).skipReason,
            "an option lacks its value");
  EXPECT_EQ(parse({"ccache"}).skipReason, "no compiler");
  EXPECT_EQ(parse({"cc", "-x", "c", "-c", "input.txt"}).skipReason, "");
}

// A regression: with every visibility, "/work/a.c" read as cl.exe's /w.
TEST(LaunchTest, AbsolutePathsAreNotClOptions) {
  for (const char *path : {"/work/a.c", "/o/a.c", "/c/a.c", "/I/a.c"}) {
    CompilerCommand compile = parse({"cc", "-c", path});
    EXPECT_EQ(compile.skipReason, "") << path;
    EXPECT_EQ(compile.source, path);
  }
}

TEST(LaunchTest, ExpandsResponseFiles) {
  char name[] = "/tmp/msledger-launch-test-XXXXXX";
  int fd = mkstemp(name);
  ASSERT_GE(fd, 0);
  std::string flags = "-Iinclude -c src/a.cpp\n";
  ASSERT_EQ(write(fd, flags.data(), flags.size()),
            static_cast<ssize_t>(flags.size()));
  close(fd);
  CompilerCommand compile =
      parse({"c++", std::string("@") + name, "-o", "a.o"});
  unlink(name);
  EXPECT_EQ(compile.command,
            (Args{"c++", "-Iinclude", "-c", "src/a.cpp", "-o", "a.o"}));
  EXPECT_EQ(compile.source, "/b/src/a.cpp");
  ASSERT_EQ(compile.includeDirs.size(), 1u);
  EXPECT_EQ(compile.includeDirs[0].path, "/b/include");

  // As gcc does, a response file that does not exist is an argument as it
  // is: the command runs unchanged, and the compiler says what is wrong.
  EXPECT_EQ(parse({"c++", "@/no/such/file", "-c", "a.cpp"}).skipReason,
            "not C or C++: @/no/such/file");
}

TEST(LaunchTest, MirroredCommandCompilesTheCopyWithTheMirrorFirst) {
  CompilerCommand compile =
      parse({"ccache", "cc", "-I/src/include", "-iquote", "/src/lib", "-I",
             "/usr/include/x", "-include", "/src/config.h", "-I/src", "-c",
             "/src/lib/a.c", "-o", "a.o"});
  Args mirrored = mirroredCommand(compile, "/src/", "/m/",
                                  {"-I/msledger/include", "-include", "t.h"});
  EXPECT_EQ(mirrored, (Args{"ccache",
                            "cc",
                            "-I/m/include",
                            "-I/src/include",
                            "-iquote",
                            "/m/lib",
                            "-iquote",
                            "/src/lib",
                            "-I",
                            "/usr/include/x",
                            "-include",
                            "/m/config.h",
                            "-I/m",
                            "-I/src",
                            "-c",
                            "/m/lib/a.c",
                            "-o",
                            "a.o",
                            "-I/msledger/include",
                            "-include",
                            "t.h",
                            "-ffile-prefix-map=/m=/src"}));
}

TEST(LaunchTest, RemapsMirrorPathsBackToTheProject) {
  std::string text = "a.o: /m/src/a.c /m/include/h.h /usr/include/stdio.h \\\n"
                     " /mm/other.h /m/x.h\n";
  EXPECT_EQ(remapPaths(text, "/m/", "/src/", false),
            "a.o: /src/src/a.c /src/include/h.h /usr/include/stdio.h \\\n"
            " /mm/other.h /src/x.h\n");
  // In a dependency file, the project's spaces, '#' and '$' are escaped.
  EXPECT_EQ(remapPaths("a.o: /m/a.c\n", "/m/", "/my src#1$/", true),
            "a.o: /my\\ src\\#1$$/a.c\n");
  EXPECT_EQ(remapPaths("/m/a.c:3:1: warning: x\n", "/m/", "/my src/", false),
            "/my src/a.c:3:1: warning: x\n");
}

} // namespace

TEST(LaunchTest, LinksAreCommandsWithInputsThatStopAtNoStage) {
  auto isLinking = [](const Args &argv) {
    CompilerCommand command;
    command.command = argv;
    return isLink(command);
  };
  EXPECT_TRUE(isLinking({"cc", "main.o", "-lascendcl", "-o", "app"}));
  EXPECT_TRUE(isLinking({"c++", "-shared", "a.o", "-o", "liba.so"}));
  EXPECT_FALSE(isLinking({"cc", "-c", "main.c"}));
  EXPECT_FALSE(isLinking({"cc", "-E", "main.c"}));
  EXPECT_FALSE(isLinking({"cc", "-fsyntax-only", "main.c"}));
  EXPECT_FALSE(isLinking({"cc", "--version"}));
  EXPECT_FALSE(isLinking({"cc", "-print-file-name=libc.so"}));
  EXPECT_FALSE(isLinking({"cc", "-v"}));
  EXPECT_FALSE(isLinking({"cc"}));
  EXPECT_FALSE(isLinking({}));
}
