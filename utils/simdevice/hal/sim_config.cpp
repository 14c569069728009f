//===- sim_config.cpp - Settings of the simulated CANN device -------------===//
#include "sim_config.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace mssim {

std::optional<uint64_t> parseByteSize(const std::string &text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
    return std::nullopt;
  uint64_t value = 0;
  size_t pos = 0;
  for (;
       pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]));
       ++pos) {
    uint64_t digit = static_cast<uint64_t>(text[pos] - '0');
    if (value > (UINT64_MAX - digit) / 10)
      return std::nullopt;
    value = value * 10 + digit;
  }
  unsigned shift = 0;
  if (pos < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[pos]))) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    default:
      return std::nullopt;
    }
    ++pos;
    if (pos < text.size() &&
        std::toupper(static_cast<unsigned char>(text[pos])) == 'B')
      ++pos;
  }
  if (pos != text.size() || (shift && value > (UINT64_MAX >> shift)))
    return std::nullopt;
  return value << shift;
}

std::string defaultRunDir() {
  struct stat st;
  std::string base =
      (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode)) ? "/dev/shm" : "/tmp";
  return base + "/mssim-" + std::to_string(getuid());
}

SimConfig SimConfig::fromValues(const char *count, const char *memory,
                                const char *runDir, std::string *warnings,
                                const char *gmBase) {
  SimConfig config;
  if (count && *count) {
    std::optional<uint64_t> n = parseByteSize(count);
    if (n && *n >= 1 && *n <= kMaxDevices &&
        std::string(count).find_first_not_of("0123456789") == std::string::npos)
      config.deviceCount = static_cast<uint32_t>(*n);
    else
      *warnings += "mssim: ignoring MSSIM_DEVICE_COUNT='" + std::string(count) +
                   "': expected a number from 1 to " +
                   std::to_string(kMaxDevices) + "; using " +
                   std::to_string(kDefaultDeviceCount) + "\n";
  }
  if (memory && *memory) {
    std::optional<uint64_t> bytes = parseByteSize(memory);
    if (bytes && *bytes >= (1ULL << 20) && *bytes <= (256ULL << 30))
      config.deviceMemoryBytes = *bytes;
    else
      *warnings +=
          "mssim: ignoring MSSIM_DEVICE_MEMORY='" + std::string(memory) +
          "': expected bytes from 1M to 256G (suffix K, M or G); using 32G\n";
  }
  if (gmBase && *gmBase) {
    char *end = nullptr;
    errno = 0;
    unsigned long long base = strtoull(gmBase, &end, 16);
    uint64_t end47 = 1ULL << 47;
    SimConfig moved = config;
    moved.gmBase = base;
    uint64_t span = moved.deviceRangesBytes();
    if (std::string(gmBase).rfind("0x", 0) == 0 && !*end && !errno &&
        base % (1ULL << 30) == 0 && base >= (1ULL << 32) && base < end47 &&
        span <= end47 - base)
      config.gmBase = base;
    else
      *warnings += "mssim: ignoring MSSIM_GM_BASE='" + std::string(gmBase) +
                   "': expected a hexadecimal address (0x...), a multiple of "
                   "1 GiB from 4 GiB on, whose " +
                   std::to_string(config.deviceCount) +
                   " device(s) end below 2^47; using 0x124080000000\n";
  }
  config.runDir = (runDir && *runDir) ? runDir : defaultRunDir();
  return config;
}

const SimConfig &SimConfig::get() {
  static const SimConfig config = [] {
    std::string warnings;
    SimConfig c =
        fromValues(getenv("MSSIM_DEVICE_COUNT"), getenv("MSSIM_DEVICE_MEMORY"),
                   getenv("MSSIM_RUN_DIR"), &warnings, getenv("MSSIM_GM_BASE"));
    if (!warnings.empty())
      fputs(warnings.c_str(), stderr);
    return c;
  }();
  return config;
}

} // namespace mssim
