//===- process_registry.h - Memory use across processes ---------*- C++ -*-===//
//
// Contract: every process that opens a simulated device publishes one small
// record, `<runDir>/<pid>.usage`, a shared mapping whose counters it updates on
// every driver-level allocation and free. npu-smi (or any reader) lists the
// records of live processes; a record whose process is gone (killed, crashed)
// is recognised by its pid and start time and removed by the reader.
//
// The record layout is versioned (UsageRecord::kVersion) and fixed-size; all
// counters are lock-free atomics, so writers never block.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HAL_PROCESS_REGISTRY_H
#define MSSIM_HAL_PROCESS_REGISTRY_H

#include "sim_config.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace mssim {

struct UsageRecord {
  static constexpr char kMagic[8] = {'M', 'S', 'S', 'I', 'M', 'P', 'R', '1'};
  static constexpr uint32_t kVersion = 1;

  char magic[8];
  uint32_t version;
  int32_t pid;
  uint64_t startTime; // field 22 of /proc/<pid>/stat, to detect pid reuse
  char name[64];
  uint32_t deviceCount;
  uint32_t reserved;
  uint64_t capacity[kMaxDevices];
  std::atomic<uint64_t> usedBytes[kMaxDevices];
  std::atomic<uint64_t> liveAllocations[kMaxDevices];
};
static_assert(std::atomic<uint64_t>::is_always_lock_free,
              "shared counters must be lock-free");

/// What a reader sees of one live process.
struct ProcessUsage {
  int pid = 0;
  std::string name;
  uint32_t deviceCount = 0;
  std::vector<uint64_t> capacity;
  std::vector<uint64_t> usedBytes;
  std::vector<uint64_t> liveAllocations;
};

class ProcessRegistry {
public:
  /// Opens (creating if needed) this process's record in config.runDir. On
  /// failure the registry is inert and `error()` says why; the device still
  /// works.
  explicit ProcessRegistry(const SimConfig &config);
  ~ProcessRegistry();
  ProcessRegistry(const ProcessRegistry &) = delete;
  ProcessRegistry &operator=(const ProcessRegistry &) = delete;

  void add(uint32_t device, uint64_t bytes);
  void remove(uint32_t device, uint64_t bytes);
  /// After fork(): the child publishes its own record, starting from the
  /// counters it inherited.
  void reopenAfterFork();
  /// Removes this process's record (at exit); counters stay usable.
  void unpublish();
  const std::string &error() const { return Error; }
  const std::string &path() const { return Path; }

  /// Records of live processes in `runDir`, by pid. Records of dead processes
  /// are deleted; unreadable or foreign files are skipped.
  static std::vector<ProcessUsage> readAll(const std::string &runDir);
  /// Start time of `pid` from /proc, 0 if the process does not exist.
  static uint64_t processStartTime(int pid);

private:
  void open();

  SimConfig Config;
  UsageRecord *Record = nullptr;
  std::string Path;
  std::string Error;
};

} // namespace mssim

#endif
