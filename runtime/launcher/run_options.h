//===- run_options.h - The flags of msledger's run --------------*- C++ -*-===//
//
// Contract: what `msledger [options] [--] app` makes of its flags, one flag
// per option of options.inc that has one: each read into one Options value
// by its kind's parser (options.h), the ledger's own -- a value it would
// refuse is refused now, with the flag's name, exit status 2 --, on top of
// the MSLEDGER_OPTIONS the launcher was given; the options the flags set are
// written back as name=value (Options::text) after those, and put in the
// application's environment with the preload library and the mstx
// injection library. msSanitizer's spellings are accepted, --tool=memcheck
// among them; naming one of --check-device-heap and --check-cann-heap checks
// that level only.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_RUN_OPTIONS_H
#define MSLEDGER_LAUNCHER_RUN_OPTIONS_H

#include "options.h"

#include <cstdio>
#include <string>
#include <vector>

namespace msledger {

/// What the launcher's own flags asked for.
struct LaunchOptions {
  /// MSLEDGER_OPTIONS as the launcher was given it, then the flags: what
  /// every process of the job reads (its exitcode is the launcher's too).
  Options options;
  std::vector<std::string> given; // the options the flags set, in order
  bool deviceGiven = false, cannGiven = false;
  /// Reads the launcher's own MSLEDGER_OPTIONS (its problems are the
  /// application's to report, as they are without the launcher).
  LaunchOptions();
  /// Sets `option` (a flag's, or the launcher's own job_dir) from `value`;
  /// a value it refuses is a bad command line, the message naming
  /// `subject` (the flag) if given.
  void set(const std::string &option, const std::string &value,
           const std::string &subject = "");
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

/// The application's environment: its options, and the interposers first.
void setEnvironment(const LaunchOptions &launch);

} // namespace msledger

#endif
