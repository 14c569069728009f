//===- job.cpp - Jobs of many processes -----------------------------------===//
#include "job.h"

#include "json_io.h"

#include <boost/json.hpp>

#include <algorithm>
#include <climits>
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
                   {"leaked_bytes", process.leakedBytes},
                   {"complete", process.complete}};
  out["rank"] = process.rank >= 0 ? json::value(process.rank) : nullptr;
  return writeJson(out);
}

std::optional<JobProcess> parseJobStatus(const std::string &text) {
  std::string error;
  std::unique_ptr<json::object> object =
      parseJsonObject(text, "status", &error);
  if (!object)
    return std::nullopt;
  JsonFields in(*object, "status");
  JobProcess process;
  process.pid = static_cast<int>(in.integer("pid", 1, INT32_MAX, 0));
  process.parentPid = static_cast<int>(in.integer("ppid", 0, INT32_MAX, 0));
  process.rank = static_cast<int>(in.integer("rank", 0, 1 << 30, -1, true));
  process.program = in.string("program");
  std::string state = in.string("state");
  process.exited = state == "exited";
  process.findings = in.count("findings");
  process.leakedBytes = in.count("leaked_bytes");
  process.complete = in.boolean("complete", true);
  if (!in.ok() || process.pid == 0 || (state != "exited" && state != "running"))
    return std::nullopt;
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
    if (name.size() < 6 || name.compare(name.size() - 5, 5, ".json") != 0 ||
        name.find_first_not_of("0123456789") != name.size() - 5)
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
    if (std::optional<JobProcess> process = parseJobStatus(text)) {
      processes.push_back(*process);
    } else {
      // Not one this msledger wrote whole: the process is not taken to
      // have reported (a job must never pass on what it could not read).
      JobProcess unreadable;
      unreadable.pid = atoi(name.c_str());
      unreadable.program =
          "(its status file " + dir + "/" + name + " cannot be read)";
      processes.push_back(unreadable);
    }
  }
  closedir(listing);
  std::sort(
      processes.begin(), processes.end(),
      [](const JobProcess &a, const JobProcess &b) { return a.pid < b.pid; });
  return processes;
}

} // namespace msledger
