//===- driver.h - The simulated driver's memory -----------------*- C++ -*-===//
//
// Contract: one Driver per process (Driver::instance(), never destroyed, so
// frees from static destructors after main still work). It owns, per device,
//
//   * a GM heap at SimConfig::gmBase + id * deviceStride() ("0x1240800xxxxx"
//     for device 0 by default). The host sees only an inaccessible (PROT_NONE)
//     reservation there, so dereferencing a device pointer faults as on real
//     hardware; the bytes live in a private shadow mapping that only the driver
//     touches;
//   * a virtual-address window (vaWindowOffset() above the heap) for address
//     reservations and for host memory registered for device access.
//
// Host-pinned memory is ordinary host memory the driver records. Every
// operation is thread-safe. Errors are the driver's own drvError_t codes; no
// call ever crashes on a bad pointer or handle.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HAL_DRIVER_H
#define MSSIM_HAL_DRIVER_H

#include "driver/ascend_hal.h"
#include "process_registry.h"
#include "range_allocator.h"
#include "sim_config.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

/// Physical memory (halMemCreate), or an import of another handle's
/// (halMemImportFromShareableHandle). As the real driver counts it, a handle
/// lives while it has holders (its creation or import, and each
/// halMemRetainAllocationHandle; each halMemRelease drops one), mappings or
/// imports: released while mapped, its memory stays until the last unmap.
/// Without holders it is no handle of the application's any more.
struct drv_mem_handle {
  uint32_t device;
  uint64_t heapOffset; // an import's: its source's
  uint64_t size;
  uint32_t mappings = 0;
  uint32_t holders = 1;
  drv_mem_handle *source = nullptr; // an import's: whose memory it is
  uint32_t imports = 0;             // live imports of this handle
  uint64_t shareable = 0;           // its export's, 0 if not exported
  bool validatePid = true;          // whether imports need the pid allowed
  std::set<int> allowed;            // halMemSetPidToShareableHandle's pids
};

namespace mssim {

constexpr uint64_t kHeapAlignment = 512;
/// Granularity of physical memory (halMemCreate) and of reserved address
/// ranges (halMemAddressReserve); the ACL layer's kMemGranularity.
constexpr uint64_t kMemGranularity = 2ULL << 20;
/// The memory type field of a halMemAlloc flag (MEM_VIRT_BIT, MEM_VIRT_WIDTH).
constexpr unsigned long long kMemVirtMask = ((1ULL << MEM_VIRT_WIDTH) - 1)
                                            << MEM_VIRT_BIT;

enum class BlockKind : uint8_t { Device, Dvpp, Physical };

class Driver {
public:
  static Driver &instance();
  /// The driver if this process has used it, else null.
  static Driver *existing();

  drvError_t deviceCount(uint32_t *count) const;
  drvError_t memAlloc(void **pp, uint64_t size, uint64_t flag);
  drvError_t memFree(void *p);
  drvError_t memGetInfo(int32_t device, unsigned type, MemInfo *info);
  drvError_t addressReserve(void **ptr, size_t size, size_t alignment,
                            void *hint, uint64_t flag);
  drvError_t addressFree(void *ptr);
  drvError_t memCreate(drv_mem_handle_t **handle, size_t size,
                       const drv_mem_prop *prop, uint64_t flag);
  drvError_t memRelease(drv_mem_handle_t *handle);
  drvError_t memMap(void *ptr, size_t size, size_t offset,
                    drv_mem_handle_t *handle, uint64_t flag);
  drvError_t memUnmap(void *ptr);
  drvError_t memRetain(drv_mem_handle_t **handle, void *ptr);
  drvError_t memExport(drv_mem_handle_t *handle, drv_mem_handle_type type,
                       uint64_t flags, uint64_t *shareable);
  drvError_t memSetPid(uint64_t shareable, const int *pids, uint32_t count);
  drvError_t memImport(uint64_t shareable, uint32_t device,
                       drv_mem_handle_t **handle);
  drvError_t hostRegister(void *src, uint64_t size, uint32_t flag,
                          uint32_t device, void **dst);
  drvError_t hostUnregister(void *src, uint32_t device);
  drvError_t memAttribute(uint64_t address, DVattribute *attr);
  drvError_t memcpy(uint64_t dst, size_t destMax, uint64_t src, size_t count);
  drvError_t memset(uint64_t dst, size_t destMax, uint8_t value, size_t count);

  /// Called in the child after fork().
  void afterForkInChild();
  /// Removes this process's npu-smi record (at exit).
  void unpublish();
  void lockForFork() { Mutex.lock(); }
  void unlockForFork() { Mutex.unlock(); }

private:
  struct HeapBlock {
    uint64_t requested;
    uint64_t rounded;
    BlockKind kind;
  };
  struct VaMapping {
    uint64_t size;
    drv_mem_handle *physical; // null for registered host memory
    uint64_t physicalOffset;
    void *host;
  };
  struct Device {
    uint32_t id;
    uintptr_t heapBase;
    uintptr_t vaBase;
    uint8_t *shadow;
    RangeAllocator heap;
    RangeAllocator va;
    std::map<uint64_t, HeapBlock> blocks;       // heap offset -> block
    std::map<uintptr_t, uint64_t> reservations; // VA start -> size
    std::map<uintptr_t, VaMapping> mappings;    // VA start -> mapping
    Device(uint32_t id, uint64_t capacity);
  };
  struct HostBlock {
    uint64_t size;
    uint32_t device;
  };
  struct HostRegistration {
    uint32_t device;
    uintptr_t va;
    uint64_t vaSize;
  };

  Driver();
  Device *openDevice(uint32_t id, drvError_t *error);
  Device *deviceOf(uintptr_t address);
  /// The mapping of `device` that holds `address`, or its mappings' end().
  std::map<uintptr_t, VaMapping>::iterator mappingAt(Device &device,
                                                     uintptr_t address);
  /// Host view of [address, address + length), or null with *error set:
  /// when the range wraps around the address space, when device memory does
  /// not lie inside one live block or mapping, or when host memory
  /// (resolveHost) does not.
  uint8_t *resolve(uintptr_t address, size_t length, drvError_t *error);
  /// resolve() of a range that starts outside the devices' ranges and does
  /// not wrap: null if it runs on into them, or past the end of the pinned
  /// block (HostBlocks) it starts in; other host memory is the caller's.
  uint8_t *resolveHost(uintptr_t address, size_t length, drvError_t *error);
  void releaseBlock(Device &device, uint64_t offset);

  const SimConfig &Config;
  std::mutex Mutex;
  std::unique_ptr<Device> Devices[kMaxDevices];
  std::map<uintptr_t, HostBlock> HostBlocks; // start -> pinned block
  std::map<uintptr_t, HostRegistration>
      HostRegistrations; // host start -> registration
  std::unordered_map<drv_mem_handle *, std::unique_ptr<drv_mem_handle>> Handles;
  /// Exported handles by their shareable handle (the exporting pid in the
  /// high 32 bits, a count in the low).
  std::map<uint64_t, drv_mem_handle *> Shareables;
  uint32_t NextShareable = 0;
  /// A handle of the application's: known and held.
  bool isHeld(drv_mem_handle *handle) const;
  /// Frees `handle` (and its source's memory, for an import) once nothing
  /// holds, maps or imports it.
  void destroyIfUnused(drv_mem_handle *handle);
  std::unique_ptr<ProcessRegistry> Registry;
};

} // namespace mssim

#endif
