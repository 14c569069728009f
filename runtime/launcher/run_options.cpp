//===- run_options.cpp - The flags of msledger's run ----------------------===//
#include "run_options.h"

#include "command_line.h"
#include "commands.h"
#include "options.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <unistd.h>

namespace msledger {

namespace {

/// The launcher's flags, one per option of options.inc that has one.
struct Flag {
  const char *name;   // "--log-file"
  const char *option; // "log_path"
  const char *value;  // "FILE", or "yes|no" for a flag that takes yes or no
  bool isBool;
};
constexpr Flag kFlags[] = {
#define MSLEDGER_OPTION(kind, name, value, flag, valueName, help)              \
  {flag, #name, valueName, std::is_same_v<kind, YesNo>},
#include "options.inc"
#undef MSLEDGER_OPTION
};

const Flag *flagNamed(const std::string &name) {
  for (const Flag &flag : kFlags)
    if (*flag.name && name == flag.name)
      return &flag;
  return nullptr;
}

/// The names of the flags, for suggestions.
std::vector<std::string> flagNames() {
  std::vector<std::string> names;
  for (const Flag &flag : kFlags)
    if (*flag.name)
      names.push_back(flag.name);
  return names;
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

} // namespace

void usage(FILE *out) {
  fprintf(out, "Usage: msledger [options] [--] app [args...]\n");
  for (const Subcommand &command : kSubcommands)
    fprintf(out, "       msledger %s\n", command.synopsis);
  fprintf(
      out,
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
      Options::helpText().c_str());
}

void checkTool(const std::string &tool) {
  if (tool == "memcheck")
    return;
  if (tool == "racecheck" || tool == "initcheck" || tool == "synccheck")
    badUsage("--tool=" + tool +
             " checks AI Core kernels; msledger checks the memory and "
             "resources of the CANN stack (memcheck) only");
  badUsage("--tool expects memcheck, not '" + tool + "'");
}

LaunchOptions::LaunchOptions() {
  std::vector<std::string> problems;
  if (const char *existing = getenv("MSLEDGER_OPTIONS"))
    options.parse(existing, &problems);
  // The flags are appended to this text: after an open quote, the ledgers
  // would read them as part of its value.
  for (const std::string &problem : problems)
    if (problem.rfind("unterminated quote", 0) == 0)
      badUsage(problem + ": the flags cannot be added to it");
}

void LaunchOptions::set(const std::string &option, const std::string &value,
                        const std::string &subject) {
  std::string problem;
  if (!options.set(option, value, &problem, subject))
    badUsage(problem);
  given.erase(std::remove(given.begin(), given.end(), option), given.end());
  given.push_back(option);
}

void readFlag(const std::string &arg, LaunchOptions &out) {
  size_t equals = arg.find('=');
  std::string name = arg.substr(0, equals);
  const Flag *flag = flagNamed(name);
  if (!flag)
    badUsage("unknown option '" + (equals == std::string::npos ? arg : name) +
             "'" + suggestion(name, flagNames()));
  std::string value;
  if (equals != std::string::npos)
    value = arg.substr(equals + 1);
  else if (flag->isBool)
    value = "yes"; // "--leak-check", as msSanitizer's users type it
  else
    badUsage(name + " needs a value: " + name + "=" + flag->value);
  std::string option = flag->option;
  // A run compares with one baseline: two given would silently be one.
  if (option == "baseline" &&
      std::find(out.given.begin(), out.given.end(), option) != out.given.end())
    badUsage("--baseline is given twice: make one baseline of several reports "
             "with msledger baseline -o FILE REPORT...");
  // The ledger's own parser, the message naming the flag.
  out.set(option, value, name);
  if (!flag->isBool && value.empty())
    badUsage(name + " needs a value: " + name + "=" + flag->value);
  if (option == "suppressions") // checked now, and named absolutely
    out.set(option, loadSuppressions(value, nullptr), name);
  if (option == "baseline") // likewise
    out.set(option, loadBaseline(value, nullptr), name);
  // Levels are settled once every flag is read, both at once.
  out.deviceGiven = out.deviceGiven || option == "check_device_heap";
  out.cannGiven = out.cannGiven || option == "check_cann_heap";
}

void settleLevels(LaunchOptions &launch) {
  Options &options = launch.options;
  if (!launch.deviceGiven && !launch.cannGiven)
    options.check_device_heap = options.check_cann_heap = true;
  if (launch.deviceGiven && !launch.cannGiven)
    options.check_cann_heap = false;
  if (launch.cannGiven && !launch.deviceGiven)
    options.check_device_heap = false;
  if (!options.check_device_heap && !options.check_cann_heap)
    fprintf(stderr, "msledger: both --check-device-heap and --check-cann-heap "
                    "are off: nothing will be checked\n");
  // First among the options, always: a flag's levels override the
  // environment's, and naming neither checks both.
  for (const char *level : {"check_cann_heap", "check_device_heap"}) {
    launch.given.erase(
        std::remove(launch.given.begin(), launch.given.end(), level),
        launch.given.end());
    launch.given.insert(launch.given.begin(), level);
  }
}

void setEnvironment(const LaunchOptions &launch) {
  std::string combined;
  if (const char *existing = getenv("MSLEDGER_OPTIONS"); existing && *existing)
    combined = existing;
  for (const std::string &option : launch.given) {
    std::string value;
    if (!quoteOptionValue(launch.options.text(option), &value))
      badUsage("a value cannot contain both kinds of quotes: " +
               launch.options.text(option));
    combined += (combined.empty() ? "" : ":") + option + "=" + value;
  }
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

} // namespace msledger
