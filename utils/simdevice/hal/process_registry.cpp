//===- process_registry.cpp - Device memory use shared across processes ---===//
#include "process_registry.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mssim {

constexpr char UsageRecord::kMagic[8];

namespace {

std::string processName() {
  std::ifstream comm("/proc/self/comm");
  std::string name;
  std::getline(comm, name);
  return name.empty() ? "unknown" : name;
}

} // namespace

uint64_t ProcessRegistry::processStartTime(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return 0;
  // The command name may contain spaces and parentheses: fields start after the
  // last ')'.
  size_t close = line.rfind(')');
  if (close == std::string::npos)
    return 0;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  // Field 3 (state) is the first after the name; start time is field 22.
  for (int index = 3; fields >> field; ++index)
    if (index == 22)
      return std::strtoull(field.c_str(), nullptr, 10);
  return 0;
}

ProcessRegistry::ProcessRegistry(const SimConfig &config) : Config(config) {
  open();
}

ProcessRegistry::~ProcessRegistry() { unpublish(); }

void ProcessRegistry::open() {
  if (mkdir(Config.runDir.c_str(), 0700) != 0 && errno != EEXIST) {
    Error = "cannot create " + Config.runDir + ": " + strerror(errno);
    return;
  }
  Path = Config.runDir + "/" + std::to_string(getpid()) + ".usage";
  std::string temp = Path + ".tmp";
  int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    Error = "cannot create " + temp + ": " + strerror(errno);
    return;
  }
  void *mapping = MAP_FAILED;
  if (ftruncate(fd, sizeof(UsageRecord)) == 0)
    mapping = mmap(nullptr, sizeof(UsageRecord), PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, 0);
  close(fd);
  if (mapping == MAP_FAILED) {
    Error = "cannot map " + temp + ": " + strerror(errno);
    unlink(temp.c_str());
    return;
  }
  UsageRecord *record = new (mapping) UsageRecord;
  record->version = UsageRecord::kVersion;
  record->pid = getpid();
  record->startTime = processStartTime(getpid());
  snprintf(record->name, sizeof(record->name), "%s", processName().c_str());
  record->deviceCount = Config.deviceCount;
  for (uint32_t d = 0; d < kMaxDevices; ++d) {
    record->capacity[d] = d < Config.deviceCount ? Config.deviceMemoryBytes : 0;
    uint64_t used = Record ? Record->usedBytes[d].load() : 0;
    uint64_t live = Record ? Record->liveAllocations[d].load() : 0;
    record->usedBytes[d].store(used);
    record->liveAllocations[d].store(live);
  }
  // The magic goes in last and the file appears by rename, so a reader never
  // sees a half-initialised record.
  memcpy(record->magic, UsageRecord::kMagic, sizeof(record->magic));
  if (rename(temp.c_str(), Path.c_str()) != 0) {
    Error = "cannot publish " + Path + ": " + strerror(errno);
    unlink(temp.c_str());
  }
  if (Record)
    munmap(Record, sizeof(UsageRecord));
  Record = record;
}

void ProcessRegistry::add(uint32_t device, uint64_t bytes) {
  if (Record && device < kMaxDevices) {
    Record->usedBytes[device].fetch_add(bytes, std::memory_order_relaxed);
    Record->liveAllocations[device].fetch_add(1, std::memory_order_relaxed);
  }
}

void ProcessRegistry::remove(uint32_t device, uint64_t bytes) {
  if (Record && device < kMaxDevices) {
    Record->usedBytes[device].fetch_sub(bytes, std::memory_order_relaxed);
    Record->liveAllocations[device].fetch_sub(1, std::memory_order_relaxed);
  }
}

void ProcessRegistry::reopenAfterFork() {
  // The inherited mapping is shared with the parent: copy the counters into a
  // record of our own before writing anything.
  if (!Record)
    return;
  Error.clear();
  open();
}

void ProcessRegistry::unpublish() {
  if (Record && Record->pid == getpid() && !Path.empty())
    unlink(Path.c_str());
  Path.clear();
}

std::vector<ProcessUsage> ProcessRegistry::readAll(const std::string &runDir) {
  std::vector<ProcessUsage> result;
  DIR *dir = opendir(runDir.c_str());
  if (!dir)
    return result;
  while (struct dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    const std::string suffix = ".usage";
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    std::string path = runDir + "/" + name;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    struct stat st;
    void *mapping = MAP_FAILED;
    if (fstat(fd, &st) == 0 &&
        static_cast<size_t>(st.st_size) == sizeof(UsageRecord))
      mapping =
          mmap(nullptr, sizeof(UsageRecord), PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (mapping == MAP_FAILED)
      continue;
    const UsageRecord *record = static_cast<const UsageRecord *>(mapping);
    if (memcmp(record->magic, UsageRecord::kMagic, sizeof(record->magic)) ==
            0 &&
        record->version == UsageRecord::kVersion) {
      bool alive = (kill(record->pid, 0) == 0 || errno == EPERM) &&
                   processStartTime(record->pid) == record->startTime;
      if (!alive) {
        unlink(path.c_str());
      } else {
        ProcessUsage usage;
        usage.pid = record->pid;
        usage.name.assign(record->name,
                          strnlen(record->name, sizeof(record->name)));
        usage.deviceCount = record->deviceCount < kMaxDevices
                                ? record->deviceCount
                                : kMaxDevices;
        for (uint32_t d = 0; d < usage.deviceCount; ++d) {
          usage.capacity.push_back(record->capacity[d]);
          usage.usedBytes.push_back(record->usedBytes[d].load());
          usage.liveAllocations.push_back(record->liveAllocations[d].load());
        }
        result.push_back(std::move(usage));
      }
    }
    munmap(mapping, sizeof(UsageRecord));
  }
  closedir(dir);
  std::sort(result.begin(), result.end(),
            [](const ProcessUsage &a, const ProcessUsage &b) {
              return a.pid < b.pid;
            });
  return result;
}

} // namespace mssim
