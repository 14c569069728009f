//===- growth.cpp - msledger growth SNAPSHOT_DIR --------------------------===//
//
// The leak suspects of a run: the sites whose live memory keeps rising over
// its snapshots (snapshots.h).
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "commands.h"
#include "snapshots.h"

#include <cstdio>

namespace msledger {

namespace {

const char kHelp[] =
    "Usage: msledger growth SNAPSHOT_DIR\n"
    "The leak suspects of a run: the sites whose live memory rose in at "
    "least\n"
    "three of the four quarters of the run's time and ended higher,\n"
    "fastest first. Exits 1 if there are no snapshots or they are not one "
    "run's.\n";

} // namespace

int growthCommand(int argc, char **argv) {
  CommandLine line = readCommandLine(argc, argv, {}, kHelp);
  if (line.operands.size() != 1)
    badUsage("msledger growth takes one directory of snapshots");
  const std::string &dir = line.operands[0];
  std::string error;
  std::optional<std::vector<Snapshot>> series = readSnapshots(dir, &error);
  if (!series || series->empty()) {
    fprintf(stderr, "msledger: %s\n",
            series ? ("no snapshots in " + dir).c_str() : error.c_str());
    return 1;
  }
  fputs(growthReport(*series).c_str(), stdout);
  return 0;
}

} // namespace msledger
