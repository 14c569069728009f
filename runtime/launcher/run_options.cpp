//===- run_options.cpp - The flags of msledger's run ----------------------===//
#include "run_options.h"

#include "command_line.h"
#include "commands.h"
#include "monitor.h"
#include "options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
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

/// The names of the flags, for suggestions.
std::vector<std::string> flagNames() {
  std::vector<std::string> names;
  for (const Flag &flag : kFlags)
    if (*flag.name)
      names.push_back(flag.name);
  return names;
}

bool yesNo(const std::string &flag, const std::string &value) {
  if (value == "yes")
    return true;
  if (value == "no")
    return false;
  badUsage("option " + flag + " expects yes or no, not '" + value + "'");
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

/// Refuses now, with the flag's name, a value the ledger would refuse later.
void checkValue(const std::string &name, const std::string &option,
                const std::string &value, const Flag &flag) {
  if (option == "log_level" && value != "info" && value != "warn" &&
      value != "error")
    badUsage(name + " expects info, warn or error, not '" + value + "'");
  if (option == "exitcode")
    exitCodeOption(value);
  int depth = 0;
  if (option == "chain_depth" && !parseChainDepth(value, &depth))
    badUsage(name + " expects a number from 0 to " +
             std::to_string(kMaxChainDepth) + ", not '" + value + "'");
  if (option == "snapshot_interval" && intervalNamed(value) <= 0)
    badUsage(name + " expects a number of seconds, not '" + value + "'");
  if (option == "report_signal") {
    std::string why;
    if (signalNamed(value, &why) < 0)
      badUsage(name +
               " expects SIGUSR1, SIGUSR2, a signal number or none, not '" +
               value + "' (" + why + ")");
  }
  if (value.empty())
    badUsage(name + " needs a value: " + name + "=" + flag.value);
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

std::string quoted(const std::string &value) {
  if (value.find_first_of(":\"'") == std::string::npos)
    return value;
  if (value.find('"') == std::string::npos)
    return "\"" + value + "\"";
  if (value.find('\'') == std::string::npos)
    return "'" + value + "'";
  badUsage("a value cannot contain both kinds of quotes: " + value);
}

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

} // namespace msledger
