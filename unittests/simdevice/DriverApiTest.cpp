//===- DriverApiTest.cpp - libascend_hal.so through its C interface -------===//
#include "driver/ascend_hal.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <set>
#include <sys/mman.h>
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

/// Counts no range at `p` can have: the largest, the largest with which
/// p + count does not wrap, the smallest with which it does, 2^63.
std::vector<size_t> hugeCounts(const void *p) {
  uintptr_t at = reinterpret_cast<uintptr_t>(p);
  return {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - at, SIZE_MAX - at + 1,
          size_t{1} << 63};
}

TEST(DriverApi, HugeCountsFailWithoutWrapping) {
  // Device memory: a heap block (at its start and inside it), physical
  // memory mapped at a reserved address, host memory registered for the
  // device; host memory: pinned (from the driver) and the stack's.
  void *device = nullptr, *pinned = nullptr, *va = nullptr, *view = nullptr;
  const size_t granule = 2 << 20;
  ASSERT_EQ(halMemAlloc(&device, 4096, MEM_DEV), DRV_ERROR_NONE);
  ASSERT_EQ(halMemAlloc(&pinned, 64, MEM_HOST), DRV_ERROR_NONE);
  ASSERT_EQ(halMemAddressReserve(&va, granule, 0, nullptr, 0), DRV_ERROR_NONE);
  drv_mem_prop prop = {};
  prop.side = MEM_DEV_SIDE;
  drv_mem_handle_t *handle = nullptr;
  ASSERT_EQ(halMemCreate(&handle, granule, &prop, 0), DRV_ERROR_NONE);
  ASSERT_EQ(halMemMap(va, granule, 0, handle, 0), DRV_ERROR_NONE);
  std::vector<char> registered(8192);
  ASSERT_EQ(halHostRegister(registered.data(), registered.size(),
                            HOST_MEM_MAP_DEV, 0, &view),
            DRV_ERROR_NONE);
  char stack[64] = {};
  char *inside = static_cast<char *>(device) + 4000;
  std::vector<const void *> deviceRanges = {device, inside, va, view};
  for (const void *to : deviceRanges)
    for (size_t count : hugeCounts(to)) {
      SCOPED_TRACE(testing::Message() << to << " count " << count);
      EXPECT_EQ(drvMemsetD8(dv(to), SIZE_MAX, 0, count),
                DRV_ERROR_INVALID_VALUE);
      EXPECT_EQ(drvMemsetD8(dv(to), count - 1, 0, count),
                DRV_ERROR_INVALID_VALUE)
          << "count > destMax";
      for (const void *from :
           {static_cast<const void *>(stack), static_cast<const void *>(pinned),
            static_cast<const void *>(device), static_cast<const void *>(va)}) {
        EXPECT_EQ(drvMemcpy(dv(to), SIZE_MAX, dv(from), count),
                  DRV_ERROR_INVALID_VALUE);
        EXPECT_EQ(drvMemcpy(dv(from), SIZE_MAX, dv(to), count),
                  DRV_ERROR_INVALID_VALUE);
      }
    }
  // Host to host: a range that wraps, one that runs on into the devices'
  // ranges, one past the end of pinned memory.
  for (const void *host :
       {static_cast<const void *>(stack), static_cast<const void *>(pinned),
        static_cast<const void *>(registered.data())})
    for (size_t count :
         {SIZE_MAX, SIZE_MAX - reinterpret_cast<uintptr_t>(host) + 1}) {
      SCOPED_TRACE(testing::Message() << host << " count " << count);
      EXPECT_EQ(drvMemsetD8(dv(host), SIZE_MAX, 0, count),
                DRV_ERROR_INVALID_VALUE);
      EXPECT_EQ(drvMemcpy(dv(host), SIZE_MAX, dv(stack), count),
                DRV_ERROR_INVALID_VALUE);
      EXPECT_EQ(drvMemcpy(dv(stack), SIZE_MAX, dv(host), count),
                DRV_ERROR_INVALID_VALUE);
    }
  const size_t below = 16 * 4096; // host memory right below device 0's range
  void *low = mmap(reinterpret_cast<void *>(kDevice0 - below), below,
                   PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_EQ(low, reinterpret_cast<void *>(kDevice0 - below));
  EXPECT_EQ(drvMemsetD8(dv(low), below, 3, below), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemsetD8(dv(low), below + 1, 3, below + 1),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemsetD8(dv(low), SIZE_MAX, 3, SIZE_MAX - address(low)),
            DRV_ERROR_INVALID_VALUE)
      << "no wrap, but through the devices' ranges";
  munmap(low, below);
  EXPECT_EQ(drvMemsetD8(dv(pinned), 65, 0, 65), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemcpy(dv(stack), 64, dv(static_cast<char *>(pinned) + 1), 64),
            DRV_ERROR_INVALID_VALUE);
  // What fits still copies: a whole block (its padding included), a whole
  // mapping, all of pinned memory.
  std::vector<char> big(granule, 'v');
  EXPECT_EQ(drvMemsetD8(dv(device), 4096, 1, 4096), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemsetD8(dv(inside), 96, 1, 96), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemsetD8(dv(inside), 97, 1, 97), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemcpy(dv(va), granule, dv(big.data()), granule),
            DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(dv(va), granule + 1, dv(big.data()), granule + 1),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemsetD8(dv(pinned), 64, 2, 64), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(dv(stack), 64, dv(pinned), 64), DRV_ERROR_NONE);
  EXPECT_EQ(stack[63], 2);
  EXPECT_EQ(
      drvMemcpy(dv(static_cast<char *>(view) + 8000), 192, dv(big.data()), 192),
      DRV_ERROR_NONE);
  EXPECT_EQ(
      drvMemcpy(dv(static_cast<char *>(view) + 8000), 193, dv(big.data()), 193),
      DRV_ERROR_INVALID_VALUE);

  EXPECT_EQ(halHostUnregister(registered.data(), 0), DRV_ERROR_NONE);
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_NONE);
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_NONE);
  EXPECT_EQ(halMemFree(pinned), DRV_ERROR_NONE);
  EXPECT_EQ(halMemFree(device), DRV_ERROR_NONE);
}

TEST(DriverApi, TwoDimensionalCopiesWhoseRowsWrapFail) {
  void *device = nullptr;
  ASSERT_EQ(halMemAlloc(&device, 4096, MEM_DEV), DRV_ERROR_NONE);
  char host[256] = {};
  auto copy2d = [&](void *dst, unsigned long long dpitch, void *src,
                    unsigned long long spitch, unsigned long long width,
                    unsigned long long height) {
    MEMCPY2D request = {};
    request.type = DEVMM_MEMCPY2D_SYNC;
    request.copy2d.dst = static_cast<unsigned long long *>(dst);
    request.copy2d.dpitch = dpitch;
    request.copy2d.src = static_cast<unsigned long long *>(src);
    request.copy2d.spitch = spitch;
    request.copy2d.width = width;
    request.copy2d.height = height;
    return halMemcpy2D(&request);
  };
  EXPECT_EQ(copy2d(device, 64, host, 64, 64, 4), DRV_ERROR_NONE);
  // Row 2 would start at device + 2^64, back at the start of the block.
  EXPECT_EQ(copy2d(device, 1ULL << 63, host, 64, 64, 3),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(copy2d(host, 64, device, 1ULL << 63, 64, 3),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(copy2d(device, 64, host, 64, 64, SIZE_MAX),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(copy2d(device, SIZE_MAX, host, SIZE_MAX, 64, 2),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemFree(device), DRV_ERROR_NONE);
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
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_BUSY) << "still mapped";
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_NONE);
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_INVALID_HANDLE);
  EXPECT_EQ(freeBytes(0), before);
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_NONE);
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_INVALID_VALUE);
}

// A handle's references, as hicann/driver counts them (svm_vmm.c: "create
// and import is 1, map and retain +1, unmap and release -1"): released
// while mapped, the memory stays until the unmap; a retain is one more
// release; an import shares the exporter's memory, which lives while the
// import does.
TEST(DriverApi, PhysicalMemoryIsReferenceCounted) {
  const size_t granule = 2 << 20;
  void *va = nullptr;
  ASSERT_EQ(halMemAddressReserve(&va, 2 * granule, 0, nullptr, 0),
            DRV_ERROR_NONE);
  drv_mem_prop prop = {};
  prop.side = MEM_DEV_SIDE;
  uint64_t before = freeBytes(0);
  drv_mem_handle_t *handle = nullptr, *retained = nullptr;
  ASSERT_EQ(halMemCreate(&handle, granule, &prop, 0), DRV_ERROR_NONE);
  ASSERT_EQ(halMemMap(va, granule, 0, handle, 0), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRetainAllocationHandle(&retained, nullptr),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemRetainAllocationHandle(&retained,
                                         static_cast<char *>(va) + granule),
            DRV_ERROR_PARA_ERROR)
      << "not mapped";
  ASSERT_EQ(
      halMemRetainAllocationHandle(&retained, static_cast<char *>(va) + 100),
      DRV_ERROR_NONE);
  EXPECT_EQ(retained, handle) << "the handle the mapping stands on";
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_NONE) << "the retain's";
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_INVALID_HANDLE);
  EXPECT_EQ(before - freeBytes(0), granule) << "mapped still";
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_NONE);
  EXPECT_EQ(freeBytes(0), before);

  // Exported once; imported by an allowed process (this one).
  drv_mem_handle_t *imported = nullptr;
  uint64_t shareable = 0;
  ASSERT_EQ(halMemCreate(&handle, granule, &prop, 0), DRV_ERROR_NONE);
  EXPECT_EQ(halMemExportToShareableHandle(handle, MEM_HANDLE_TYPE_FABRIC, 0,
                                          &shareable),
            DRV_ERROR_INVALID_VALUE);
  ASSERT_EQ(halMemExportToShareableHandle(handle, MEM_HANDLE_TYPE_NONE, 0,
                                          &shareable),
            DRV_ERROR_NONE);
  EXPECT_EQ(shareable >> 32, static_cast<uint64_t>(getpid()));
  uint64_t again = 0;
  EXPECT_EQ(
      halMemExportToShareableHandle(handle, MEM_HANDLE_TYPE_NONE, 0, &again),
      DRV_ERROR_INVALID_VALUE)
      << "exported once";
  EXPECT_EQ(halMemImportFromShareableHandle(shareable, 0, &imported),
            DRV_ERROR_OPER_NOT_PERMITTED);
  int pid = getpid();
  ASSERT_EQ(halMemSetPidToShareableHandle(shareable, &pid, 1), DRV_ERROR_NONE);
  ASSERT_EQ(halMemImportFromShareableHandle(shareable, 0, &imported),
            DRV_ERROR_NONE);
  EXPECT_NE(imported, handle);
  EXPECT_EQ(halMemImportFromShareableHandle(1ULL << 32 | 1, 0, &imported),
            DRV_ERROR_NOT_SUPPORT)
      << "another process's (pid 1)";
  EXPECT_EQ(halMemRelease(handle), DRV_ERROR_NONE);
  EXPECT_EQ(before - freeBytes(0), granule) << "the import holds it";
  ASSERT_EQ(halMemMap(va, granule, 0, imported, 0), DRV_ERROR_NONE);
  const char text[] = "shared";
  EXPECT_EQ(drvMemcpy(dv(va), granule, dv(text), sizeof(text)), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRelease(imported), DRV_ERROR_NONE);
  EXPECT_EQ(halMemRelease(imported), DRV_ERROR_INVALID_HANDLE);
  EXPECT_EQ(halMemUnmap(va), DRV_ERROR_NONE);
  EXPECT_EQ(freeBytes(0), before);
  EXPECT_EQ(halMemImportFromShareableHandle(shareable, 0, &imported),
            DRV_ERROR_INVALID_VALUE)
      << "its memory is gone";
  EXPECT_EQ(halMemAddressFree(va), DRV_ERROR_NONE);
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
