//===- DriverApiTest.cpp - libascend_hal.so through its C interface -------===//
#include "driver/ascend_hal.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace {

constexpr uintptr_t kDevice0 = 0x124080000000ULL;
constexpr uintptr_t kDevice1 = kDevice0 + (1ULL << 40);

uintptr_t address(void *p) { return reinterpret_cast<uintptr_t>(p); }
DVdeviceptr dv(const void *p) { return reinterpret_cast<DVdeviceptr>(p); }

uint64_t freeBytes(int device) {
  MemInfo info;
  EXPECT_EQ(halMemGetInfo(device, MEM_INFO_TYPE_HBM_SIZE, &info),
            DRV_ERROR_NONE);
  return info.phy_info.free;
}

} // namespace

TEST(DriverApi, DeviceMemoryLivesInTheGmRangeOfItsDevice) {
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(halMemAlloc(&a, 4096, MEM_DEV | 0), DRV_ERROR_NONE);
  ASSERT_EQ(halMemAlloc(&b, 4096, MEM_DEV | 1), DRV_ERROR_NONE);
  EXPECT_GE(address(a), kDevice0);
  EXPECT_LT(address(a), kDevice0 + (32ULL << 30));
  EXPECT_GE(address(b), kDevice1);
  EXPECT_LT(address(b), kDevice1 + (32ULL << 30));
  EXPECT_EQ(halMemFree(a), DRV_ERROR_NONE);
  EXPECT_EQ(halMemFree(b), DRV_ERROR_NONE);
}

TEST(DriverApi, UsageFollowsAllocationsRoundedTo512Bytes) {
  uint64_t before = freeBytes(0);
  void *p = nullptr;
  ASSERT_EQ(halMemAlloc(&p, 1000, MEM_DEV), DRV_ERROR_NONE);
  EXPECT_EQ(before - freeBytes(0), 1024u);
  ASSERT_EQ(halMemFree(p), DRV_ERROR_NONE);
  EXPECT_EQ(freeBytes(0), before);
}

TEST(DriverApi, CopiesAndSetsThroughTheDriver) {
  void *device = nullptr;
  ASSERT_EQ(halMemAlloc(&device, 256, MEM_DEV), DRV_ERROR_NONE);
  char out[256], back[256];
  for (int i = 0; i < 256; ++i)
    out[i] = static_cast<char>(i);
  EXPECT_EQ(drvMemcpy(dv(device), 256, dv(out), 256), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(dv(back), 256, dv(device), 256), DRV_ERROR_NONE);
  EXPECT_EQ(memcmp(out, back, 256), 0);
  EXPECT_EQ(drvMemsetD8(dv(device), 256, 0xAB, 16), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(dv(back), 256, dv(device), 16), DRV_ERROR_NONE);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(static_cast<unsigned char>(back[i]), 0xABu);
  EXPECT_EQ(drvMemcpy(dv(back), 16, dv(device), 17), DRV_ERROR_INVALID_VALUE)
      << "count > destMax";
  EXPECT_EQ(drvMemcpy(dv(back), 4096, dv(device), 4096),
            DRV_ERROR_INVALID_VALUE)
      << "past the block";
  ASSERT_EQ(halMemFree(device), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(dv(back), 16, dv(device), 16), DRV_ERROR_INVALID_VALUE)
      << "freed";
}

TEST(DriverApi, HostDereferenceOfDeviceMemoryFaults) {
  void *device = nullptr;
  ASSERT_EQ(halMemAlloc(&device, 64, MEM_DEV), DRV_ERROR_NONE);
  EXPECT_EXIT(
      {
        *static_cast<volatile int *>(device) = 1;
        _exit(0);
      },
      ::testing::KilledBySignal(SIGSEGV), "");
  halMemFree(device);
}

TEST(DriverApi, HostMemoryIsHostAccessibleAndTyped) {
  void *host = nullptr;
  ASSERT_EQ(halMemAlloc(&host, 100, MEM_HOST), DRV_ERROR_NONE);
  memset(host, 1, 100);
  DVattribute attr;
  ASSERT_EQ(drvMemGetAttribute(dv(host), &attr), DRV_ERROR_NONE);
  EXPECT_EQ(attr.memType, static_cast<UINT32>(DV_MEM_LOCK_HOST));
  EXPECT_EQ(halMemFree(host), DRV_ERROR_NONE);
  ASSERT_EQ(drvMemGetAttribute(dv(host), &attr), DRV_ERROR_NONE);
  EXPECT_EQ(attr.memType, 0u);
}

TEST(DriverApi, AttributesNameTheKindOfDeviceMemory) {
  void *dev = nullptr, *dvpp = nullptr;
  ASSERT_EQ(halMemAlloc(&dev, 64, MEM_DEV | 1), DRV_ERROR_NONE);
  ASSERT_EQ(halMemAlloc(&dvpp, 64, MEM_DVPP), DRV_ERROR_NONE);
  DVattribute attr;
  drvMemGetAttribute(dv(static_cast<char *>(dev) + 10), &attr);
  EXPECT_EQ(attr.memType, static_cast<UINT32>(DV_MEM_LOCK_DEV))
      << "interior pointers too";
  EXPECT_EQ(attr.devId, 1u);
  drvMemGetAttribute(dv(dvpp), &attr);
  EXPECT_EQ(attr.memType, static_cast<UINT32>(DV_MEM_LOCK_DEV_DVPP));
  halMemFree(dev);
  halMemFree(dvpp);
}

TEST(DriverApi, BadArgumentsReturnDriverErrors) {
  void *p = nullptr;
  int local = 0;
  EXPECT_EQ(halMemAlloc(nullptr, 64, MEM_DEV), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemAlloc(&p, 0, MEM_DEV), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemAlloc(&p, 64, MEM_DEV | 9), DRV_ERROR_INVALID_DEVICE);
  EXPECT_EQ(halMemAlloc(&p, 64, MEM_HOST_AGENT), DRV_ERROR_INVALID_MALLOC_TYPE);
  EXPECT_EQ(halMemAlloc(&p, 64ULL << 30, MEM_DEV), DRV_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(halMemFree(nullptr), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemFree(&local), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemFree(reinterpret_cast<void *>(kDevice0 + 7 * (1ULL << 40))),
            DRV_ERROR_INVALID_VALUE);
  uint32_t count = 0;
  EXPECT_EQ(drvGetDevNum(&count), DRV_ERROR_NONE);
  EXPECT_EQ(count, 2u);
}

TEST(DriverApi, ReservedAddressesMapPhysicalMemory) {
  void *va = nullptr;
  const size_t granule = 2 << 20; // the simulated driver's granularity
  EXPECT_EQ(halMemAddressReserve(&va, granule + 1, 0, nullptr, 0),
            DRV_ERROR_INVALID_VALUE);
  ASSERT_EQ(halMemAddressReserve(&va, 2 * granule, 0, nullptr, 0),
            DRV_ERROR_NONE);
  EXPECT_EQ(address(va) % granule, 0u);
  drv_mem_prop prop = {};
  prop.side = MEM_DEV_SIDE;
  drv_mem_handle_t *handle = nullptr;
  uint64_t before = freeBytes(0);
  ASSERT_EQ(halMemCreate(&handle, granule, &prop, 0), DRV_ERROR_NONE);
  EXPECT_EQ(before - freeBytes(0), granule)
      << "physical memory is device memory";
  EXPECT_EQ(halMemMap(va, granule, 0, handle, 0), DRV_ERROR_NONE);
  EXPECT_EQ(halMemMap(va, granule, 0, handle, 0), DRV_ERROR_BUSY)
      << "already mapped there";
  const char text[] = "through the mapping";
  char back[sizeof(text)] = {};
  EXPECT_EQ(drvMemcpy(dv(va), granule, dv(text), sizeof(text)), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(dv(back), sizeof(back), dv(va), sizeof(text)),
            DRV_ERROR_NONE);
  EXPECT_STREQ(back, text);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_BUSY) << "still mapped";
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_BUSY) << "still mapped";
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_NONE);
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_INVALID_HANDLE);
  EXPECT_EQ(freeBytes(0), before);
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_NONE);
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_INVALID_VALUE);
}

TEST(DriverApi, ReservationHonoursHintAndAlignment) {
  const size_t granule = 2 << 20; // the simulated driver's granularity
  void *first = nullptr, *aligned = nullptr, *hinted = nullptr;
  ASSERT_EQ(halMemAddressReserve(&first, granule, 0, nullptr, 0),
            DRV_ERROR_NONE);
  ASSERT_EQ(halMemAddressReserve(&aligned, granule, 8 * granule, nullptr, 0),
            DRV_ERROR_NONE);
  EXPECT_EQ(address(aligned) % (8 * granule), 0u);
  void *want = reinterpret_cast<void *>(address(first) + 64 * granule);
  ASSERT_EQ(halMemAddressReserve(&hinted, granule, 0, want, 0), DRV_ERROR_NONE);
  EXPECT_EQ(hinted, want);
  for (void *va : {first, aligned, hinted})
    EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_NONE);
}

TEST(DriverApi, RegisteredHostMemoryIsReachableFromTheDevice) {
  std::vector<char> buffer(8192, 'x');
  void *deviceView = nullptr;
  ASSERT_EQ(halHostRegister(buffer.data(), buffer.size(), HOST_MEM_MAP_DEV, 0,
                            &deviceView),
            DRV_ERROR_NONE);
  EXPECT_NE(deviceView, static_cast<void *>(buffer.data()));
  EXPECT_EQ(halHostRegister(buffer.data() + 100, 10, HOST_MEM_MAP_DEV, 0,
                            &deviceView),
            DRV_ERROR_REPEATED_USERD);
  const char text[] = "written by the device";
  EXPECT_EQ(drvMemcpy(dv(static_cast<char *>(deviceView) + 10), 100, dv(text),
                      sizeof(text)),
            DRV_ERROR_NONE);
  EXPECT_STREQ(buffer.data() + 10, text);
  EXPECT_EQ(halHostUnregister(buffer.data(), 1), DRV_ERROR_NOT_EXIST)
      << "registered on device 0";
  EXPECT_EQ(halHostUnregister(buffer.data(), 0), DRV_ERROR_NONE);
  EXPECT_EQ(halHostUnregister(buffer.data(), 0), DRV_ERROR_NOT_EXIST);
}

TEST(DriverApi, ConcurrentAllocationsAreNeverLostOrShared) {
  uint64_t before = freeBytes(0);
  std::vector<std::thread> threads;
  std::vector<std::vector<void *>> perThread(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &perThread] {
      for (int i = 0; i < 2000; ++i) {
        void *p = nullptr;
        if (halMemAlloc(&p, 512 + (i % 7) * 512, MEM_DEV) == DRV_ERROR_NONE)
          perThread[t].push_back(p);
        if (i % 3 == 0 && !perThread[t].empty()) {
          halMemFree(perThread[t].back());
          perThread[t].pop_back();
        }
      }
    });
  for (auto &thread : threads)
    thread.join();
  std::set<void *> unique;
  size_t total = 0;
  for (auto &pointers : perThread) {
    total += pointers.size();
    unique.insert(pointers.begin(), pointers.end());
  }
  EXPECT_EQ(unique.size(), total) << "no address handed out twice";
  for (auto &pointers : perThread)
    for (void *p : pointers)
      EXPECT_EQ(halMemFree(p), DRV_ERROR_NONE);
  EXPECT_EQ(freeBytes(0), before);
}
