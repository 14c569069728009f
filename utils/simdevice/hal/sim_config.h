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
//   MSSIM_GM_BASE        where device 0's GM heap starts (default
//                        0x124080000000, as on real devices), hexadecimal
//                        with 0x; a multiple of 1 GiB whose devices' address
//                        ranges end below 2^47; the devices are then packed
//                        (see vaWindowOffset). For tools whose own memory
//                        lies at the default: ThreadSanitizer's shadow does,
//                        and 0x1000000000 with MSSIM_DEVICE_MEMORY=4G is in
//                        its low application range.
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
// Device d's address ranges: its GM heap at gmBase + d * deviceStride(), and
// vaWindowOffset() above that a window of kVaWindowSize for reserved virtual
// addresses and registered host memory. By default the devices sit where
// real ones do, 2^40 apart, each window 2^39 above its heap; a moved base
// packs them (the window right above the heap, the next device right above
// the window), so that they fit a sanitizer's application range.
constexpr uint64_t kDefaultGmBase = 0x124080000000ULL;
constexpr uint64_t kVaWindowSize = 256ULL << 30;
constexpr uint64_t kDefaultDeviceMemory = 32ULL << 30;
constexpr uint32_t kDefaultDeviceCount = 2;

struct SimConfig {
  uint32_t deviceCount = kDefaultDeviceCount;
  uint64_t deviceMemoryBytes = kDefaultDeviceMemory;
  uint64_t gmBase = kDefaultGmBase;
  std::string runDir;

  uint64_t vaWindowOffset() const {
    constexpr uint64_t kGiB = 1ULL << 30;
    return gmBase == kDefaultGmBase
               ? 1ULL << 39
               : (deviceMemoryBytes + kGiB - 1) / kGiB * kGiB;
  }
  uint64_t deviceStride() const {
    return gmBase == kDefaultGmBase ? 1ULL << 40
                                    : vaWindowOffset() + kVaWindowSize;
  }
  /// How far the devices' address ranges reach from gmBase.
  uint64_t deviceRangesBytes() const {
    return (deviceCount - 1) * deviceStride() + vaWindowOffset() +
           kVaWindowSize;
  }

  /// The configuration of this process, read from the environment once.
  static const SimConfig &get();
  /// Builds a configuration from explicit values (null means unset); used by
  /// get() and by tests. Problems are appended to *warnings.
  static SimConfig fromValues(const char *count, const char *memory,
                              const char *runDir, std::string *warnings,
                              const char *gmBase = nullptr);
};

/// Parses "4096", "64K", "512M", "32G" (case-insensitive suffix); nullopt on
/// malformed input or overflow.
std::optional<uint64_t> parseByteSize(const std::string &text);

/// The run directory used when MSSIM_RUN_DIR is unset.
std::string defaultRunDir();

} // namespace mssim

#endif
