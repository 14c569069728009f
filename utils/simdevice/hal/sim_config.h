//===- sim_config.h - Settings of the simulated CANN device -----*- C++ -*-===//
//
// Contract: the simulated device is configured only through environment
// variables, read once per process:
//
//   MSSIM_DEVICE_COUNT   number of devices, 1..8 (default 2)
//   MSSIM_DEVICE_MEMORY  capacity of each device, bytes with an optional
//                        K/M/G suffix, 1M..256G (default 32G)
//   MSSIM_RUN_DIR        directory through which processes publish their
//                        device memory use to npu-smi
//                        (default /dev/shm/mssim-<uid>, or /tmp/mssim-<uid>)
//
// A malformed value is reported once on stderr and the default is used.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HAL_SIM_CONFIG_H
#define MSSIM_HAL_SIM_CONFIG_H

#include <cstdint>
#include <optional>
#include <string>

namespace mssim {

constexpr uint32_t kMaxDevices = 8;
constexpr uint64_t kDefaultDeviceMemory = 32ULL << 30;
constexpr uint32_t kDefaultDeviceCount = 2;

struct SimConfig {
  uint32_t deviceCount = kDefaultDeviceCount;
  uint64_t deviceMemoryBytes = kDefaultDeviceMemory;
  std::string runDir;

  /// The configuration of this process, read from the environment once.
  static const SimConfig &get();
  /// Builds a configuration from explicit values (null means unset); used by
  /// get() and by tests. Problems are appended to *warnings.
  static SimConfig fromValues(const char *count, const char *memory,
                              const char *runDir, std::string *warnings);
};

/// Parses "4096", "64K", "512M", "32G" (case-insensitive suffix); nullopt on
/// malformed input or overflow.
std::optional<uint64_t> parseByteSize(const std::string &text);

/// The run directory used when MSSIM_RUN_DIR is unset.
std::string defaultRunDir();

} // namespace mssim

#endif
