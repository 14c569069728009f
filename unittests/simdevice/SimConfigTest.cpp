//===- SimConfigTest.cpp - environment settings of the simulated device ---===//
#include "sim_config.h"

#include <gtest/gtest.h>

using namespace mssim;

TEST(SimConfig, ParsesByteSizes) {
  EXPECT_EQ(parseByteSize("4096"), 4096u);
  EXPECT_EQ(parseByteSize("64K"), 64u << 10);
  EXPECT_EQ(parseByteSize("512m"), 512u << 20);
  EXPECT_EQ(parseByteSize("32G"), 32ULL << 30);
  EXPECT_EQ(parseByteSize("2GB"), 2ULL << 30);
  EXPECT_FALSE(parseByteSize(""));
  EXPECT_FALSE(parseByteSize("G"));
  EXPECT_FALSE(parseByteSize("12X"));
  EXPECT_FALSE(parseByteSize("-1"));
  EXPECT_FALSE(parseByteSize("1G2"));
  EXPECT_FALSE(parseByteSize("99999999999999999999"));
  EXPECT_FALSE(parseByteSize("99999999999G")) << "overflow after the shift";
}

TEST(SimConfig, DefaultsWhenUnset) {
  std::string warnings;
  SimConfig config =
      SimConfig::fromValues(nullptr, nullptr, nullptr, &warnings);
  EXPECT_EQ(config.deviceCount, kDefaultDeviceCount);
  EXPECT_EQ(config.deviceMemoryBytes, kDefaultDeviceMemory);
  EXPECT_EQ(config.runDir, defaultRunDir());
  EXPECT_TRUE(warnings.empty());
}

TEST(SimConfig, ReadsValidValues) {
  std::string warnings;
  SimConfig config =
      SimConfig::fromValues("4", "1G", "/tmp/somewhere", &warnings);
  EXPECT_EQ(config.deviceCount, 4u);
  EXPECT_EQ(config.deviceMemoryBytes, 1ULL << 30);
  EXPECT_EQ(config.runDir, "/tmp/somewhere");
  EXPECT_TRUE(warnings.empty());
}

TEST(SimConfig, WarnsAndFallsBackOnBadValues) {
  std::string warnings;
  SimConfig config = SimConfig::fromValues("0", "1K", nullptr, &warnings);
  EXPECT_EQ(config.deviceCount, kDefaultDeviceCount);
  EXPECT_EQ(config.deviceMemoryBytes, kDefaultDeviceMemory);
  EXPECT_NE(warnings.find("MSSIM_DEVICE_COUNT='0'"), std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("MSSIM_DEVICE_MEMORY='1K'"), std::string::npos)
      << warnings;

  warnings.clear();
  config = SimConfig::fromValues("9", "300G", nullptr, &warnings);
  EXPECT_EQ(config.deviceCount, kDefaultDeviceCount);
  EXPECT_EQ(config.deviceMemoryBytes, kDefaultDeviceMemory);
  warnings.clear();
  config = SimConfig::fromValues("2K", nullptr, nullptr, &warnings);
  EXPECT_EQ(config.deviceCount, kDefaultDeviceCount)
      << "a count takes no suffix";
  EXPECT_FALSE(warnings.empty());
}

TEST(SimConfig, TheGmBaseMovesWhereAToolNeedsIt) {
  std::string warnings;
  SimConfig config =
      SimConfig::fromValues("1", nullptr, nullptr, &warnings, "0x7e8000000000");
  EXPECT_TRUE(warnings.empty()) << warnings;
  EXPECT_EQ(config.gmBase, 0x7e8000000000ULL);
  // Where real devices are, 2^40 apart with the window 2^39 above the heap;
  // moved, packed: the window right above the heap (32 GiB), the next device
  // right above the window (256 GiB).
  SimConfig real;
  EXPECT_EQ(real.deviceStride(), 1ULL << 40);
  EXPECT_EQ(real.vaWindowOffset(), 1ULL << 39);
  EXPECT_EQ(config.vaWindowOffset(), 32ULL << 30);
  EXPECT_EQ(config.deviceStride(), (32ULL + 256) << 30);
  EXPECT_EQ(SimConfig::fromValues(nullptr, nullptr, nullptr, &warnings).gmBase,
            kDefaultGmBase);
  // Not hexadecimal, not a multiple of 1 GiB, below 4 GiB, or with devices
  // that would end above 2^47 (8 devices from 0x7e8000000000).
  for (const char *bad :
       {"7e8000000000", "0x7e8000001000", "0x1000", "0xzz", "0x800000000000"}) {
    warnings.clear();
    config = SimConfig::fromValues("1", nullptr, nullptr, &warnings, bad);
    EXPECT_EQ(config.gmBase, kDefaultGmBase) << bad;
    EXPECT_NE(warnings.find("MSSIM_GM_BASE='" + std::string(bad) + "'"),
              std::string::npos)
        << warnings;
  }
  warnings.clear();
  config =
      SimConfig::fromValues("8", nullptr, nullptr, &warnings, "0x7e8000000000");
  EXPECT_EQ(config.gmBase, kDefaultGmBase);
  EXPECT_FALSE(warnings.empty());
}
