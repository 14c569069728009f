//===- diff.cpp - msledger diff SNAPSHOT_A SNAPSHOT_B ---------------------===//
//
// The sites whose live memory grew from one snapshot to another
// (snapshots.h), and each device's live memory in both.
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "commands.h"
#include "snapshots.h"

#include <cstdio>

namespace msledger {

namespace {

const char kHelp[] =
    "Usage: msledger diff SNAPSHOT_A SNAPSHOT_B\n"
    "The sites whose live memory grew from snapshot A to snapshot B (files\n"
    "--snapshot-interval wrote), largest growth first, then each device's\n"
    "live memory in A and in B. Exits 1 if a snapshot cannot be read.\n";

} // namespace

int diffCommand(int argc, char **argv) {
  CommandLine line = readCommandLine(argc, argv, {}, kHelp);
  if (line.operands.size() != 2)
    badUsage("msledger diff takes two snapshot files");
  std::string error;
  std::optional<Snapshot> before = readSnapshot(line.operands[0], &error);
  std::optional<Snapshot> after =
      before ? readSnapshot(line.operands[1], &error) : std::nullopt;
  if (!after) {
    fprintf(stderr, "msledger: %s\n", error.c_str());
    return 1;
  }
  fputs(diffReport(*before, *after).c_str(), stdout);
  return 0;
}

} // namespace msledger
