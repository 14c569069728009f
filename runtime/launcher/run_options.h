//===- run_options.h - The flags of msledger's run --------------*- C++ -*-===//
//
// Contract: what `msledger [options] [--] app` makes of its flags, one flag
// per option of options.inc that has one: each checked as it is read (a
// value the ledger would refuse later is refused now, with the flag's name,
// exit status 2), turned into name=value for MSLEDGER_OPTIONS, and put in
// the application's environment with the preload library and the mstx
// injection library. msSanitizer's spellings are accepted, --tool=memcheck
// among them; naming one of --check-device-heap and --check-cann-heap checks
// that level only.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_RUN_OPTIONS_H
#define MSLEDGER_LAUNCHER_RUN_OPTIONS_H

#include <cstdio>
#include <string>
#include <vector>

namespace msledger {

/// What the launcher's own flags asked for.
struct LaunchOptions {
  std::vector<std::string> options; // name=value for MSLEDGER_OPTIONS
  bool deviceGiven = false, cannGiven = false;
  bool device = true, cann = true;
  std::string logFile;
};

/// `msledger --help`: the commands and every flag.
void usage(FILE *out);

/// msSanitizer's --tool: memcheck is what msledger does; the others check
/// AI Core kernels, which msledger does not run.
void checkTool(const std::string &tool);

/// One flag, "--name=value" or a bare boolean "--name", into `out`.
void readFlag(const std::string &arg, LaunchOptions &out);

/// The levels to check, first among the options: as msSanitizer, naming one
/// check turns on that one only.
void settleLevels(LaunchOptions &launch);

/// `value` as MSLEDGER_OPTIONS reads it, quoted if it holds ':' or a quote.
std::string quoted(const std::string &value);

/// The application's environment: its options, and the interposers first.
void setEnvironment(const LaunchOptions &launch);

} // namespace msledger

#endif
