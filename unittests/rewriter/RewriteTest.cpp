//===- RewriteTest.cpp - planning the rewrite of translation units --------===//
#include "rewrite.h"
#include "text_file.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace msledger;

namespace {

/// A project's allocator: what the planner rewrites.
const char *const kCatalog = R"json({"version": 1,
  "families": [{"name": "pool", "level": "cann", "kind": "memory",
                "display": "pool memory", "space": "host"}],
  "functions": [
    {"signature": "int poolAlloc(void **ptr, unsigned long size)",
     "role": "alloc", "family": "pool", "handle": {"from": "out", "param": "ptr"},
     "size": {"param": "size"}, "success": {"equals": 0}},
    {"signature": "int poolFree(void *ptr)", "role": "free", "family": "pool",
     "handle": {"from": "param", "param": "ptr"}, "success": {"equals": 0}}]})json";

class RewriteTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/msledger-rewrite-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    Root = std::string(pattern) + "/";
    std::string error;
    std::optional<Catalog> parsed =
        Catalog::parse(kCatalog, "pool.json", &error);
    ASSERT_TRUE(parsed) << error;
    Catalog_ = *parsed;
    write("pool.h", "int poolAlloc(void **ptr, unsigned long size);\n"
                    "int poolFree(void *ptr);\n"
                    "static inline void *grab(void) {\n"
                    "  void *p = 0;\n"
                    "  poolAlloc(&p, 64);\n"
                    "  return p;\n"
                    "}\n");
    write("a.c", "#include \"pool.h\"\n"
                 "void a(void) { poolFree(grab()); }\n");
    write("b.c", "#include \"pool.h\"\n"
                 "void b(void *p) { poolFree(p); }\n");
    write("broken.c", "#include \"pool.h\"\n"
                      "void c(void) { poolFree(); }\n");
  }
  void TearDown() override { std::system(("rm -rf " + Root).c_str()); }
  void write(const std::string &name, const std::string &text) {
    std::string error;
    ASSERT_TRUE(writeTextFileAtomically(Root + name, text, &error)) << error;
  }
  /// Parses quietly, or with diagnostics to stderr (and so in parallel).
  RewritePlan plan(const std::vector<std::string> &names, unsigned jobs,
                   bool quiet = true) {
    clang::DiagnosticConsumer *diagnostics = quiet ? &Quiet : nullptr;
    clang::tooling::FixedCompilationDatabase database(Root, {"-std=c11"});
    std::vector<std::string> files;
    for (const std::string &name : names)
      files.push_back(Root + name);
    return planRewrite(database, files, Catalog_, {}, Root,
                       {MSLEDGER_CLANG_RESOURCE_DIR, {}}, jobs, diagnostics);
  }
  const FileRewrite *find(const RewritePlan &plan, const std::string &name) {
    for (const FileRewrite &file : plan.files)
      if (file.relative == name)
        return &file;
    return nullptr;
  }
  std::string Root;
  Catalog Catalog_;
  clang::IgnoringDiagConsumer Quiet;
};

} // namespace

TEST_F(RewriteTest, AHeaderSharedByTranslationUnitsIsPlannedOnce) {
  RewritePlan rewrite = plan({"a.c", "b.c"}, 1);
  EXPECT_TRUE(rewrite.failedFiles.empty());
  ASSERT_EQ(rewrite.files.size(), 3u);
  const FileRewrite *header = find(rewrite, "pool.h");
  ASSERT_NE(header, nullptr);
  ASSERT_EQ(header->sites.size(), 1u); // seen by both, rewritten once
  EXPECT_EQ(header->sites[0].callee, "poolAlloc");
  EXPECT_EQ(header->sites[0].line, 5u);
  EXPECT_NE(
      header->after.find("msledger_poolAlloc(MSLEDGER_SITE(\"pool.h\", 5,"),
      std::string::npos);
  // a.c calls grab(), a helper that reaches a catalog call: wrapped too.
  const FileRewrite *a = find(rewrite, "a.c");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->sites.size(), 2u);
  EXPECT_NE(a->after.find("poolFree(MSLEDGER_SITE"), std::string::npos);
  EXPECT_NE(a->after.find("MSLEDGER_CHAIN(MSLEDGER_SITE(\"a.c\", 2,"),
            std::string::npos);
  EXPECT_EQ(rewrite.sites, 4u);
  EXPECT_EQ(
      rewrite.projectFiles,
      (std::set<std::string>{Root + "a.c", Root + "b.c", Root + "pool.h"}));
  // Nothing is written: the files are as they were.
  std::string error;
  EXPECT_EQ(readTextFile(Root + "pool.h", &error), header->before);
}

TEST_F(RewriteTest, ParallelPlansEqualTheSerialOne) {
  RewritePlan serial = plan({"a.c", "b.c"}, 1);
  RewritePlan parallel = plan({"a.c", "b.c"}, 4, /*quiet=*/false);
  ASSERT_EQ(serial.files.size(), parallel.files.size());
  for (size_t i = 0; i < serial.files.size(); ++i) {
    EXPECT_EQ(serial.files[i].path, parallel.files[i].path);
    EXPECT_EQ(serial.files[i].after, parallel.files[i].after);
  }
}

TEST_F(RewriteTest, AFileThatDoesNotCompileIsReportedAndLeftOut) {
  RewritePlan rewrite = plan({"broken.c", "b.c"}, 2);
  EXPECT_EQ(rewrite.failedFiles, std::set<std::string>{Root + "broken.c"});
  EXPECT_EQ(find(rewrite, "broken.c"), nullptr);
  EXPECT_NE(find(rewrite, "b.c"), nullptr);
}

TEST_F(RewriteTest, AnInstrumentedFileIsNamedAndLeftAsItIs) {
  // The trailer line is what marks a file instrumented.
  write("b.c", "#include \"pool.h\"\n"
               "void b(void *p) { poolFree(p); }\n" +
                   std::string(kMarker) + " */\n");
  RewritePlan second = plan({"b.c"}, 1);
  EXPECT_EQ(second.instrumented, std::vector<std::string>{Root + "b.c"});
  EXPECT_EQ(find(second, "b.c"), nullptr);
}

TEST_F(RewriteTest, ParallelParsesEachRunInTheirOwnDirectory) {
  // Two commands run in different directories, each finding its header by a
  // relative -I: parsed side by side, neither may see the other's directory
  // (a shared working directory changed with chdir() would), and the
  // process's own directory stays where it was.
  for (const char *dir : {"one", "two"}) {
    ASSERT_EQ(mkdir((Root + dir).c_str(), 0755), 0);
    ASSERT_EQ(mkdir((Root + dir + "/inc").c_str(), 0755), 0);
    write(std::string(dir) + "/inc/local.h",
          "#include \"../../pool.h\"\n#define LOCAL_" + std::string(dir) +
              " 1\n");
    write(std::string(dir) + "/main.c",
          "#include \"local.h\"\n#ifndef LOCAL_" + std::string(dir) +
              "\n#error wrong header\n#endif\nvoid f(void *p) { poolFree(p); "
              "}\n");
  }
  std::vector<clang::tooling::CompileCommand> commands;
  for (const char *dir : {"one", "two"})
    commands.emplace_back(
        Root + dir, Root + dir + "/main.c",
        std::vector<std::string>{"cc", "-Iinc", "-c", "main.c"}, "main.o");
  struct TwoDirectories : clang::tooling::CompilationDatabase {
    std::vector<clang::tooling::CompileCommand> Commands;
    std::vector<clang::tooling::CompileCommand>
    getCompileCommands(llvm::StringRef file) const override {
      for (const auto &command : Commands)
        if (command.Filename == file)
          return {command};
      return {};
    }
  } database;
  database.Commands = commands;
  char before[4096];
  ASSERT_NE(getcwd(before, sizeof before), nullptr);
  for (int round = 0; round < 5; ++round) {
    RewritePlan rewrite =
        planRewrite(database, {Root + "one/main.c", Root + "two/main.c"},
                    Catalog_, {}, Root, {MSLEDGER_CLANG_RESOURCE_DIR, {}}, 2);
    EXPECT_TRUE(rewrite.failedFiles.empty());
    EXPECT_EQ(rewrite.files.size(), 3u); // and pool.h
  }
  char after[4096];
  ASSERT_NE(getcwd(after, sizeof after), nullptr);
  EXPECT_STREQ(after, before);
}
