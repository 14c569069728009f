//===- AclMemoryTest.cpp - the ACL memory families on the driver ----------===//
#include "AclTestSupport.h"
#include "acl/acl.h"
#include "acl/dvpp/hi_dvpp.h"
#include "acl/ops/acl_dvpp.h"
#include "driver/ascend_hal.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

class AclMemory : public AclTest {
protected:
  void SetUp() override {
    AclTest::SetUp();
    Baseline = deviceBytesInUse();
  }
  void TearDown() override {
    EXPECT_EQ(deviceBytesInUse(), Baseline) << "the test released everything";
    AclTest::TearDown();
  }
  static uint32_t memType(const void *p) {
    DVattribute attr;
    EXPECT_EQ(drvMemGetAttribute(reinterpret_cast<DVdeviceptr>(p), &attr),
              DRV_ERROR_NONE);
    return attr.memType;
  }
  size_t Baseline = 0;
};

} // namespace

TEST_F(AclMemory, DeviceAllocationsArePaddedAtTheDriver) {
  struct {
    size_t request, driverBytes;
  } cases[] = {{1, 64}, {32, 64}, {33, 96}, {32768, 32800}, {1000, 1056}};
  for (auto c : cases) {
    void *p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, c.request, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    EXPECT_EQ(deviceBytesInUse() - Baseline, (c.driverBytes + 511) / 512 * 512)
        << c.request;
    EXPECT_EQ(memType(p), static_cast<uint32_t>(DV_MEM_LOCK_DEV));
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
}

TEST_F(AclMemory, EveryDeviceAllocatorPairsWithAclrtFree) {
  void *p[4] = {};
  aclrtMallocConfig cfg = {nullptr, 0};
  ASSERT_EQ(aclrtMalloc(&p[0], 100, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocAlign32(&p[1], 100, ACL_MEM_MALLOC_HUGE_ONLY),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocCached(&p[2], 100, ACL_MEM_MALLOC_HUGE_FIRST_P2P),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocWithCfg(&p[3], 100, ACL_MEM_TYPE_HIGH_BAND_WIDTH, &cfg),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeWithDevSync(p[1]), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p[2]), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeWithDevSync(p[3]), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p[3]), ACL_ERROR_RT_MEMORY_FREE);
}

TEST_F(AclMemory, HostPinnedMemoryIsHostMemory) {
  void *host = nullptr, *other = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHostWithCfg(&other, 4096, nullptr), ACL_SUCCESS);
  memset(host, 7, 4096);
  EXPECT_EQ(memType(host), static_cast<uint32_t>(DV_MEM_LOCK_HOST));
  EXPECT_EQ(deviceBytesInUse(), Baseline)
      << "pinned host memory is not device memory";
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(device, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(other, 4096, device, 4096, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(memcmp(host, other, 4096), 0);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHostWithDevSync(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_RT_MEMORY_FREE);
}

TEST_F(AclMemory, DvppMemoryThroughBothApis) {
  void *acl = nullptr, *mpi = nullptr;
  ASSERT_EQ(acldvppMalloc(&acl, 1000), ACL_SUCCESS);
  ASSERT_EQ(hi_mpi_dvpp_malloc(0, &mpi, 1000), HI_SUCCESS);
  EXPECT_EQ(memType(acl), static_cast<uint32_t>(DV_MEM_LOCK_DEV_DVPP));
  EXPECT_EQ(memType(mpi), static_cast<uint32_t>(DV_MEM_LOCK_DEV_DVPP));
  EXPECT_EQ(deviceBytesInUse() - Baseline, 2048u);
  EXPECT_EQ(hi_mpi_dvpp_malloc(0, nullptr, 10), (hi_s32)HI_ERR_VPC_NULL_PTR);
  EXPECT_EQ(hi_mpi_dvpp_malloc(0, &mpi, 0), (hi_s32)HI_ERR_VPC_ILLEGAL_PARAM);
  EXPECT_EQ(acldvppFree(acl), ACL_SUCCESS);
  EXPECT_EQ(hi_mpi_dvpp_free(mpi), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_dvpp_free(mpi), (hi_s32)HI_ERR_VPC_ILLEGAL_PARAM);
  EXPECT_EQ(acldvppMalloc(&acl, 0), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclMemory, DvppMemoryWithAConfiguration) {
  void *dvpp = nullptr;
  ASSERT_EQ(
      acldvppMallocWithCfg(&dvpp, 1000, ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
      ACL_SUCCESS);
  EXPECT_EQ(memType(dvpp), static_cast<uint32_t>(DV_MEM_LOCK_DEV_DVPP));
  EXPECT_EQ(deviceBytesInUse() - Baseline, 1024u) << "not padded as GM is";
  EXPECT_EQ(acldvppMallocWithCfg(
                &dvpp, 64, static_cast<aclrtMemMallocPolicy>(0x77), nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      acldvppMallocWithCfg(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppFree(dvpp), ACL_SUCCESS);
}

TEST_F(AclMemory, HostRegistrationGivesADeviceView) {
  std::vector<int> host(1024, 5);
  void *view = nullptr, *device = nullptr;
  ASSERT_EQ(
      aclrtHostRegister(host.data(), 4096, ACL_HOST_REGISTER_MAPPED, &view),
      ACL_SUCCESS);
  EXPECT_EQ(memType(view), static_cast<uint32_t>(DV_MEM_SVM_DEVICE));
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, 4096, 0, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(view, 4096, device, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(host[100], 0) << "the device wrote through the registration";
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(host.data()), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(host.data()),
            ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

TEST_F(AclMemory, VirtualMemoryReservePhysicalMap) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t granularity = 0;
  ASSERT_EQ(aclrtMemGetAllocationGranularity(
                &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
            ACL_SUCCESS);
  EXPECT_EQ(granularity, 2u << 20);
  void *va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(&va, 1000, 0, nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtReserveMemAddress(&va, 2 * granularity, 0, nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocPhysical(&handle, granularity, &prop, 0), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse() - Baseline, granularity);
  ASSERT_EQ(aclrtMapMem(static_cast<char *>(va) + granularity, granularity, 0,
                        handle, 0),
            ACL_SUCCESS);
  void *mapped = static_cast<char *>(va) + granularity;
  std::vector<char> out(4096, 'v'), back(4096);
  EXPECT_EQ(aclrtMemcpy(mapped, granularity, out.data(), 4096,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemcpy(back.data(), 4096, mapped, 4096, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(back, out);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_MEMORY_FREE)
      << "still mapped";
  // Released while mapped, as the real driver allows: the mapping keeps the
  // memory until it is unmapped; the handle is gone.
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtMemcpy(back.data(), 4096, mapped, 4096, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse() - Baseline, granularity);
  EXPECT_EQ(aclrtUnmapMem(mapped), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnmapMem(mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(deviceBytesInUse(), Baseline) << "freed with its last mapping";
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclMemory, CopyKindMustMatchThePointers) {
  void *device = nullptr;
  char host[64] = {};
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(device, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(host, 64, device, 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(host, 64, host + 1, 32, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(device, 64, host, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(host, 64, device, 64, static_cast<aclrtMemcpyKind>(42)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(device, 32, 0, 64), ACL_ERROR_INVALID_PARAM)
      << "count > maxCount";
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclMemory, WithoutADeviceAllocationsFail) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(acldvppMalloc(&p, 64), ACL_ERROR_RT_CONTEXT_NULL);
  size_t free = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total),
            ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(AclMemory, HugeCountsFailAsTheRealCallsDo) {
  // count > destMax is ACL_ERROR_INVALID_PARAM; a count no allocation holds
  // (p + count wrapping around the address space included) is the
  // runtime's ACL_ERROR_RT_PARAM_INVALID, never a copy, a hang or success.
  void *device = nullptr, *other = nullptr, *pinned = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  char host[64] = {};
  char *inside = static_cast<char *>(device) + 4000;
  auto huge = [](const void *p) {
    uintptr_t at = reinterpret_cast<uintptr_t>(p);
    return std::vector<size_t>{SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - at + 1,
                               size_t{1} << 63};
  };
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  for (void *to : {device, static_cast<void *>(inside)})
    for (size_t count : huge(to)) {
      SCOPED_TRACE(testing::Message() << to << " count " << count);
      EXPECT_EQ(aclrtMemset(to, SIZE_MAX, 0, count),
                ACL_ERROR_RT_PARAM_INVALID);
      EXPECT_EQ(aclrtMemset(to, count - 1, 0, count), ACL_ERROR_INVALID_PARAM);
      EXPECT_EQ(aclrtMemsetAsync(to, count - 1, 0, count, stream),
                ACL_ERROR_INVALID_PARAM);
      EXPECT_EQ(aclrtMemsetAsync(to, SIZE_MAX, 0, count, stream), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID)
          << "the device's error, when the stream gets there";
      struct Copy {
        void *dst;
        const void *src;
        aclrtMemcpyKind kind;
      };
      for (Copy copy : {Copy{to, host, ACL_MEMCPY_HOST_TO_DEVICE},
                        Copy{to, pinned, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE},
                        Copy{host, to, ACL_MEMCPY_DEVICE_TO_HOST},
                        Copy{pinned, to, ACL_MEMCPY_DEVICE_TO_HOST},
                        Copy{to, other, ACL_MEMCPY_DEVICE_TO_DEVICE},
                        Copy{other, to, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE},
                        Copy{to, to, ACL_MEMCPY_DEVICE_TO_DEVICE},
                        Copy{to, host, ACL_MEMCPY_DEFAULT}}) {
        SCOPED_TRACE(testing::Message() << "kind " << copy.kind);
        EXPECT_EQ(aclrtMemcpy(copy.dst, SIZE_MAX, copy.src, count, copy.kind),
                  ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_EQ(aclrtMemcpy(copy.dst, count - 1, copy.src, count, copy.kind),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(aclrtMemcpyAsync(copy.dst, count - 1, copy.src, count,
                                   copy.kind, stream),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(aclrtMemcpyAsync(copy.dst, SIZE_MAX, copy.src, count,
                                   copy.kind, stream),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
      }
    }
  // Host to host: the range of host memory wraps, or runs past pinned memory.
  for (void *to : {static_cast<void *>(host), pinned})
    for (size_t count :
         {SIZE_MAX, SIZE_MAX - reinterpret_cast<uintptr_t>(to) + 1}) {
      EXPECT_EQ(aclrtMemcpy(to, SIZE_MAX, host, count, ACL_MEMCPY_HOST_TO_HOST),
                ACL_ERROR_RT_PARAM_INVALID);
      EXPECT_EQ(aclrtMemcpy(host, SIZE_MAX, to, count, ACL_MEMCPY_HOST_TO_HOST),
                ACL_ERROR_RT_PARAM_INVALID);
      EXPECT_EQ(aclrtMemset(to, SIZE_MAX, 0, count),
                ACL_ERROR_RT_PARAM_INVALID);
    }
  EXPECT_EQ(aclrtMemcpy(host, 64, static_cast<char *>(pinned) + 1, 64,
                        ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  // Two-dimensional copies: rows that wrap round to the buffer are no copy.
  EXPECT_EQ(aclrtMemcpy2d(device, size_t{1} << 63, host, 64, 64, 3,
                          ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy2dAsync(host, 64, device, size_t{1} << 63, 64, 3,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy2d(device, SIZE_MAX, host, SIZE_MAX, 64, 2,
                          ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  // What fits still works, up to the end of the block.
  EXPECT_EQ(aclrtMemset(inside, 96, 7, 96), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(host, 64, inside, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(host[63], 7);
  // Four rows of 16 bytes, 16 apart: the whole of host[], no more.
  EXPECT_EQ(
      aclrtMemcpy2d(device, 64, host, 16, 16, 4, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

// IPC memory by key: the exporter allows the importer, each import and
// the export are closed once each (imports first, as the real runtime
// takes them), and what the simulation cannot do -- another process's
// memory -- fails as not supported.
TEST_F(AclMemory, IpcMemoryIsSharedByKey) {
  void *memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char key[65];
  EXPECT_EQ(aclrtIpcMemGetExportKey(memory, 256, key, 64, 0),
            ACL_ERROR_INVALID_PARAM)
      << "a key needs 65 bytes";
  EXPECT_EQ(aclrtIpcMemGetExportKey(memory, 4096, key, sizeof(key), 0),
            ACL_ERROR_INVALID_PARAM)
      << "the range runs past the allocation";
  ASSERT_EQ(aclrtIpcMemGetExportKey(memory, 256, key, sizeof(key), 0),
            ACL_SUCCESS);
  EXPECT_LT(strlen(key), sizeof(key));
  void *imported = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_INVALID_PARAM)
      << "pid validation: this process is not allowed yet";
  int32_t pid = 0;
  ASSERT_EQ(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_SUCCESS);
  EXPECT_EQ(imported, memory);
  void *again = nullptr;
  ASSERT_EQ(aclrtIpcMemImportByKey(&again, key, 0), ACL_SUCCESS);
  // Two imports and the export: three closes, then the key is gone.
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemImportByKey(&again, key, 0), ACL_SUCCESS)
      << "the export is still open";
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemImportByKey(&again, key, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemClose(nullptr), ACL_ERROR_INVALID_PARAM);
  // Another process's key, and memory freed under its key.
  EXPECT_EQ(aclrtIpcMemImportByKey(&again, "mssim-ipc-memory-1-1", 0),
            ACL_ERROR_API_NOT_SUPPORT);
  ASSERT_EQ(aclrtIpcMemGetExportKey(
                memory, 256, key, sizeof(key),
                ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemImportByKey(&again, key, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
}
