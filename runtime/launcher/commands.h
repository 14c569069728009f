//===- commands.h - The commands of msledger --------------------*- C++ -*-===//
//
// Contract: msledger is one command that runs an application under the
// ledger (run.cpp: `msledger [options] [--] app [args...]`) and the
// subcommands that read what a run left (`msledger NAME ...`), one file
// each, holding its command line and its --help. main.cpp only dispatches:
// a first argument that names a subcommand of kSubcommands runs it, anything
// else runs the application. Every entry point takes argc/argv with argv[0]
// naming the command ("msledger" for the run, "report" for `msledger
// report`) and returns the exit status; a bad command line exits 2 from
// inside it (badUsage, command_line.h). To add a subcommand: its file, its
// entry point here and its line in kSubcommands, which `msledger --help`
// lists.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_COMMANDS_H
#define MSLEDGER_LAUNCHER_COMMANDS_H

namespace msledger {

/// `msledger [options] [--] app [args...]`: argv is msledger's own.
int runCommand(int argc, char **argv);

int diffCommand(int argc, char **argv);     // diff.cpp
int growthCommand(int argc, char **argv);   // growth.cpp
int reportCommand(int argc, char **argv);   // report.cpp
int mergeCommand(int argc, char **argv);    // merge.cpp
int baselineCommand(int argc, char **argv); // baseline.cpp
int timelineCommand(int argc, char **argv); // timeline.cpp

struct Subcommand {
  const char *name;
  /// Its line in `msledger --help`, after "msledger ".
  const char *synopsis;
  int (*main)(int argc, char **argv);
};

/// The subcommands, in the order `msledger --help` lists them.
inline constexpr Subcommand kSubcommands[] = {
    {"diff", "diff SNAPSHOT_A SNAPSHOT_B   sites whose live memory grew",
     diffCommand},
    {"growth",
     "growth SNAPSHOT_DIR          sites whose live memory keeps rising",
     growthCommand},
    {"report",
     "report [OPTIONS] JOURNAL   the leak report, rebuilt from a journal",
     reportCommand},
    {"merge",
     "merge [OPTIONS] REPORT.json...   one report of a job's processes",
     mergeCommand},
    {"baseline", "baseline -o FILE REPORT...   known findings, for --baseline",
     baselineCommand},
    {"timeline",
     "timeline OUT.html SNAPSHOT_DIR|JOURNAL   a chart of live memory",
     timelineCommand},
};

} // namespace msledger

#endif
