//===- main.cpp - msledger, the launcher
//------------------------------------===//
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
#include "journal.h"
#include "journal_report.h"
#include "monitor.h"
#include "options.h"
#include "snapshots.h"
#include "text_file.h"
#include "timeline.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string>
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
      "       msledger report [--exitcode=N] JOURNAL   the leak report, "
      "rebuilt from a journal\n"
      "       msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL   a chart of "
      "live memory\n"
      "\n"
      "Runs app with the msledger leak checker preloaded and reports, when it "
      "exits,\n"
      "what it never released: device memory, host-pinned and DVPP memory, "
      "and\n"
      "resources (streams, contexts, data buffers, ...).\n"
      "\n"
      "Options (msSanitizer's spellings):\n"
      "  --check-device-heap=yes|no  check driver-level memory (halMemAlloc, "
      "...),\n"
      "                              including what the CANN stack holds "
      "itself\n"
      "  --check-cann-heap=yes|no    check the application's ACL and DVPP "
      "calls\n"
      "                              (both levels if neither is given; both "
      "may be on)\n"
      "  --leak-check=yes|no         report what is live at exit (default "
      "yes)\n"
      "  --log-file=FILE             append reports to FILE instead of "
      "writing them\n"
      "                              to stderr; %%p in FILE becomes the "
      "pid\n"
      "  --log-level=info|warn|error how much besides the reports (default "
      "warn)\n"
      "  -v, --version               print the version\n"
      "  -h, --help                  print this help\n"
      "msledger's own:\n"
      "  --group-by-site=yes|no      one block per allocation site, largest "
      "first\n"
      "  --report-resources=yes|no   report leaked handles too (default yes)\n"
      "  --implicit-release-is-leak=yes|no\n"
      "                              what aclrtResetDevice or aclFinalize "
      "released\n"
      "                              implicitly is a leak (default no: listed "
      "apart)\n"
      "  --json=FILE                 also write the final report as JSON\n"
      "  --snapshot-interval=SECONDS write a JSON snapshot of what is live, "
      "per\n"
      "                              site, every SECONDS (see msledger "
      "growth)\n"
      "  --snapshot-dir=DIR          where (default msledger-snapshots.PID)\n"
      "  --journal=FILE              record every event in FILE, which "
      "survives\n"
      "                              the application being killed (msledger "
      "report)\n"
      "  --report-signal=SIG|none    the signal that reports what is live now\n"
      "                              (default SIGUSR1; sent to msledger, it "
      "goes\n"
      "                              to the application)\n"
      "  --exitcode=N                exit status when leaks or errors are "
      "found\n"
      "                              (default 23; 0 keeps the application's "
      "status)\n"
      "  --chain-depth=N             callers of a rewritten helper an event "
      "names\n"
      "                              (0 to 16, default 8)\n"
      "A yes|no option given bare (--leak-check) means yes.\n"
      "\n"
      "The same options can be given to a program run without the launcher in\n"
      "MSLEDGER_OPTIONS=name=value:name=value. All of them:\n%s",
      msledger::Options::helpText().c_str());
}

/// The launcher's flags: name, what a value is ("" for yes|no flags).
struct Flag {
  const char *name;
  const char *value;
};
constexpr Flag kFlags[] = {
    {"--check-device-heap", ""}, {"--check-cann-heap", ""},
    {"--leak-check", ""},        {"--group-by-site", ""},
    {"--report-resources", ""},  {"--implicit-release-is-leak", ""},
    {"--log-file", "FILE"},      {"--log-level", "info|warn|error"},
    {"--json", "FILE"},          {"--snapshot-interval", "SECONDS"},
    {"--snapshot-dir", "DIR"},   {"--journal", "FILE"},
    {"--report-signal", "SIG"},  {"--exitcode", "N"},
    {"--chain-depth", "N"}};

const Flag *flagNamed(const std::string &name) {
  for (const Flag &flag : kFlags)
    if (name == flag.name)
      return &flag;
  return nullptr;
}
bool isBooleanFlag(const std::string &name) {
  const Flag *flag = flagNamed(name);
  return flag && !*flag->value;
}
bool isValueFlag(const std::string &name) {
  const Flag *flag = flagNamed(name);
  return flag && *flag->value;
}
std::string valueName(const std::string &name) {
  const Flag *flag = flagNamed(name);
  return flag ? flag->value : "";
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

void note(const std::string &logFile, const std::string &text) {
  int fd = logFile.empty()
               ? 2
               : open(logFile.c_str(),
                      O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    fd = 2;
  ssize_t ignored = write(fd, text.data(), text.size());
  (void)ignored;
  if (fd != 2)
    close(fd);
}

pid_t Child = 0;
void forward(int signal) {
  if (Child > 0)
    kill(Child, signal);
}

} // namespace

/// The bytes of `path`, or nullopt with a message.
std::optional<std::string> readAll(const std::string &path) {
  std::string error;
  std::optional<std::string> bytes = msledger::readTextFile(path, &error);
  if (!bytes)
    fprintf(stderr, "msledger: %s\n", error.c_str());
  return bytes;
}

/// --exitcode=N's value, 0 to 255, or a usage error.
int exitCodeOption(const std::string &value) {
  int code = -1;
  if (!msledger::parseExitCode(value, &code))
    badUsage("--exitcode expects a number from 0 to 255, not '" + value + "'");
  return code;
}

/// msledger report [--exitcode=N] JOURNAL: the leaks exit with the status
/// the launcher gives them (23 by default).
int journalCommand(int argc, char **argv) {
  int exitCode = 23;
  int next = 2;
  if (next < argc && std::string(argv[next]).rfind("--exitcode=", 0) == 0)
    exitCode = exitCodeOption(argv[next++] + strlen("--exitcode="));
  if (argc != next + 1)
    badUsage("msledger report takes one journal file");
  std::string path = argv[next], error, report;
  std::optional<std::string> bytes = readAll(path);
  if (!bytes)
    return 1;
  msledger::JournalContents contents;
  bool leaked = false;
  if (!msledger::readJournal(*bytes, &contents, &error) ||
      !msledger::journalReport(contents, path, &report, &leaked, &error)) {
    fprintf(stderr, "msledger: %s%s\n",
            error.rfind(path, 0) == 0 ? "" : (path + ": ").c_str(),
            error.c_str());
    return 1;
  }
  fputs(report.c_str(), stdout);
  return leaked ? exitCode : 0;
}

/// msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL.
int timelineCommand(int argc, char **argv) {
  if (argc != 4)
    badUsage("msledger timeline takes the page to write and a directory of "
             "snapshots or a journal");
  std::string out = argv[2], source = argv[3], error;
  std::vector<msledger::Series> series;
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
    series = msledger::seriesFromJournal(contents, 5, 400);
    title = "Live memory, journal " + source + " (pid " +
            std::to_string(contents.header.pid) + ")";
    xLabel = "event serial number";
  }
  if (!msledger::writeTextFileAtomically(
          out, msledger::timelineHtml(series, title, xLabel), &error)) {
    fprintf(stderr, "msledger: %s\n", error.c_str());
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
    return "Usage: msledger report [--exitcode=N] JOURNAL\n"
           "The leak report rebuilt from a journal (--journal=FILE), also of "
           "a process\n"
           "that was killed. Exits N (default 23) when it lists leaks, 0 when "
           "it lists\n"
           "none, 1 when the journal cannot be read.\n";
  if (command == "timeline")
    return "Usage: msledger timeline OUT.html SNAPSHOT_DIR|JOURNAL\n"
           "Writes one self-contained HTML page that charts live memory over "
           "time, per\n"
           "site, from a run's snapshots or a journal. Exits 1 if there is "
           "nothing to\n"
           "read.\n";
  return nullptr;
}

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
  std::vector<std::string> options; // name=value for MSLEDGER_OPTIONS
  bool deviceGiven = false, cannGiven = false;
  bool device = true, cann = true;
  std::string logFile;
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
    size_t equals = arg.find('=');
    std::string flag = arg.substr(0, equals);
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (isBooleanFlag(flag)) {
      value = "yes"; // "--leak-check", as msSanitizer's users type it
    } else if (isValueFlag(flag)) {
      badUsage(flag + " needs a value: " + flag + "=" + valueName(flag));
    } else {
      badUsage("unknown option '" + arg + "'" + suggestion(flag));
    }
    if (flag == "--check-device-heap") {
      device = yesNo(flag, value);
      deviceGiven = true;
    } else if (flag == "--check-cann-heap") {
      cann = yesNo(flag, value);
      cannGiven = true;
    } else if (flag == "--leak-check") {
      options.push_back(std::string("leak_check=") +
                        (yesNo(flag, value) ? "1" : "0"));
    } else if (flag == "--group-by-site") {
      options.push_back(std::string("group_by_site=") +
                        (yesNo(flag, value) ? "1" : "0"));
    } else if (flag == "--implicit-release-is-leak") {
      options.push_back(std::string("implicit_release_is_leak=") +
                        (yesNo(flag, value) ? "1" : "0"));
    } else if (flag == "--report-resources") {
      options.push_back(std::string("report_resources=") +
                        (yesNo(flag, value) ? "1" : "0"));
    } else if (flag == "--log-file") {
      if (value.empty())
        badUsage("--log-file needs a file name");
      logFile = value;
      options.push_back("log_path=" + quoted(value));
    } else if (flag == "--log-level") {
      if (value != "info" && value != "warn" && value != "error")
        badUsage("--log-level expects info, warn or error, not '" + value +
                 "'");
      options.push_back("log_level=" + value);
    } else if (flag == "--json") {
      if (value.empty())
        badUsage("--json needs a file name");
      options.push_back("json_path=" + quoted(value));
    } else if (flag == "--snapshot-interval") {
      if (msledger::intervalNamed(value) <= 0)
        badUsage("--snapshot-interval expects a number of seconds, not '" +
                 value + "'");
      options.push_back("snapshot_interval=" + value);
    } else if (flag == "--journal") {
      if (value.empty())
        badUsage("--journal needs a file name");
      options.push_back("journal_path=" + quoted(value));
    } else if (flag == "--snapshot-dir") {
      if (value.empty())
        badUsage("--snapshot-dir needs a directory");
      options.push_back("snapshot_dir=" + quoted(value));
    } else if (flag == "--report-signal") {
      std::string why;
      if (msledger::signalNamed(value, &why) < 0)
        badUsage("--report-signal expects SIGUSR1, SIGUSR2, a signal number "
                 "or none, not '" +
                 value + "' (" + why + ")");
      options.push_back("report_signal=" + value);
    } else if (flag == "--exitcode") {
      exitCodeOption(value);
      options.push_back("exitcode=" + value);
    } else if (flag == "--chain-depth") {
      int depth = -1;
      char *end = nullptr;
      long parsed = strtol(value.c_str(), &end, 10);
      if (!value.empty() && !*end && parsed >= 0 && parsed <= 16)
        depth = static_cast<int>(parsed);
      if (depth < 0)
        badUsage("--chain-depth expects a number from 0 to 16, not '" + value +
                 "'");
      options.push_back("chain_depth=" + value);
    } else {
      badUsage("unknown option '" + flag + "'" + suggestion(flag));
    }
  }
  if (first >= argc)
    badUsage("no application to run");
  // As msSanitizer: naming one check turns on that one only.
  if (deviceGiven && !cannGiven)
    cann = false;
  if (cannGiven && !deviceGiven)
    device = false;
  if (!device && !cann)
    fprintf(stderr, "msledger: both --check-device-heap and --check-cann-heap "
                    "are off: nothing will be checked\n");
  options.insert(options.begin(),
                 std::string("check_device_heap=") + (device ? "1" : "0"));
  options.insert(options.begin() + 1,
                 std::string("check_cann_heap=") + (cann ? "1" : "0"));

  std::string combined;
  if (const char *existing = getenv("MSLEDGER_OPTIONS"); existing && *existing)
    combined = existing;
  for (const std::string &option : options)
    combined += (combined.empty() ? "" : ":") + option;
  std::string preload = libraryPath();
  if (const char *existing = getenv("LD_PRELOAD"); existing && *existing)
    preload += std::string(":") + existing;
  setenv("MSLEDGER_OPTIONS", combined.c_str(), 1);
  setenv("LD_PRELOAD", preload.c_str(), 1);

  Child = fork();
  if (Child < 0) {
    fprintf(stderr, "msledger: cannot start %s: %s\n", argv[first],
            strerror(errno));
    return 2;
  }
  if (Child == 0) {
    execvp(argv[first], argv + first);
    fprintf(stderr, "msledger: cannot run '%s': %s\n", argv[first],
            strerror(errno));
    _exit(127);
  }
  // The terminal's ^C reaches the application directly; pass on the rest.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGTERM, forward);
  signal(SIGHUP, forward);
  // The report signal, sent to the launcher, is the application's.
  signal(SIGUSR1, forward);
  signal(SIGUSR2, forward);
  int status = 0;
  while (waitpid(Child, &status, 0) < 0)
    if (errno != EINTR) {
      fprintf(stderr, "msledger: lost the application: %s\n", strerror(errno));
      return 2;
    }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char *name = sigabbrev_np(sig);
    // The application's log, as its ledger named it: %p is its pid.
    note(msledger::expandPid(logFile, Child),
         "====== ERROR: " + std::string(argv[first]) +
             " was terminated by signal " + std::to_string(sig) + " (SIG" +
             (name ? name : "?") +
             "); the leak report of a killed process is lost\n");
    return 128 + sig;
  }
  return WEXITSTATUS(status);
}
