//===- job.cpp - Jobs of many processes -----------------------------------===//
#include "job.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace json = boost::json;

namespace msledger {

int processRank() {
  for (const char *name : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                           "PMIX_RANK", "SLURM_PROCID", "LOCAL_RANK"}) {
    const char *value = getenv(name);
    if (!value || !*value)
      continue;
    char *end = nullptr;
    long rank = strtol(value, &end, 10);
    if (*end == '\0' && rank >= 0 && rank <= 1 << 30)
      return static_cast<int>(rank);
  }
  return -1;
}

std::string expandPath(const std::string &path, int pid, int rank) {
  std::string result;
  for (size_t i = 0; i < path.size(); ++i) {
    char next = i + 1 < path.size() ? path[i + 1] : '\0';
    if (path[i] == '%' && next == 'p') {
      result += std::to_string(pid);
      ++i;
    } else if (path[i] == '%' && next == 'r') {
      result += rank >= 0 ? std::to_string(rank) : "norank";
      ++i;
    } else {
      result += path[i];
    }
  }
  return result;
}

std::string rankText(int rank) {
  return rank >= 0 ? "rank " + std::to_string(rank) : "no rank";
}

std::string formatJobStatus(const JobProcess &process) {
  json::object out{{"pid", process.pid},
                   {"ppid", process.parentPid},
                   {"program", process.program},
                   {"state", process.exited ? "exited" : "running"},
                   {"findings", process.findings},
                   {"leaked_bytes", process.leakedBytes}};
  out["rank"] = process.rank >= 0 ? json::value(process.rank) : nullptr;
  return json::serialize(out) + "\n";
}

std::optional<JobProcess> parseJobStatus(const std::string &text) {
  boost::system::error_code error;
  json::value value = json::parse(text, error);
  if (error || !value.is_object())
    return std::nullopt;
  const json::object &in = value.as_object();
  auto integer = [&](const char *name) -> std::optional<int64_t> {
    const json::value *field = in.if_contains(name);
    if (!field || !field->is_number())
      return std::nullopt;
    return field->to_number<int64_t>();
  };
  const json::value *program = in.if_contains("program");
  const json::value *state = in.if_contains("state");
  std::optional<int64_t> pid = integer("pid");
  if (!pid || !program || !program->is_string() || !state ||
      !state->is_string())
    return std::nullopt;
  JobProcess process;
  process.pid = static_cast<int>(*pid);
  process.parentPid = static_cast<int>(integer("ppid").value_or(0));
  process.rank = static_cast<int>(integer("rank").value_or(-1));
  process.program = std::string(program->as_string());
  process.exited = state->as_string() == "exited";
  process.findings = static_cast<uint64_t>(integer("findings").value_or(0));
  process.leakedBytes =
      static_cast<uint64_t>(integer("leaked_bytes").value_or(0));
  return process;
}

std::string jobStatusPath(const std::string &dir, int pid) {
  return dir + "/" + std::to_string(pid) + ".json";
}

std::vector<JobProcess> readJobDirectory(const std::string &dir) {
  std::vector<JobProcess> processes;
  DIR *listing = opendir(dir.c_str());
  if (!listing)
    return processes;
  while (dirent *entry = readdir(listing)) {
    std::string name = entry->d_name;
    if (name.size() < 6 || name.compare(name.size() - 5, 5, ".json") != 0)
      continue; // "." and "..", and the temporaries of a replacement
    int fd = open((dir + "/" + name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    std::string text;
    char buffer[4096];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0)
      text.append(buffer, static_cast<size_t>(n));
    close(fd);
    if (std::optional<JobProcess> process = parseJobStatus(text))
      processes.push_back(*process);
  }
  closedir(listing);
  std::sort(
      processes.begin(), processes.end(),
      [](const JobProcess &a, const JobProcess &b) { return a.pid < b.pid; });
  return processes;
}

} // namespace msledger
