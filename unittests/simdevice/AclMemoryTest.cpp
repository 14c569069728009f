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
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_RT_MEMORY_FREE)
      << "still mapped";
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_MEMORY_FREE)
      << "still mapped";
  EXPECT_EQ(aclrtUnmapMem(mapped), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnmapMem(mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_INVALID_PARAM);
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
