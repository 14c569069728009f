//===- baseline.cpp - msledger baseline REPORT... -o FILE -----------------===//
//
// A baseline file (baseline.h) from one or more reports: the findings of
// several ranks or runs, sorted by fingerprint, for --baseline.
//
//===----------------------------------------------------------------------===//
#include "baseline.h"
#include "command_line.h"
#include "commands.h"
#include "escape.h"
#include "output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace msledger {

namespace {

const char kHelp[] =
    "Usage: msledger baseline -o FILE REPORT...\n"
    "A baseline of the findings of one or more reports -- JSON reports "
    "(--json,\n"
    "merged ones too), SARIF logs (--sarif) or baselines -- for --baseline: "
    "a later\n"
    "run reports the findings it has as known, after the new ones, and only "
    "new ones\n"
    "count for its exit status. The file lists each finding once, sorted by "
    "its\n"
    "fingerprint. Exits 0, 1 when it cannot be written, 2 when a report cannot "
    "be\n"
    "read.\n";

} // namespace

int baselineCommand(int argc, char **argv) {
  // -o FILE (or -oFILE) as compilers spell it, before the scan of the rest
  // (--output=FILE too), which has no short options.
  std::string outputPath;
  std::vector<char *> rest{argv[0]};
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    optionsEnded = optionsEnded || arg == "--";
    if (optionsEnded || arg.rfind("-o", 0) != 0) {
      rest.push_back(argv[i]);
      continue;
    }
    if (arg.size() > 2) {
      outputPath = arg.substr(2);
    } else if (i + 1 < argc) {
      outputPath = argv[++i];
    } else {
      badUsage("-o needs a value: -o FILE");
    }
  }
  CommandLine line = readCommandLine(static_cast<int>(rest.size()), rest.data(),
                                     {"--output"}, kHelp);
  for (const auto &option : line.options)
    outputPath = option.second;
  if (outputPath.empty())
    badUsage("msledger baseline needs -o FILE: where to write the baseline");
  if (line.operands.empty())
    badUsage("msledger baseline takes one or more reports");
  Baseline baseline;
  for (const std::string &path : line.operands)
    loadBaseline(path, &baseline);
  if (!writeOutputFile(outputPath, formatBaselineFile(baseline),
                       /*durable=*/false)) {
    fprintf(stderr, "msledger: cannot write the baseline %s: %s\n",
            printable(outputPath).c_str(), strerror(errno));
    return 1;
  }
  fprintf(stderr, "msledger: %zu finding(s) from %zu report(s) in %s\n",
          baseline.findings().size(), line.operands.size(),
          printable(outputPath).c_str());
  return 0;
}

} // namespace msledger
