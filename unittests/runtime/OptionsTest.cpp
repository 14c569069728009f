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
  EXPECT_EQ(options.log_level, "warn");
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
  EXPECT_EQ(options.log_level, "info");
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
            "option 'leak_check' expects a bool value, not 'perhaps'");
  EXPECT_EQ(problems[2], "option 'exitcode' expects an int value, not '12x'");
  EXPECT_EQ(problems[3], "option 'lonely' has no value (expected name=value)");
  EXPECT_EQ(problems[4],
            "option 'log_level' must be info, warn or error, not 'loud'");
  EXPECT_TRUE(options.leak_check);
  EXPECT_EQ(options.exitcode, 23);
  EXPECT_EQ(options.log_level, "warn");
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
    EXPECT_EQ(problems[0].rfind("option 'exitcode' must be an exit status from "
                                "0 to 255, not ",
                                0),
              0u)
        << problems[0];
    EXPECT_EQ(options.exitcode, 23) << text;
  }
  Options options;
  std::vector<std::string> problems;
  options.parse("chain_depth=17:exitcode=0", &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "option 'chain_depth' must be 0 to 16, not 17");
  EXPECT_EQ(options.chain_depth, 8);
  EXPECT_EQ(options.exitcode, 0);
}

TEST(Options, ExitCodesAreWholeNumbersFrom0To255) {
  int code = -1;
  EXPECT_TRUE(parseExitCode("0", &code));
  EXPECT_EQ(code, 0);
  EXPECT_TRUE(parseExitCode("255", &code));
  EXPECT_EQ(code, 255);
  for (const char *bad : {"256", "-1", "", "23x", "99999999999"})
    EXPECT_FALSE(parseExitCode(bad, &code)) << bad;
}

TEST(Options, HelpListsEveryOption) {
  std::string help = Options::helpText();
#define MSLEDGER_OPTION(type, name, value, flag, valueName, text)              \
  EXPECT_NE(help.find(*flag                                                    \
                          ? std::string("  ") + flag + "=" + valueName + "\n"  \
                          : std::string("  (MSLEDGER_OPTIONS only)\n")),       \
            std::string::npos)                                                 \
      << #name;                                                                \
  EXPECT_NE(help.find("      " #name " (" #type), std::string::npos);
#include "options.inc"
#undef MSLEDGER_OPTION
  EXPECT_NE(help.find("exitcode (int, default 23)"), std::string::npos);
}
