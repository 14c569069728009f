//===- OptionsTest.cpp - MSLEDGER_OPTIONS parsing -------------------------===//
#include "options.h"

#include <gtest/gtest.h>

using namespace msledger;

TEST(Options, DefaultsComeFromOptionsInc) {
  Options options;
  EXPECT_TRUE(options.check_device_heap);
  EXPECT_TRUE(options.check_cann_heap);
  EXPECT_TRUE(options.leak_check);
  EXPECT_FALSE(options.group_by_site);
  EXPECT_EQ(options.exitcode, 23);
  EXPECT_EQ(options.log_level, LogLevel::Warn);
  EXPECT_EQ(options.log_path, "");
}

TEST(Options, ParsesEveryType) {
  Options options;
  std::vector<std::string> problems;
  options.parse("check_device_heap=no:leak_check=0:group_by_site=true:exitcode="
                "3:log_path=/tmp/x:log_level=info",
                &problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  EXPECT_FALSE(options.check_device_heap);
  EXPECT_FALSE(options.leak_check);
  EXPECT_TRUE(options.group_by_site);
  EXPECT_EQ(options.exitcode, 3);
  EXPECT_EQ(options.log_path, "/tmp/x");
  EXPECT_EQ(options.log_level, LogLevel::Info);
}

TEST(Options, LaterValuesWinAndQuotesProtectColons) {
  Options options;
  std::vector<std::string> problems;
  options.parse(
      "exitcode=1:exitcode=2:json_path=\"/a:b/c.json\":log_path='it''s'",
      &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(options.exitcode, 2);
  EXPECT_EQ(options.json_path, "/a:b/c.json");
  EXPECT_EQ(options.log_path, "its");
}

TEST(Options, ProblemsAreNamedAndDefaultsKept) {
  Options options;
  std::vector<std::string> problems;
  options.parse(
      "bogus=1:leak_check=perhaps:exitcode=12x:lonely:log_level=loud::",
      &problems);
  ASSERT_EQ(problems.size(), 5u);
  EXPECT_EQ(problems[0], "unknown option 'bogus'");
  EXPECT_EQ(problems[1],
            "option 'leak_check' expects yes or no, not 'perhaps'");
  EXPECT_EQ(problems[2],
            "option 'exitcode' expects a number from 0 to 255, not '12x'");
  EXPECT_EQ(problems[3], "option 'lonely' has no value (expected name=value)");
  EXPECT_EQ(problems[4],
            "option 'log_level' expects info, warn or error, not 'loud'");
  EXPECT_TRUE(options.leak_check);
  EXPECT_EQ(options.exitcode, 23);
  EXPECT_EQ(options.log_level, LogLevel::Warn);
  problems.clear();
  options.parse("log_path=\"unterminated", &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unterminated quote in MSLEDGER_OPTIONS");
}

TEST(Options, ValuesOutOfRangeAreRefused) {
  for (const char *text : {"exitcode=256", "exitcode=512", "exitcode=-1"}) {
    Options options;
    std::vector<std::string> problems;
    options.parse(text, &problems);
    ASSERT_EQ(problems.size(), 1u) << text;
    EXPECT_EQ(problems[0], "option 'exitcode' expects a number from 0 to 255, "
                           "not '" +
                               std::string(text + 9) + "'");
    EXPECT_EQ(options.exitcode, 23) << text;
  }
  Options options;
  std::vector<std::string> problems;
  options.parse("chain_depth=17:exitcode=0", &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "option 'chain_depth' expects a number from 0 to 16, not '17'");
  EXPECT_EQ(options.chain_depth, 8);
  EXPECT_EQ(options.exitcode, 0);
}

TEST(Options, ExitCodesAreWholeNumbersFrom0To255) {
  int code = -1;
  std::string why;
  EXPECT_TRUE(ExitStatus::read("0", &code, &why));
  EXPECT_EQ(code, 0);
  EXPECT_TRUE(ExitStatus::read("255", &code, &why));
  EXPECT_EQ(code, 255);
  for (const char *bad : {"256", "-1", "", "23x", "99999999999"})
    EXPECT_FALSE(ExitStatus::read(bad, &code, &why)) << bad;
}

TEST(Options, SignalsAreThoseThatCanReport) {
  Options options;
  std::string problem;
  EXPECT_EQ(options.report_signal, SIGUSR1);
  EXPECT_TRUE(options.set("report_signal", "USR2", &problem));
  EXPECT_EQ(options.report_signal, SIGUSR2);
  EXPECT_TRUE(options.set("report_signal", "none", &problem));
  EXPECT_EQ(options.report_signal, 0);
  EXPECT_TRUE(options.set("report_signal", "28", &problem)); // SIGWINCH
  EXPECT_EQ(options.report_signal, 28);
  EXPECT_FALSE(options.set("report_signal", "11", &problem));
  EXPECT_EQ(problem, "option 'report_signal' expects SIGUSR1, SIGUSR2, a "
                     "signal number or none, not '11' (SIGSEGV reports a "
                     "fault or abort, and a crash must stay a crash); no "
                     "report signal is used");
  EXPECT_EQ(options.report_signal, 0)
      << "a refused signal is none: the application may use it itself";
  for (const char *bad : {"9", "19", "6", "32", "SIGWHAT", "0", "65"})
    EXPECT_FALSE(options.set("report_signal", bad, &problem)) << bad;
}

TEST(Options, IntervalsAreSecondsUpToADay) {
  Options options;
  std::string problem;
  EXPECT_EQ(options.snapshot_interval, 0) << "none";
  EXPECT_TRUE(options.set("snapshot_interval", "0.5", &problem));
  EXPECT_EQ(options.snapshot_interval, 500);
  EXPECT_TRUE(options.set("snapshot_interval", "0.0001", &problem));
  EXPECT_EQ(options.snapshot_interval, 1) << "at least a millisecond";
  for (const char *bad : {"0", "-1", "1s", "86401", "nan"})
    EXPECT_FALSE(options.set("snapshot_interval", bad, &problem)) << bad;
  EXPECT_EQ(
      problem,
      "option 'snapshot_interval' expects a number of seconds, not 'nan'");
}

// first_serial (for tests of long runs) takes a serial up to 2^52, so that
// serials stay exact in JSON (below 2^53); nothing that is not one.
TEST(Options, FirstSerialIsASerialUpToTwoToTheFiftyTwo) {
  Options options;
  std::string problem;
  EXPECT_EQ(options.first_serial, 0);
  EXPECT_TRUE(options.set("first_serial", "1099511620000", &problem));
  EXPECT_EQ(options.first_serial, 1099511620000LL);
  EXPECT_TRUE(options.set("first_serial", "4503599627370496", &problem));
  for (const char *bad : {"4503599627370497", "-1", "1e12", "x"})
    EXPECT_FALSE(options.set("first_serial", bad, &problem)) << bad;
  EXPECT_EQ(problem, "option 'first_serial' expects a number from 0 to "
                     "4503599627370496, not 'x'");
}

// What the launcher writes into MSLEDGER_OPTIONS is read back as the value
// it was: every option, its default and a value of its own.
TEST(Options, EveryValueReadsBackAsItself) {
  Options changed;
  std::string problem;
  for (const auto &[name, value] :
       std::vector<std::pair<const char *, const char *>>{
           {"check_access", "no"},
           {"chain_depth", "3"},
           {"log_level", "error"},
           {"report_signal", "SIGUSR2"},
           {"snapshot_interval", "2.25"},
           {"journal_path", "/tmp/j.%p"},
           {"journal_size_mb", "64"}})
    ASSERT_TRUE(changed.set(name, value, &problem)) << problem;
  for (const Options &options : {Options(), changed}) {
    Options read;
#define MSLEDGER_OPTION(kind, name, value, flag, valueName, help)              \
  EXPECT_TRUE(read.set(#name, options.text(#name), &problem)) << problem;      \
  EXPECT_EQ(read.name, options.name) << #name << "=" << options.text(#name);
#include "options.inc"
#undef MSLEDGER_OPTION
  }
  EXPECT_EQ(changed.text("snapshot_interval"), "2.25");
  EXPECT_EQ(changed.text("report_signal"), "SIGUSR2");
  EXPECT_EQ(Options().text("report_signal"), "SIGUSR1");
  std::string quoted;
  ASSERT_TRUE(quoteOptionValue("a:b", &quoted));
  EXPECT_EQ(quoted, "\"a:b\"");
  ASSERT_TRUE(quoteOptionValue("it's:x", &quoted));
  EXPECT_EQ(quoted, "\"it's:x\"");
  EXPECT_FALSE(quoteOptionValue("\"'", &quoted));
}

TEST(Options, HelpListsEveryOption) {
  std::string help = Options::helpText();
#define MSLEDGER_OPTION(kind, name, value, flag, valueName, text)              \
  EXPECT_NE(help.find(*flag                                                    \
                          ? std::string("  ") + flag + "=" + valueName + "\n"  \
                          : std::string("  (MSLEDGER_OPTIONS only)\n")),       \
            std::string::npos)                                                 \
      << #name;                                                                \
  EXPECT_NE(help.find(std::string("      " #name " (") + kind::type),          \
            std::string::npos);
#include "options.inc"
#undef MSLEDGER_OPTION
  EXPECT_NE(help.find("exitcode (int, default 23)"), std::string::npos);
}
