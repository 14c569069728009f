//===- timeline.cpp - msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL -----===//
//
// One self-contained HTML page charting live memory over time
// (timeline_chart.h), from a run's snapshots or from a journal.
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "commands.h"
#include "escape.h"
#include "journal_report.h"
#include "output.h"
#include "timeline_chart.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace msledger {

namespace {

const char kHelp[] =
    "Usage: msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL\n"
    "Writes one self-contained HTML page that charts live memory over time, "
    "per\n"
    "site, from a run's snapshots or a journal. Exits 1 if there is nothing "
    "to\n"
    "read.\n";

} // namespace

int timelineCommand(int argc, char **argv) {
  CommandLine line = readCommandLine(argc, argv, {}, kHelp);
  if (line.operands.size() != 2)
    badUsage("msledger timeline takes the page to write and a directory of "
             "snapshots or a journal");
  std::string out = line.operands[0], source = line.operands[1], error;
  std::vector<Series> series;
  std::vector<Interval> intervals;
  std::string title, xLabel;
  struct stat st;
  if (stat(source.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::optional<std::vector<Snapshot>> snapshots =
        readSnapshots(source, &error);
    if (!snapshots || snapshots->empty()) {
      fprintf(stderr, "msledger: %s\n",
              snapshots ? ("no snapshots in " + source).c_str()
                        : error.c_str());
      return 1;
    }
    series = seriesFromSnapshots(*snapshots, 5);
    intervals = intervalsFromSnapshots(*snapshots);
    title = "Live memory, " + source;
    xLabel = "seconds since the ledger started";
  } else {
    JournalContents contents;
    if (!readJournalFile(source, &contents, &error)) {
      bool named = error.rfind("cannot read ", 0) == 0;
      fprintf(stderr, "msledger: %s%s\n", named ? "" : (source + ": ").c_str(),
              error.c_str());
      return 1;
    }
    if (!journalReadable(contents, source, &error)) {
      fprintf(stderr, "msledger: %s\n", error.c_str());
      return 1;
    }
    series = seriesFromJournal(contents, 5, 400);
    title = "Live memory, journal " + source + " (pid " +
            std::to_string(contents.header.pid) + ")";
    xLabel = "event serial number";
  }
  if (!writeOutputFile(out, timelineHtml(series, title, xLabel, intervals),
                       /*durable=*/false)) {
    fprintf(stderr, "msledger: cannot write %s: %s\n", printable(out).c_str(),
            strerror(errno));
    return 1;
  }
  return 0;
}

} // namespace msledger
