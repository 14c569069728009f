//===- main.cpp - msledger, the launcher ----------------------------------===//
//
// msledger [options] [--] app [args...]
//
// Runs `app` with libmsledger preloaded and the options turned into
// MSLEDGER_OPTIONS. Accepts msSanitizer's spellings. Exit status: the
// application's own, unless the ledger found leaks or errors (then
// --exitcode, 23 by default), 128 + N if it was killed by signal N, and 2 for
// a bad command line.
//
//===----------------------------------------------------------------------===//
#include "escape.h"
#include "job.h"
#include "journal.h"
#include "journal_report.h"
#include "merge_reports.h"
#include "monitor.h"
#include "options.h"
#include "output.h"
#include "snapshots.h"
#include "suppressions.h"
#include "text_file.h"
#include "timeline_chart.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <optional>
#include <string>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *kVersion = "0.1.0";

void usage(FILE *out) {
  fprintf(
      out,
      "Usage: msledger [options] [--] app [args...]\n"
      "       msledger diff SNAPSHOT_A SNAPSHOT_B   sites whose live memory "
      "grew\n"
      "       msledger growth SNAPSHOT_DIR          sites whose live memory "
      "keeps rising\n"
      "       msledger report [OPTIONS] JOURNAL   the leak report, "
      "rebuilt from a journal\n"
      "       msledger merge [OPTIONS] REPORT.json...   one report of a "
      "job's processes\n"
      "       msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL   a chart of "
      "live memory\n"
      "       (each answers --help)\n"
      "\n"
      "Runs app with the msledger leak checker preloaded and reports, when it "
      "exits,\n"
      "what it never released: device memory, host-pinned and DVPP memory, "
      "and\n"
      "resources (streams, contexts, data buffers, ...).\n"
      "\n"
      "  -v, --version   print the version\n"
      "  -h, --help      print this help\n"
      "  -t memcheck, --tool=memcheck   accepted as msSanitizer takes it "
      "(memcheck is\n"
      "                  what msledger does)\n"
      "\n"
      "Options: the flag (msSanitizer's spelling where it has one), and the "
      "name\n"
      "that sets the same in MSLEDGER_OPTIONS=name=value:name=value for a "
      "program\n"
      "run without the launcher. A yes|no flag given bare (--leak-check) means "
      "yes.\n"
      "Naming one of --check-device-heap and --check-cann-heap checks that "
      "level\n"
      "only; neither or both, both levels.\n"
      "%s",
      msledger::Options::helpText().c_str());
}

/// The launcher's flags, one per option of options.inc that has one.
struct Flag {
  const char *name;   // "--log-file"
  const char *option; // "log_path"
  const char *value;  // "FILE", or "yes|no" for a flag that takes yes or no
  bool isBool;
};
constexpr bool isBool(const char *type) {
  return type[0] == 'b'; // options.inc's types: bool, int, string
}
constexpr Flag kFlags[] = {
#define MSLEDGER_OPTION(type, name, value, flag, valueName, help)              \
  {flag, #name, valueName, isBool(#type)},
#include "options.inc"
#undef MSLEDGER_OPTION
};

const Flag *flagNamed(const std::string &name) {
  for (const Flag &flag : kFlags)
    if (*flag.name && name == flag.name)
      return &flag;
  return nullptr;
}

/// Levenshtein distance, for suggestions.
size_t distance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// "; did you mean --leak-check?" for a near miss (at most a third of the
/// name changed), else nothing: a guess at random helps no one.
std::string suggestion(const std::string &name) {
  const Flag *best = nullptr;
  size_t bestDistance = 0;
  for (const Flag &flag : kFlags) {
    if (!*flag.name)
      continue;
    size_t d = distance(name, flag.name);
    if (!best || d < bestDistance) {
      best = &flag;
      bestDistance = d;
    }
  }
  if (!best || bestDistance * 3 > name.size())
    return "";
  return std::string("; did you mean ") + best->name + "?";
}

[[noreturn]] void badUsage(const std::string &message) {
  fprintf(stderr, "msledger: %s\nTry 'msledger --help'.\n", message.c_str());
  exit(2);
}

bool yesNo(const std::string &flag, const std::string &value) {
  if (value == "yes")
    return true;
  if (value == "no")
    return false;
  badUsage("option " + flag + " expects yes or no, not '" + value + "'");
}

std::string quoted(const std::string &value) {
  if (value.find_first_of(":\"'") == std::string::npos)
    return value;
  if (value.find('"') == std::string::npos)
    return "\"" + value + "\"";
  if (value.find('\'') == std::string::npos)
    return "'" + value + "'";
  badUsage("a value cannot contain both kinds of quotes: " + value);
}

std::string libraryPath() {
  char self[4096];
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) {
    fprintf(stderr, "msledger: cannot find where msledger is installed: %s\n",
            strerror(errno));
    exit(2);
  }
  std::string dir(self, static_cast<size_t>(length));
  dir = dir.substr(0, dir.rfind('/'));
  std::string path =
      dir.substr(0, dir.rfind('/')) + "/lib/libmsledger_preload.so";
  if (access(path.c_str(), R_OK) != 0) {
    fprintf(stderr, "msledger: cannot find the ledger library %s: %s\n",
            path.c_str(), strerror(errno));
    exit(2);
  }
  return path;
}

pid_t Child = 0; // the application

} // namespace

/// The bytes of `path`, or nullopt with a message.
std::optional<std::string> readAll(const std::string &path) {
  std::string error;
  std::optional<std::string> bytes = msledger::readTextFile(path, &error);
  if (!bytes)
    fprintf(stderr, "msledger: %s\n", error.c_str());
  return bytes;
}

/// Reads the suppression file at `path` (into *into, if given), so that a
/// bad line stops the launcher before anything runs; its absolute path,
/// which the application reads whatever its working directory.
std::string loadSuppressions(const std::string &path,
                             msledger::Suppressions *into) {
  msledger::Suppressions suppressions;
  std::string error;
  if (!(into ? into : &suppressions)->load(path, &error)) {
    fprintf(stderr, "msledger: %s\n", error.c_str());
    exit(2);
  }
  char *absolute = realpath(path.c_str(), nullptr);
  std::string result = absolute ? absolute : path;
  free(absolute);
  return result;
}

/// --exitcode=N's value, 0 to 255, or a usage error.
int exitCodeOption(const std::string &value) {
  int code = -1;
  if (!msledger::parseExitCode(value, &code))
    badUsage("--exitcode expects a number from 0 to 255, not '" + value + "'");
  return code;
}

/// The --name=value options of `msledger COMMAND ...` before its operands
/// (from argv[2]); *next is then the first operand.
std::vector<std::pair<std::string, std::string>>
subcommandOptions(int argc, char **argv, int *next) {
  std::vector<std::pair<std::string, std::string>> options;
  for (*next = 2; *next < argc && std::string(argv[*next]).rfind("--", 0) == 0;
       ++*next) {
    std::string arg = argv[*next];
    size_t equals = arg.find('=');
    std::string name = arg.substr(0, equals);
    if (equals == std::string::npos || equals + 1 == arg.size())
      badUsage(std::string("msledger ") + argv[1] + ": " + name +
               " needs a value");
    options.emplace_back(name, arg.substr(equals + 1));
  }
  return options;
}

/// msledger report [--exitcode=N] [--suppressions=FILE] [--sarif=FILE]
/// [--project-root=DIR] JOURNAL: the leaks exit with the status the
/// launcher gives them (23 by default).
int journalCommand(int argc, char **argv) {
  int exitCode = 23;
  std::string sarifPath, projectRoot;
  msledger::Suppressions suppressions;
  msledger::JournalReportRequest request;
  int next = 2;
  for (const auto &[name, value] : subcommandOptions(argc, argv, &next)) {
    if (name == "--exitcode") {
      exitCode = exitCodeOption(value);
    } else if (name == "--suppressions") {
      loadSuppressions(value, &suppressions);
      request.suppressions = &suppressions;
    } else if (name == "--sarif") {
      sarifPath = value;
    } else if (name == "--project-root") {
      projectRoot = value;
    } else {
      badUsage("msledger report: unknown option '" + name + "'");
    }
  }
  if (argc != next + 1)
    badUsage("msledger report takes one journal file");
  std::string path = argv[next], error;
  std::optional<std::string> bytes = readAll(path);
  if (!bytes)
    return 1;
  request.sarif = !sarifPath.empty();
  request.projectRoot = msledger::absoluteDirectory(projectRoot);
  msledger::JournalContents contents;
  msledger::JournalReportResult result;
  if (!msledger::readJournal(*bytes, &contents, &error) ||
      !msledger::journalReport(contents, path, request, &result, &error)) {
    fprintf(stderr, "msledger: %s%s\n",
            error.rfind(path, 0) == 0 ? "" : (path + ": ").c_str(),
            error.c_str());
    return 1;
  }
  fwrite(result.report.data(), 1, result.report.size(), stdout);
  if (request.sarif &&
      !msledger::writeOutputFile(sarifPath, result.sarif, /*durable=*/false)) {
    fprintf(stderr, "msledger: cannot write the SARIF log %s: %s\n",
            sarifPath.c_str(), strerror(errno));
    return 1;
  }
  return result.leaked || result.incomplete ? exitCode : 0;
}

/// msledger merge [--json=FILE] [--sarif=FILE] [--project-root=DIR]
/// [--exitcode=N] REPORT.json...: the job's findings by site, per rank.
int mergeCommand(int argc, char **argv) {
  int exitCode = 23;
  std::string jsonPath, sarifPath, projectRoot;
  int next = 2;
  for (const auto &[name, value] : subcommandOptions(argc, argv, &next)) {
    if (name == "--exitcode")
      exitCode = exitCodeOption(value);
    else if (name == "--json")
      jsonPath = value;
    else if (name == "--sarif")
      sarifPath = value;
    else if (name == "--project-root")
      projectRoot = value;
    else
      badUsage("msledger merge: unknown option '" + name + "'");
  }
  if (next >= argc)
    badUsage("msledger merge takes the JSON reports of a job's processes");
  std::vector<msledger::MergeInput> inputs;
  std::vector<std::string> warnings;
  std::string error;
  if (!msledger::readMergeInputs(
          std::vector<std::string>(argv + next, argv + argc), &inputs, &error,
          &warnings)) {
    fprintf(stderr, "msledger: %s\n", msledger::printable(error).c_str());
    return 1;
  }
  for (const std::string &warning : warnings)
    fprintf(stderr, "msledger: %s\n", msledger::printable(warning).c_str());
  msledger::MergedJob job = msledger::mergeReports(inputs);
  if (!sarifPath.empty() && !job.uncataloged.empty()) {
    std::string names;
    for (const std::string &name : job.uncataloged)
      names += (names.empty() ? "" : ", ") + msledger::printable(name);
    fprintf(stderr,
            "msledger: the SARIF log leaves out the findings of %s: not in "
            "this msledger's catalog (registered by the application?)\n",
            names.c_str());
  }
  std::string text = msledger::formatMergedText(job);
  fwrite(text.data(), 1, text.size(), stdout);
  for (const auto &[path, text] :
       {std::make_pair(jsonPath,
                       jsonPath.empty() ? "" : msledger::formatMergedJson(job)),
        std::make_pair(sarifPath, sarifPath.empty()
                                      ? ""
                                      : msledger::formatMergedSarif(
                                            job, msledger::absoluteDirectory(
                                                     projectRoot)))}) {
    if (!path.empty() &&
        !msledger::writeOutputFile(path, text, /*durable=*/false)) {
      fprintf(stderr, "msledger: cannot write %s: %s\n",
              msledger::printable(path).c_str(), strerror(errno));
      return 1;
    }
  }
  // A process that never reported makes the job incomplete: as findings do
  // (runtime/README.md, "Exit status").
  bool incomplete = std::any_of(
      job.processes.begin(), job.processes.end(),
      [](const msledger::MergedProcess &process) { return !process.reported; });
  return job.findings.empty() && !incomplete ? 0 : exitCode;
}

/// msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL.
int timelineCommand(int argc, char **argv) {
  if (argc != 4)
    badUsage("msledger timeline takes the page to write and a directory of "
             "snapshots or a journal");
  std::string out = argv[2], source = argv[3], error;
  std::vector<msledger::Series> series;
  std::vector<msledger::Interval> intervals;
  std::string title, xLabel;
  struct stat st;
  if (stat(source.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::optional<std::vector<msledger::Snapshot>> snapshots =
        msledger::readSnapshots(source, &error);
    if (!snapshots || snapshots->empty()) {
      fprintf(stderr, "msledger: %s\n",
              snapshots ? ("no snapshots in " + source).c_str()
                        : error.c_str());
      return 1;
    }
    series = msledger::seriesFromSnapshots(*snapshots, 5);
    intervals = msledger::intervalsFromSnapshots(*snapshots);
    title = "Live memory, " + source;
    xLabel = "seconds since the ledger started";
  } else {
    std::optional<std::string> bytes = readAll(source);
    if (!bytes)
      return 1;
    msledger::JournalContents contents;
    if (!msledger::readJournal(*bytes, &contents, &error)) {
      fprintf(stderr, "msledger: %s: %s\n", source.c_str(), error.c_str());
      return 1;
    }
    if (!msledger::journalReadable(contents, source, &error)) {
      fprintf(stderr, "msledger: %s\n", error.c_str());
      return 1;
    }
    series = msledger::seriesFromJournal(contents, 5, 400);
    title = "Live memory, journal " + source + " (pid " +
            std::to_string(contents.header.pid) + ")";
    xLabel = "event serial number";
  }
  if (!msledger::writeOutputFile(
          out, msledger::timelineHtml(series, title, xLabel, intervals),
          /*durable=*/false)) {
    fprintf(stderr, "msledger: cannot write %s: %s\n",
            msledger::printable(out).c_str(), strerror(errno));
    return 1;
  }
  return 0;
}

/// msledger diff A B, msledger growth DIR.
int snapshotCommand(int argc, char **argv) {
  std::string command = argv[1], error;
  if (command == "diff") {
    if (argc != 4)
      badUsage("msledger diff takes two snapshot files");
    std::optional<msledger::Snapshot> before =
        msledger::readSnapshot(argv[2], &error);
    std::optional<msledger::Snapshot> after =
        before ? msledger::readSnapshot(argv[3], &error) : std::nullopt;
    if (!after) {
      fprintf(stderr, "msledger: %s\n", error.c_str());
      return 1;
    }
    fputs(msledger::diffReport(*before, *after).c_str(), stdout);
    return 0;
  }
  if (argc != 3)
    badUsage("msledger growth takes one directory of snapshots");
  std::optional<std::vector<msledger::Snapshot>> series =
      msledger::readSnapshots(argv[2], &error);
  if (!series || series->empty()) {
    fprintf(stderr, "msledger: %s\n",
            series ? ("no snapshots in " + std::string(argv[2])).c_str()
                   : error.c_str());
    return 1;
  }
  fputs(msledger::growthReport(*series).c_str(), stdout);
  return 0;
}

/// The help of a sub-command, or null for a name that is none.
const char *subcommandHelp(const std::string &command) {
  if (command == "diff")
    return "Usage: msledger diff SNAPSHOT_A SNAPSHOT_B\n"
           "The sites whose live memory grew from snapshot A to snapshot B "
           "(files\n"
           "--snapshot-interval wrote), largest growth first, then each "
           "device's\n"
           "live memory in A and in B. Exits 1 if a snapshot cannot be read.\n";
  if (command == "growth")
    return "Usage: msledger growth SNAPSHOT_DIR\n"
           "The leak suspects of a run: the sites whose live memory rose in "
           "at least\n"
           "three quarters of the intervals between its snapshots and ended "
           "higher,\n"
           "fastest first. Exits 1 if there are no snapshots or they are not "
           "one run's.\n";
  if (command == "report")
    return "Usage: msledger report [--exitcode=N] [--suppressions=FILE] "
           "[--sarif=FILE]\n"
           "                       [--project-root=DIR] JOURNAL\n"
           "The leak report rebuilt from a journal (--journal=FILE), also of "
           "a process\n"
           "that was killed. --suppressions leaves out the leaks a "
           "leak: line matches;\n"
           "--sarif also writes them as a SARIF 2.1.0 log, its files "
           "relative to DIR\n"
           "(default: the working directory). Exits N (default 23) when it "
           "lists leaks,\n"
           "0 when it lists none, 1 when the journal cannot be read.\n";
  if (command == "merge")
    return "Usage: msledger merge [--json=FILE] [--sarif=FILE] "
           "[--project-root=DIR] [--exitcode=N]\n"
           "                      REPORT.json...\n"
           "One report of a job's processes from their JSON reports "
           "(--json=FILE with %p\n"
           "or %r): findings grouped by site with each rank's count and "
           "bytes, and the\n"
           "processes that did not report at exit. --json and --sarif also "
           "write it as\n"
           "JSON and SARIF. Exits N (default 23) when it lists findings, 0 "
           "when it lists\n"
           "none, 1 when a report cannot be read.\n";
  if (command == "timeline")
    return "Usage: msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL\n"
           "Writes one self-contained HTML page that charts live memory over "
           "time, per\n"
           "site, from a run's snapshots or a journal. Exits 1 if there is "
           "nothing to\n"
           "read.\n";
  return nullptr;
}

namespace {

/// What the launcher's own flags asked for.
struct LaunchOptions {
  std::vector<std::string> options; // name=value for MSLEDGER_OPTIONS
  bool deviceGiven = false, cannGiven = false;
  bool device = true, cann = true;
  std::string logFile;
};

/// Refuses now, with the flag's name, a value the ledger would refuse later.
void checkValue(const std::string &name, const std::string &option,
                const std::string &value, const Flag &flag) {
  if (option == "log_level" && value != "info" && value != "warn" &&
      value != "error")
    badUsage(name + " expects info, warn or error, not '" + value + "'");
  if (option == "exitcode")
    exitCodeOption(value);
  int depth = 0;
  if (option == "chain_depth" && !msledger::parseChainDepth(value, &depth))
    badUsage(name + " expects a number from 0 to " +
             std::to_string(msledger::kMaxChainDepth) + ", not '" + value +
             "'");
  if (option == "snapshot_interval" && msledger::intervalNamed(value) <= 0)
    badUsage(name + " expects a number of seconds, not '" + value + "'");
  if (option == "report_signal") {
    std::string why;
    if (msledger::signalNamed(value, &why) < 0)
      badUsage(name +
               " expects SIGUSR1, SIGUSR2, a signal number or none, not '" +
               value + "' (" + why + ")");
  }
  if (value.empty())
    badUsage(name + " needs a value: " + name + "=" + flag.value);
}

/// msSanitizer's --tool: memcheck is what msledger does; the others check
/// AI Core kernels, which msledger does not run.
void checkTool(const std::string &tool) {
  if (tool == "memcheck")
    return;
  if (tool == "racecheck" || tool == "initcheck" || tool == "synccheck")
    badUsage("--tool=" + tool +
             " checks AI Core kernels; msledger checks the memory and "
             "resources of the CANN stack (memcheck) only");
  badUsage("--tool expects memcheck, not '" + tool + "'");
}

/// One flag, "--name=value" or a bare boolean "--name", into `out`.
void readFlag(const std::string &arg, LaunchOptions &out) {
  size_t equals = arg.find('=');
  std::string name = arg.substr(0, equals);
  const Flag *flag = flagNamed(name);
  if (!flag)
    badUsage("unknown option '" + (equals == std::string::npos ? arg : name) +
             "'" + suggestion(name));
  std::string value;
  if (equals != std::string::npos)
    value = arg.substr(equals + 1);
  else if (flag->isBool)
    value = "yes"; // "--leak-check", as msSanitizer's users type it
  else
    badUsage(name + " needs a value: " + name + "=" + flag->value);
  std::string option = flag->option;
  if (flag->isBool) {
    bool on = yesNo(name, value);
    // Levels are settled once every flag is read, both at once.
    if (option == "check_device_heap") {
      out.device = on;
      out.deviceGiven = true;
    } else if (option == "check_cann_heap") {
      out.cann = on;
      out.cannGiven = true;
    } else {
      out.options.push_back(option + "=" + (on ? "1" : "0"));
    }
    return;
  }
  checkValue(name, option, value, *flag);
  if (option == "log_path")
    out.logFile = value;
  if (option == "suppressions")
    value = loadSuppressions(value, nullptr);
  out.options.push_back(option + "=" + quoted(value));
}

/// The levels to check, first among the options: as msSanitizer, naming one
/// check turns on that one only.
void settleLevels(LaunchOptions &launch) {
  if (launch.deviceGiven && !launch.cannGiven)
    launch.cann = false;
  if (launch.cannGiven && !launch.deviceGiven)
    launch.device = false;
  if (!launch.device && !launch.cann)
    fprintf(stderr, "msledger: both --check-device-heap and --check-cann-heap "
                    "are off: nothing will be checked\n");
  launch.options.insert(launch.options.begin(),
                        std::string("check_device_heap=") +
                            (launch.device ? "1" : "0"));
  launch.options.insert(launch.options.begin() + 1,
                        std::string("check_cann_heap=") +
                            (launch.cann ? "1" : "0"));
}

/// The application's environment: its options, and the interposers first.
void setEnvironment(const LaunchOptions &launch) {
  std::string combined;
  if (const char *existing = getenv("MSLEDGER_OPTIONS"); existing && *existing)
    combined = existing;
  for (const std::string &option : launch.options)
    combined += (combined.empty() ? "" : ":") + option;
  std::string preload = libraryPath();
  if (const char *existing = getenv("LD_PRELOAD"); existing && *existing)
    preload += std::string(":") + existing;
  setenv("MSLEDGER_OPTIONS", combined.c_str(), 1);
  setenv("LD_PRELOAD", preload.c_str(), 1);
  // mstx annotations (a project's memory pools) reach the ledger: libmsledger
  // is the mstx injection library (runtime/lib/mstx_injection.cpp).
  std::string ledger = libraryPath();
  ledger = ledger.substr(0, ledger.rfind('/')) + "/libmsledger.so";
  setenv("MSTX_INJECTION_PATH", ledger.c_str(), 1);
}

/// The job's directory (job.h): made before the application starts, removed
/// when the job is over. The launcher holds a lock on it (flock) for its
/// life: the directory of a launcher that was killed (SIGKILL: no destructor
/// runs) is the one whose lock the next launcher in the same TMPDIR can
/// take, and removes -- whatever pid namespace or host the other ran in.
struct JobDirectory {
  std::string path;
  int lock = -1;
  JobDirectory() {
    const char *tmp = getenv("TMPDIR");
    std::string parent = tmp && *tmp ? tmp : "/tmp";
    removeStale(parent);
    std::string pattern =
        parent + "/msledger-job." + std::to_string(getpid()) + ".XXXXXX";
    if (mkdtemp(pattern.data())) {
      path = pattern;
      lock = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (lock >= 0)
        flock(lock, LOCK_EX | LOCK_NB);
    } else {
      fprintf(stderr,
              "msledger: cannot make a job directory in %s (%s): the "
              "findings of the application's child processes will not count "
              "for the exit status\n",
              parent.c_str(), strerror(errno));
    }
  }
  ~JobDirectory() {
    remove(path);
    if (lock >= 0)
      close(lock);
  }

  /// Removes a job directory and the files in it (status files, and any
  /// temporary a writer without /proc left).
  static void remove(const std::string &dir) {
    if (dir.empty())
      return;
    if (DIR *listing = opendir(dir.c_str())) {
      while (dirent *entry = readdir(listing))
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
          unlinkat(dirfd(listing), entry->d_name, 0);
      closedir(listing);
    }
    rmdir(dir.c_str());
  }
  /// The job directories in `parent` whose launcher no longer holds them.
  static void removeStale(const std::string &parent) {
    DIR *listing = opendir(parent.c_str());
    if (!listing)
      return;
    while (dirent *entry = readdir(listing)) {
      std::string name = entry->d_name, dir = parent + "/" + name;
      struct stat st;
      if (name.rfind("msledger-job.", 0) != 0 || lstat(dir.c_str(), &st) != 0 ||
          !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
        continue;
      int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        continue;
      if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        remove(dir); // nobody holds it
      close(fd);
    }
    closedir(listing);
  }
};

/// "SIGKILL", for messages.
std::string signalName(int sig) {
  const char *name = sigabbrev_np(sig);
  return std::string("SIG") + (name ? name : "?");
}

/// The launcher's live descendants, zombies left out: what the job still
/// runs. "pid 123 (daemon)" each, by pid.
std::vector<std::pair<pid_t, std::string>> liveDescendants() {
  struct Entry {
    pid_t parent;
    char state;
    std::string command;
  };
  std::map<pid_t, Entry> processes;
  DIR *proc = opendir("/proc");
  if (!proc)
    return {};
  while (dirent *entry = readdir(proc)) {
    char *end = nullptr;
    long pid = strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end)
      continue;
    std::string ignored;
    std::optional<std::string> stat = msledger::readTextFile(
        "/proc/" + std::string(entry->d_name) + "/stat", &ignored);
    // "pid (comm) state ppid ...": comm may hold anything, ')' included.
    size_t close = stat ? stat->rfind(')') : std::string::npos;
    if (close == std::string::npos || close + 4 >= stat->size())
      continue;
    size_t open = stat->find('(');
    processes[static_cast<pid_t>(pid)] = {
        static_cast<pid_t>(strtol(stat->c_str() + close + 4, nullptr, 10)),
        (*stat)[close + 2], stat->substr(open + 1, close - open - 1)};
  }
  closedir(proc);
  std::vector<std::pair<pid_t, std::string>> descendants;
  for (const auto &[pid, entry] : processes) {
    if (entry.state == 'Z')
      continue;
    for (pid_t up = entry.parent; up > 1;) {
      if (up == getpid()) {
        descendants.emplace_back(pid, entry.command);
        break;
      }
      auto parent = processes.find(up);
      up = parent == processes.end() ? 0 : parent->second.parent;
    }
  }
  return descendants;
}

std::string
describeProcesses(const std::vector<std::pair<pid_t, std::string>> &processes) {
  std::string out;
  for (const auto &[pid, command] : processes)
    out += (out.empty() ? "" : ", ") + ("pid " + std::to_string(pid)) + " (" +
           msledger::printable(command) + ")";
  return out;
}

/// How the job ended, as the launcher saw it.
struct JobEnd {
  int appStatus = 0;            // the application's wait status
  std::map<int, int> killed;    // pid -> the signal that ended it
  int stoppedBy = 0;            // the signal that stopped the wait, or 0
  bool stoppedWithLive = false; // processes were still running then
};

/// Waits for the application and then for every descendant (the launcher
/// is the subreaper of the job, so each orphan becomes its child), in one
/// loop of sigwaitinfo over signals blocked before the fork: none is lost
/// between two waits. While the application runs, SIGTERM, SIGHUP and the
/// report signals are passed on to it (the terminal's SIGINT and SIGQUIT
/// reach it directly). Once it has exited, the launcher says what it is
/// still waiting for; SIGTERM, SIGINT or SIGHUP then stop the wait, passed
/// on to every live descendant.
JobEnd waitForJob(pid_t app, const sigset_t &waited,
                  const std::string &logFile) {
  JobEnd end;
  bool appExited = false, announced = false;
  for (;;) {
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      if (WIFSIGNALED(status))
        end.killed[pid] = WTERMSIG(status);
      if (pid == app) {
        end.appStatus = status;
        appExited = true;
      }
    }
    if (pid < 0 && errno == ECHILD)
      return end; // none left
    if (appExited && !announced) {
      announced = true;
      std::vector<std::pair<pid_t, std::string>> left = liveDescendants();
      if (!left.empty())
        msledger::writeLog(
            logFile, "====== msledger: the application exited; waiting for " +
                         describeProcesses(left) +
                         ", left running (SIGTERM, SIGINT or SIGHUP stops "
                         "the wait)\n");
    }
    siginfo_t info;
    int sig = sigwaitinfo(&waited, &info);
    if (sig < 0 || sig == SIGCHLD)
      continue;
    if (!appExited) {
      if (sig != SIGINT && sig != SIGQUIT)
        kill(app, sig);
      continue;
    }
    if (sig != SIGTERM && sig != SIGINT && sig != SIGHUP)
      continue;
    std::vector<std::pair<pid_t, std::string>> left = liveDescendants();
    for (const auto &process : left)
      kill(process.first, sig);
    end.stoppedBy = sig;
    end.stoppedWithLive = !left.empty();
    msledger::writeLog(
        logFile,
        "====== msledger: stopped by " + signalName(sig) +
            (left.empty() ? std::string(" while waiting")
                          : " while waiting for " + describeProcesses(left) +
                                "; the signal was passed on to them") +
            "\n");
    return end;
  }
}

/// The job's processes: true if one of them reported findings, could not
/// write its report, or did not report at all (the job is incomplete:
/// runtime/README.md, "Exit status"), each of the last two named. `app`, if
/// not 0, is the application when a signal killed it: the launcher has
/// named it already.
bool reviewJob(const std::string &dir, const JobEnd &end, pid_t app,
               const std::string &logFile) {
  bool failed = false;
  for (const msledger::JobProcess &process : msledger::readJobDirectory(dir)) {
    std::string log = msledger::expandPath(logFile, process.pid, process.rank);
    std::string who = "====== ERROR: pid " + std::to_string(process.pid) +
                      " (" + msledger::rankText(process.rank) + ", " +
                      msledger::printable(process.program) + ")";
    if (process.exited) {
      if (!process.complete)
        msledger::writeLog(log, who + " could not write its report (its log "
                                      "says why)\n");
      failed |= process.findings > 0 || !process.complete;
      continue;
    }
    failed = true;
    if (process.pid == app)
      continue;
    auto signal = end.killed.find(process.pid);
    std::string why =
        signal != end.killed.end()
            ? "it was terminated by signal " + std::to_string(signal->second) +
                  " (" + signalName(signal->second) + ")"
        : end.stoppedBy && kill(process.pid, 0) == 0
            ? "it was still running when msledger stopped waiting"
            : "it was killed, ended without exit() (_exit, abort), or "
              "exec()ed a program msledger does not track";
    msledger::writeLog(log, who + " did not report: " + why +
                                "; its leak report is lost\n");
  }
  return failed;
}

/// Runs argv[0...] under the ledger and waits for it and every process it
/// started; the exit status as a shell reports it: the application's own,
/// unless a process of the job (the application too) found something or did
/// not report (then `exitCode`, if not 0), or it was killed, or a signal
/// stopped the wait for what it left running (128 + the signal).
int runApplication(char **argv, const std::string &logFile, int exitCode,
                   const std::string &jobDir) {
  // Orphans of the job are reparented to the launcher, which reaps them and
  // so sees how each ended.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  sigset_t waited, previous;
  sigemptyset(&waited);
  for (int sig : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2})
    sigaddset(&waited, sig);
  sigprocmask(SIG_BLOCK, &waited, &previous);
  Child = fork();
  if (Child < 0) {
    fprintf(stderr, "msledger: cannot start %s: %s\n", argv[0],
            strerror(errno));
    return 2;
  }
  if (Child == 0) {
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    // What the job's processes label themselves against (job.h).
    setenv("MSLEDGER_JOB_MAIN_PID", std::to_string(getpid()).c_str(), 1);
    execvp(argv[0], argv);
    fprintf(stderr, "msledger: cannot run '%s': %s\n", argv[0],
            strerror(errno));
    _exit(127);
  }
  std::string appLog =
      msledger::expandPath(logFile, Child, msledger::processRank());
  JobEnd end = waitForJob(Child, waited, appLog);
  int status = end.appStatus;
  if (WIFSIGNALED(status))
    // The application's log, as its ledger named it: %p is its pid.
    msledger::writeLog(appLog, "====== ERROR: " + msledger::printable(argv[0]) +
                                   " was terminated by signal " +
                                   std::to_string(WTERMSIG(status)) + " (" +
                                   signalName(WTERMSIG(status)) +
                                   "); the leak report of a killed process "
                                   "is lost\n");
  bool failed =
      !jobDir.empty() &&
      reviewJob(jobDir, end, WIFSIGNALED(status) ? Child : 0, logFile);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  if (end.stoppedBy)
    return 128 + end.stoppedBy;
  if (failed && exitCode != 0)
    return exitCode;
  return WEXITSTATUS(status);
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 2 && subcommandHelp(argv[1]) &&
      (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h")) {
    fputs(subcommandHelp(argv[1]), stdout);
    return 0;
  }
  if (argc > 1 &&
      (std::string(argv[1]) == "diff" || std::string(argv[1]) == "growth"))
    return snapshotCommand(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "report")
    return journalCommand(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "timeline")
    return timelineCommand(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "merge")
    return mergeCommand(argc, argv);
  LaunchOptions launch;
  int first = 1;
  for (; first < argc; ++first) {
    std::string arg = argv[first];
    if (arg == "--") {
      ++first;
      break;
    }
    if (arg.empty() || arg[0] != '-')
      break;
    if (arg == "-h" || arg == "--help") {
      usage(stdout);
      return 0;
    }
    if (arg == "-v" || arg == "--version") {
      printf("msledger %s\n", kVersion);
      return 0;
    }
    // msSanitizer's tool choice, as its users type it: msledger is its
    // memcheck of the CANN stack.
    if (arg == "-t" || arg == "--tool" || arg.rfind("--tool=", 0) == 0) {
      std::string tool = arg.rfind("--tool=", 0) == 0 ? arg.substr(7)
                         : first + 1 < argc           ? argv[++first]
                                                      : "";
      checkTool(tool);
      continue;
    }
    readFlag(arg, launch);
  }
  if (first >= argc)
    badUsage("no application to run");
  settleLevels(launch);
  JobDirectory job;
  if (!job.path.empty())
    launch.options.push_back("job_dir=" + quoted(job.path));
  setEnvironment(launch);
  // The exit status for findings, as the ledgers will read it.
  msledger::Options options;
  std::vector<std::string> problems;
  options.parse(getenv("MSLEDGER_OPTIONS"), &problems);
  return runApplication(argv + first, launch.logFile, options.exitcode,
                        job.path);
}
