//===- CommandLineTest.cpp - msledger's subcommand command lines ----------===//
#include "command_line.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

using Options = std::vector<std::pair<std::string, std::string>>;
using Operands = std::vector<std::string>;

/// Scans `args` of `msledger report` (its four options); false with *error.
bool scan(std::vector<std::string> args, CommandLine *line,
          std::string *error) {
  args.insert(args.begin(), "report");
  std::vector<char *> argv;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  return scanCommandLine(
      static_cast<int>(argv.size()), argv.data(),
      {"--exitcode", "--suppressions", "--sarif", "--project-root"}, line,
      error);
}

CommandLine scanned(const std::vector<std::string> &args) {
  CommandLine line;
  std::string error;
  EXPECT_TRUE(scan(args, &line, &error)) << error;
  return line;
}

std::string refused(const std::vector<std::string> &args) {
  CommandLine line;
  std::string error;
  EXPECT_FALSE(scan(args, &line, &error));
  return error;
}

} // namespace

TEST(CommandLine, OptionsBeforeBetweenOrAfterOperands) {
  for (const std::vector<std::string> &args :
       {std::vector<std::string>{"--sarif=s", "--exitcode=7", "j"},
        std::vector<std::string>{"j", "--sarif=s", "--exitcode=7"},
        std::vector<std::string>{"--sarif=s", "j", "--exitcode=7"}}) {
    CommandLine line = scanned(args);
    EXPECT_EQ(line.options, (Options{{"--sarif", "s"}, {"--exitcode", "7"}}));
    EXPECT_EQ(line.operands, Operands{"j"});
    EXPECT_FALSE(line.help);
  }
}

TEST(CommandLine, OperandsKeepTheirOrder) {
  CommandLine line = scanned({"a", "--exitcode=1", "b", "c"});
  EXPECT_EQ(line.operands, (Operands{"a", "b", "c"}));
}

TEST(CommandLine, DoubleDashEndsTheOptions) {
  CommandLine line = scanned({"--exitcode=3", "--", "--sarif=x", "--", "-h"});
  EXPECT_EQ(line.options, (Options{{"--exitcode", "3"}}));
  EXPECT_EQ(line.operands, (Operands{"--sarif=x", "--", "-h"}));
  EXPECT_FALSE(line.help);
}

TEST(CommandLine, SingleDashArgumentsAreOperands) {
  EXPECT_EQ(scanned({"-", "-x"}).operands, (Operands{"-", "-x"}));
}

TEST(CommandLine, AValueMayHoldEqualsSigns) {
  EXPECT_EQ(scanned({"--sarif=a=b"}).options, (Options{{"--sarif", "a=b"}}));
}

TEST(CommandLine, HelpAnywhereBeforeDoubleDash) {
  EXPECT_TRUE(scanned({"--help"}).help);
  EXPECT_TRUE(scanned({"j", "-h"}).help);
  // The scan stops there: what follows is not judged.
  EXPECT_TRUE(scanned({"j", "--help", "--bogus"}).help);
  // What comes before is.
  EXPECT_EQ(refused({"--bogus", "--help"}),
            "msledger report: unknown option '--bogus'");
}

TEST(CommandLine, UnknownOptionsAndMissingValuesAreRefused) {
  EXPECT_EQ(refused({"j", "--json=x"}),
            "msledger report: unknown option '--json'");
  EXPECT_EQ(refused({"j", "--sarif"}),
            "msledger report: --sarif needs a value");
  EXPECT_EQ(refused({"--sarif=", "j"}),
            "msledger report: --sarif needs a value");
  EXPECT_EQ(refused({"--help=yes"}),
            "msledger report: unknown option '--help'");
}

TEST(CommandLine, SuggestionsOnlyForNearMisses) {
  std::vector<std::string> names = {"--leak-check", "--log-file",
                                    "--log-level"};
  EXPECT_EQ(suggestion("--leak-chek", names), "; did you mean --leak-check?");
  // The first of the nearest.
  EXPECT_EQ(suggestion("--log-fil", names), "; did you mean --log-file?");
  EXPECT_EQ(suggestion("--bogus", names), "");
  EXPECT_EQ(suggestion("--leak-check", {}), "");
}
