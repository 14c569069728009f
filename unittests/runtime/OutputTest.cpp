//===- OutputTest.cpp - the log: appended to, or stderr with a complaint --===//
//
// Output files are text_file.h's (unittests/rewriter/TextFileTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

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

/// What `write` wrote to stderr.
template <typename Write> std::string stderrOf(Write write) {
  fflush(stderr);
  FILE *capture = tmpfile();
  int saved = dup(2);
  dup2(fileno(capture), 2);
  write();
  dup2(saved, 2);
  close(saved);
  std::string text;
  rewind(capture);
  char buffer[256];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, capture)) > 0)
    text.append(buffer, n);
  fclose(capture);
  return text;
}

} // namespace

TEST(Output, TheLogIsAppendedTo) {
  Scratch scratch;
  std::string log = scratch.dir + "/report.txt";
  std::string shown = stderrOf([&] {
    writeLog(log, "one\n");
    writeLog(log, "two\n");
  });
  EXPECT_EQ(shown, "");
  EXPECT_EQ(readRegularFile(log, 100), std::string("one\ntwo\n"));
}

TEST(Output, AnUnwritableLogFallsBackToStderr) {
  Scratch scratch;
  std::string shown = stderrOf([&] { writeLog(scratch.dir, "report\n"); });
  EXPECT_EQ(shown, "msledger: cannot write the log file " + scratch.dir +
                       ": Is a directory\nreport\n");
  EXPECT_EQ(stderrOf([] { writeLog("", "plain\n"); }), "plain\n");
}
