//===- command_line.cpp - What msledger's commands share ------------------===//
#include "command_line.h"

#include "options.h"
#include "suppressions.h"
#include "text_file.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace msledger {

namespace {

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

} // namespace

void badUsage(const std::string &message) {
  fprintf(stderr, "msledger: %s\nTry 'msledger --help'.\n", message.c_str());
  exit(2);
}

std::string suggestion(const std::string &name,
                       const std::vector<std::string> &names) {
  const std::string *best = nullptr;
  size_t bestDistance = 0;
  for (const std::string &candidate : names) {
    size_t d = distance(name, candidate);
    if (!best || d < bestDistance) {
      best = &candidate;
      bestDistance = d;
    }
  }
  if (!best || bestDistance * 3 > name.size())
    return "";
  return "; did you mean " + *best + "?";
}

bool scanCommandLine(int argc, char **argv,
                     const std::vector<std::string> &names, CommandLine *out,
                     std::string *error) {
  *out = CommandLine();
  std::string command = std::string("msledger ") + argv[0] + ": ";
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (optionsEnded || arg.rfind("--", 0) != 0) {
      if (!optionsEnded && arg == "-h") {
        out->help = true;
        return true;
      }
      out->operands.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (arg == "--help") {
      out->help = true;
      return true;
    }
    size_t equals = arg.find('=');
    std::string name = arg.substr(0, equals);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      *error = command + "unknown option '" + name + "'";
      return false;
    }
    if (equals == std::string::npos || equals + 1 == arg.size()) {
      *error = command + name + " needs a value";
      return false;
    }
    out->options.emplace_back(name, arg.substr(equals + 1));
  }
  return true;
}

CommandLine readCommandLine(int argc, char **argv,
                            const std::vector<std::string> &names,
                            const char *help) {
  CommandLine line;
  std::string error;
  if (!scanCommandLine(argc, argv, names, &line, &error))
    badUsage(error);
  if (line.help) {
    fputs(help, stdout);
    exit(0);
  }
  return line;
}

int exitCodeOption(const std::string &value) {
  // The option's own kind: the run's --exitcode and MSLEDGER_OPTIONS' read
  // it the same way.
  int code = -1;
  std::string why;
  if (!ExitStatus::read(value, &code, &why))
    badUsage("--exitcode expects " + ExitStatus::expects() + ", not '" + value +
             "'");
  return code;
}

std::vector<std::string> FindingsOptions::names() {
  return {"--exitcode", "--sarif", "--project-root", "--baseline"};
}

bool FindingsOptions::take(const std::string &name, const std::string &value) {
  if (name == "--exitcode")
    exitCode = exitCodeOption(value);
  else if (name == "--sarif")
    sarifPath = value;
  else if (name == "--project-root")
    projectRoot = value;
  else if (name == "--baseline")
    loadBaseline(value, &baseline);
  else
    return false;
  return true;
}

std::optional<std::string> readAll(const std::string &path) {
  std::string error;
  std::optional<std::string> bytes = readTextFile(path, &error);
  if (!bytes)
    fprintf(stderr, "msledger: %s\n", error.c_str());
  return bytes;
}

namespace {

/// Loads `path` through `load` (false with a message), or stops msledger
/// with exit status 2; the path made absolute.
template <typename Loaded>
std::string loadOrStop(const std::string &path, Loaded *loaded) {
  std::string error;
  if (!loaded->load(path, &error)) {
    fprintf(stderr, "msledger: %s\n", error.c_str());
    exit(2);
  }
  char *absolute = realpath(path.c_str(), nullptr);
  std::string result = absolute ? absolute : path;
  free(absolute);
  return result;
}

} // namespace

std::string loadSuppressions(const std::string &path, Suppressions *into) {
  Suppressions suppressions;
  return loadOrStop(path, into ? into : &suppressions);
}

std::string loadBaseline(const std::string &path, Baseline *into) {
  Baseline baseline;
  return loadOrStop(path, into ? into : &baseline);
}

} // namespace msledger
