//===- command_line.h - What msledger's commands share ----------*- C++ -*-===//
//
// Contract: the command-line handling every command of msledger shares.
//   * scanCommandLine reads a subcommand's arguments GNU style: its options
//     (--name=value, each name one the command lists) before, between or
//     after its operands, kept in the order given; `--` ends the options, so
//     that what follows is an operand even if it looks like an option (a
//     file named "--json=x"); -h or --help asks for the help, whatever
//     follows it. A name the command does not list, or one without a value,
//     is an error. Any other argument -- "-", "-x" -- is an operand: no
//     subcommand has short options. readCommandLine is the same for a
//     command's entry point: the help printed (exit 0) or the error refused.
//   * badUsage is the one way a command line is refused: "msledger: MESSAGE"
//     and a pointer to --help on stderr, exit status 2.
//   * suggestion offers the nearest of a list of names for a misspelt one
//     (Levenshtein distance), and nothing for a guess.
//   * the rest is read by more than one command: --exitcode's value, a
//     file's bytes, a suppression file. Each says what is wrong on stderr.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_COMMAND_LINE_H
#define MSLEDGER_LAUNCHER_COMMAND_LINE_H

#include "baseline.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace msledger {

class Suppressions;

/// Refuses the command line: the message and a pointer to --help on
/// stderr, exit status 2.
[[noreturn]] void badUsage(const std::string &message);

/// "; did you mean --leak-check?" for a near miss of one of `names` (at
/// most a third of `name` changed; the first of the nearest), else nothing:
/// a guess at random helps no one.
std::string suggestion(const std::string &name,
                       const std::vector<std::string> &names);

/// A subcommand's arguments, scanned.
struct CommandLine {
  std::vector<std::pair<std::string, std::string>> options; // ("--json", F)
  std::vector<std::string> operands;
  bool help = false; // -h or --help (the scan stopped there)
};

/// Scans argv[1...] of the subcommand argv[0] ("report"), whose option
/// names are `names` ("--json"); false with *error ("msledger report:
/// unknown option '--x'") for an option it does not know or without a value.
bool scanCommandLine(int argc, char **argv,
                     const std::vector<std::string> &names, CommandLine *out,
                     std::string *error);

/// scanCommandLine for a subcommand's entry point: prints `help` and exits
/// 0 when asked for it, refuses an error with badUsage.
CommandLine readCommandLine(int argc, char **argv,
                            const std::vector<std::string> &names,
                            const char *help);

/// --exitcode=N's value, 0 to 255, or a usage error.
int exitCodeOption(const std::string &value);

/// The options of the subcommands that list findings (report, merge), which
/// mean there what they mean to the run: the exit status when new findings
/// are listed (--exitcode, 23 by default), the SARIF log (--sarif), its
/// files relative to --project-root (default: the working directory), and
/// the findings known from earlier runs (--baseline, read when it is taken:
/// one that cannot be read stops the command, exit status 2; given more
/// than once, their findings together).
struct FindingsOptions {
  int exitCode = 23;
  std::string sarifPath, projectRoot;
  Baseline baseline;
  /// The baseline, or null if none was given.
  const Baseline *givenBaseline() const {
    return baseline.given() ? &baseline : nullptr;
  }
  /// Their names, for readCommandLine.
  static std::vector<std::string> names();
  /// Takes `name`'s value if `name` is one of them (--exitcode checked);
  /// false for another.
  bool take(const std::string &name, const std::string &value);
};

/// The bytes of `path`, or nullopt with a message.
std::optional<std::string> readAll(const std::string &path);

/// Reads the suppression file at `path` (into *into, if given), so that a
/// bad line stops msledger before anything runs (exit status 2); its
/// absolute path, which the application reads whatever its working
/// directory.
std::string loadSuppressions(const std::string &path, Suppressions *into);
/// Reads the baseline at `path` (baseline.h) into *into, if given, so that
/// a file that is not one stops msledger before anything runs (exit status
/// 2); its absolute path, as loadSuppressions.
std::string loadBaseline(const std::string &path, Baseline *into);

} // namespace msledger

#endif
