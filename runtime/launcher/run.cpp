//===- run.cpp - msledger [options] [--] app: the run of an application --===//
//
// Runs `app` with libmsledger preloaded and the options turned into
// MSLEDGER_OPTIONS (run_options.h), as the supervisor of its job: the
// launcher is the subreaper of every process the application starts, waits
// for all of them, and reads what each left in the job's directory (job.h).
// Exit status: the application's own, unless a process of the job found
// leaks or errors or did not report (then --exitcode, 23 by default), 128 + N
// if it was killed by signal N or signal N stopped the wait, 2 for a bad
// command line and 127 if the application cannot be run.
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "commands.h"
#include "escape.h"
#include "job.h"
#include "options.h"
#include "output.h"
#include "run_options.h"
#include "text_file.h"

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

namespace msledger {

namespace {

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
    std::optional<std::string> stat =
        readTextFile("/proc/" + std::string(entry->d_name) + "/stat", &ignored);
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
           printable(command) + ")";
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
        writeLog(logFile,
                 "====== msledger: the application exited; waiting for " +
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
    writeLog(logFile,
             "====== msledger: stopped by " + signalName(sig) +
                 (left.empty()
                      ? std::string(" while waiting")
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
  for (const JobProcess &process : readJobDirectory(dir)) {
    std::string log = expandPath(logFile, process.pid, process.rank);
    std::string who = "====== ERROR: pid " + std::to_string(process.pid) +
                      " (" + rankText(process.rank) + ", " +
                      printable(process.program) + ")";
    if (process.exited) {
      if (!process.complete)
        writeLog(log, who + " could not write its report (its log "
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
    writeLog(log,
             who + " did not report: " + why + "; its leak report is lost\n");
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
  pid_t child = fork(); // the application
  if (child < 0) {
    fprintf(stderr, "msledger: cannot start %s: %s\n", argv[0],
            strerror(errno));
    return 2;
  }
  if (child == 0) {
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    // What the job's processes label themselves against (job.h).
    setenv("MSLEDGER_JOB_MAIN_PID", std::to_string(getpid()).c_str(), 1);
    execvp(argv[0], argv);
    fprintf(stderr, "msledger: cannot run '%s': %s\n", argv[0],
            strerror(errno));
    _exit(127);
  }
  std::string appLog = expandPath(logFile, child, processRank());
  JobEnd end = waitForJob(child, waited, appLog);
  int status = end.appStatus;
  if (WIFSIGNALED(status))
    // The application's log, as its ledger named it: %p is its pid.
    writeLog(appLog, "====== ERROR: " + printable(argv[0]) +
                         " was terminated by signal " +
                         std::to_string(WTERMSIG(status)) + " (" +
                         signalName(WTERMSIG(status)) +
                         "); the leak report of a killed process "
                         "is lost\n");
  bool failed =
      !jobDir.empty() &&
      reviewJob(jobDir, end, WIFSIGNALED(status) ? child : 0, logFile);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  if (end.stoppedBy)
    return 128 + end.stoppedBy;
  if (failed && exitCode != 0)
    return exitCode;
  return WEXITSTATUS(status);
}

} // namespace

int runCommand(int argc, char **argv) {
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
      printf("msledger %s\n", MSLEDGER_VERSION);
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
    launch.set("job_dir", job.path);
  setEnvironment(launch);
  // The launcher's own lines go to the --log-file the flags named; the exit
  // status for findings is the one the ledgers read.
  bool logFlag = std::find(launch.given.begin(), launch.given.end(),
                           "log_path") != launch.given.end();
  return runApplication(argv + first, logFlag ? launch.options.log_path : "",
                        launch.options.exitcode, job.path);
}

} // namespace msledger
