//===- driver.cpp - The simulated driver: device memory and address spaces ===//
#include "driver.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace mssim {

namespace {

constexpr uint64_t kReleaseToOsThreshold = 1ULL << 20;

void *mapAt(uintptr_t address, uint64_t size) {
  void *want = reinterpret_cast<void *>(address);
  void *got = mmap(
      want, size, PROT_NONE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (got == MAP_FAILED)
    return nullptr;
  if (got != want) { // kernels before 4.17 treat the flag as a hint
    munmap(got, size);
    return nullptr;
  }
  return got;
}

void forkPrepare() { Driver::instance().lockForFork(); }
void forkParent() { Driver::instance().unlockForFork(); }
void forkChild() {
  Driver::instance().unlockForFork();
  Driver::instance().afterForkInChild();
}

} // namespace

Driver::Device::Device(uint32_t id, uint64_t capacity)
    : id(id),
      heapBase(SimConfig::get().gmBase + id * SimConfig::get().deviceStride()),
      vaBase(heapBase + SimConfig::get().vaWindowOffset()), shadow(nullptr),
      heap(capacity, kHeapAlignment), va(kVaWindowSize, kMemGranularity) {}

static std::atomic<Driver *> Instance{nullptr};

Driver &Driver::instance() {
  // Deliberately leaked: device memory must stay valid for frees that run in
  // static destructors of the application, after ours would have run.
  static Driver *driver = [] {
    Driver *created = new Driver;
    Instance.store(created);
    return created;
  }();
  return *driver;
}

Driver *Driver::existing() { return Instance.load(); }

Driver::Driver() : Config(SimConfig::get()) {
  pthread_atfork(forkPrepare, forkParent, forkChild);
}

Driver::Device *Driver::openDevice(uint32_t id, drvError_t *error) {
  if (id >= Config.deviceCount) {
    *error = DRV_ERROR_INVALID_DEVICE;
    return nullptr;
  }
  if (Devices[id])
    return Devices[id].get();
  auto device = std::make_unique<Device>(id, Config.deviceMemoryBytes);
  void *heap = mapAt(device->heapBase, Config.deviceMemoryBytes);
  void *window = heap ? mapAt(device->vaBase, kVaWindowSize) : nullptr;
  if (!window) {
    int why = errno;
    uintptr_t failed = heap ? device->vaBase : device->heapBase;
    if (heap) // a later call tries again from nothing
      munmap(heap, Config.deviceMemoryBytes);
    fprintf(
        stderr,
        "mssim: cannot reserve the address range of device %u at %#lx: %s\n",
        id, static_cast<unsigned long>(failed), strerror(why));
    *error = DRV_ERROR_NO_DEVICE;
    return nullptr;
  }
  void *shadow = mmap(nullptr, Config.deviceMemoryBytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (shadow == MAP_FAILED) {
    fprintf(stderr, "mssim: cannot back device %u memory: %s\n", id,
            strerror(errno));
    *error = DRV_ERROR_NO_DEVICE;
    return nullptr;
  }
  device->shadow = static_cast<uint8_t *>(shadow);
  if (!Registry) {
    Registry = std::make_unique<ProcessRegistry>(Config);
    if (!Registry->error().empty())
      fprintf(stderr, "mssim: npu-smi will not see this process: %s\n",
              Registry->error().c_str());
  }
  Devices[id] = std::move(device);
  return Devices[id].get();
}

Driver::Device *Driver::deviceOf(uintptr_t address) {
  uint64_t base = Config.gmBase;
  if (address < base || address >= base + Config.deviceRangesBytes())
    return nullptr;
  uint32_t id = static_cast<uint32_t>((address - base) / Config.deviceStride());
  return Devices[id].get();
}

static bool inDeviceRange(uintptr_t address) {
  // Only the configured devices' ranges: with MSSIM_GM_BASE high, the host's
  // own libraries and stacks lie a little above them.
  const SimConfig &config = SimConfig::get();
  return address >= config.gmBase &&
         address < config.gmBase + config.deviceRangesBytes();
}

drvError_t Driver::deviceCount(uint32_t *count) const {
  if (!count)
    return DRV_ERROR_INVALID_VALUE;
  *count = Config.deviceCount;
  return DRV_ERROR_NONE;
}

drvError_t Driver::memAlloc(void **pp, uint64_t size, uint64_t flag) {
  if (!pp || size == 0)
    return DRV_ERROR_INVALID_VALUE;
  uint32_t id = static_cast<uint32_t>(flag & MEM_DEVID_MASK);
  uint64_t type = (flag & kMemVirtMask) >> MEM_VIRT_BIT;
  std::lock_guard<std::mutex> lock(Mutex);
  if (id >= Config.deviceCount)
    return DRV_ERROR_INVALID_DEVICE;
  if (type == MEM_HOST_VAL) {
    void *host = nullptr;
    if (posix_memalign(&host, 64, size) != 0)
      return DRV_ERROR_OUT_OF_MEMORY;
    HostBlocks.emplace(reinterpret_cast<uintptr_t>(host), HostBlock{size, id});
    *pp = host;
    return DRV_ERROR_NONE;
  }
  if (type != MEM_SVM_VAL && type != MEM_DEV_VAL && type != MEM_DVPP_VAL)
    return DRV_ERROR_INVALID_MALLOC_TYPE;
  drvError_t error = DRV_ERROR_NONE;
  Device *device = openDevice(id, &error);
  if (!device)
    return error;
  std::optional<uint64_t> offset = device->heap.allocate(size);
  if (!offset)
    return DRV_ERROR_OUT_OF_MEMORY;
  uint64_t rounded = device->heap.roundUp(size);
  device->blocks.emplace(
      *offset,
      HeapBlock{size, rounded,
                type == MEM_DVPP_VAL ? BlockKind::Dvpp : BlockKind::Device});
  Registry->add(id, rounded);
  *pp = reinterpret_cast<void *>(device->heapBase + *offset);
  return DRV_ERROR_NONE;
}

void Driver::releaseBlock(Device &device, uint64_t offset) {
  auto it = device.blocks.find(offset);
  uint64_t rounded = it->second.rounded;
  device.blocks.erase(it);
  device.heap.release(offset);
  Registry->remove(device.id, rounded);
  // Large blocks give their pages back, as freeing device memory frees HBM.
  if (rounded >= kReleaseToOsThreshold) {
    long page = sysconf(_SC_PAGESIZE);
    uint64_t start = (offset + page - 1) / page * page;
    uint64_t end = (offset + rounded) / page * page;
    if (end > start)
      madvise(device.shadow + start, end - start, MADV_DONTNEED);
  }
}

drvError_t Driver::memFree(void *p) {
  if (!p)
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  uintptr_t address = reinterpret_cast<uintptr_t>(p);
  if (inDeviceRange(address)) {
    Device *device = deviceOf(address);
    if (!device || address < device->heapBase ||
        address >= device->heapBase + device->heap.capacity())
      return DRV_ERROR_INVALID_VALUE;
    auto it = device->blocks.find(address - device->heapBase);
    if (it == device->blocks.end() || it->second.kind == BlockKind::Physical)
      return DRV_ERROR_INVALID_VALUE;
    releaseBlock(*device, it->first);
    return DRV_ERROR_NONE;
  }
  auto host = HostBlocks.find(reinterpret_cast<uintptr_t>(p));
  if (host == HostBlocks.end())
    return DRV_ERROR_INVALID_VALUE;
  HostBlocks.erase(host);
  free(p);
  return DRV_ERROR_NONE;
}

drvError_t Driver::memGetInfo(int32_t id, unsigned type, MemInfo *info) {
  if (!info ||
      (type != MEM_INFO_TYPE_DDR_SIZE && type != MEM_INFO_TYPE_HBM_SIZE))
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  if (id < 0)
    return DRV_ERROR_INVALID_DEVICE;
  drvError_t error = DRV_ERROR_NONE;
  Device *device = openDevice(static_cast<uint32_t>(id), &error);
  if (!device)
    return error;
  ::memset(info, 0, sizeof(*info));
  info->phy_info.total = device->heap.capacity();
  info->phy_info.free = device->heap.capacity() - device->heap.usedBytes();
  info->phy_info.huge_total = info->phy_info.total;
  info->phy_info.huge_free = info->phy_info.free;
  return DRV_ERROR_NONE;
}

drvError_t Driver::addressReserve(void **ptr, size_t size, size_t alignment,
                                  void *hint, uint64_t flag) {
  if (!ptr || size == 0 || size % kMemGranularity != 0 ||
      (alignment != 0 && (alignment % kMemGranularity != 0 ||
                          (alignment & (alignment - 1)) != 0)))
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  drvError_t error = DRV_ERROR_NONE;
  Device *device =
      openDevice(static_cast<uint32_t>(flag & MEM_DEVID_MASK), &error);
  if (!device)
    return error;
  std::optional<uint64_t> offset;
  uintptr_t want = reinterpret_cast<uintptr_t>(hint);
  if (want >= device->vaBase && want < device->vaBase + kVaWindowSize &&
      device->va.allocateAt(want - device->vaBase, size))
    offset = want - device->vaBase;
  if (!offset) {
    // Over-allocate to honour the alignment, then give back the slack.
    uint64_t align = alignment ? alignment : kMemGranularity;
    std::optional<uint64_t> raw =
        device->va.allocate(size + align - kMemGranularity);
    if (!raw)
      return DRV_ERROR_OUT_OF_MEMORY;
    uint64_t aligned =
        (device->vaBase + *raw + align - 1) / align * align - device->vaBase;
    device->va.release(*raw);
    device->va.allocateAt(aligned, size);
    offset = aligned;
  }
  uintptr_t start = device->vaBase + *offset;
  device->reservations.emplace(start, size);
  *ptr = reinterpret_cast<void *>(start);
  return DRV_ERROR_NONE;
}

std::map<uintptr_t, Driver::VaMapping>::iterator
Driver::mappingAt(Device &device, uintptr_t address) {
  auto it = device.mappings.upper_bound(address);
  if (it == device.mappings.begin())
    return device.mappings.end();
  --it;
  return address - it->first < it->second.size ? it : device.mappings.end();
}

drvError_t Driver::addressFree(void *ptr) {
  std::lock_guard<std::mutex> lock(Mutex);
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  Device *device = deviceOf(start);
  if (!device)
    return DRV_ERROR_INVALID_VALUE;
  auto it = device->reservations.find(start);
  if (it == device->reservations.end())
    return DRV_ERROR_INVALID_VALUE;
  auto mapped = device->mappings.lower_bound(start);
  if (mapped != device->mappings.end() && mapped->first < start + it->second)
    return DRV_ERROR_BUSY;
  device->va.release(start - device->vaBase);
  device->reservations.erase(it);
  return DRV_ERROR_NONE;
}

drvError_t Driver::memCreate(drv_mem_handle_t **handle, size_t size,
                             const drv_mem_prop *prop, uint64_t flag) {
  (void)flag;
  if (!handle || !prop || size == 0 || size % kMemGranularity != 0 ||
      prop->side != MEM_DEV_SIDE)
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  drvError_t error = DRV_ERROR_NONE;
  Device *device = openDevice(prop->devid, &error);
  if (!device)
    return error;
  std::optional<uint64_t> offset = device->heap.allocate(size);
  if (!offset)
    return DRV_ERROR_OUT_OF_MEMORY;
  device->blocks.emplace(*offset, HeapBlock{size, device->heap.roundUp(size),
                                            BlockKind::Physical});
  Registry->add(device->id, device->heap.roundUp(size));
  auto object = std::make_unique<drv_mem_handle>();
  object->device = device->id;
  object->heapOffset = *offset;
  object->size = size;
  *handle = object.get();
  Handles.emplace(object.get(), std::move(object));
  return DRV_ERROR_NONE;
}

bool Driver::isHeld(drv_mem_handle *handle) const {
  auto it = Handles.find(handle);
  return it != Handles.end() && it->second->holders > 0;
}

void Driver::destroyIfUnused(drv_mem_handle *handle) {
  if (handle->holders || handle->mappings || handle->imports)
    return;
  drv_mem_handle *source = handle->source;
  if (source)
    --source->imports;
  else
    releaseBlock(*Devices[handle->device], handle->heapOffset);
  if (handle->shareable)
    Shareables.erase(handle->shareable);
  Handles.erase(handle);
  if (source)
    destroyIfUnused(source);
}

drvError_t Driver::memRelease(drv_mem_handle_t *handle) {
  std::lock_guard<std::mutex> lock(Mutex);
  if (!isHeld(handle))
    return DRV_ERROR_INVALID_HANDLE;
  --handle->holders;
  destroyIfUnused(handle);
  return DRV_ERROR_NONE;
}

drvError_t Driver::memRetain(drv_mem_handle_t **handle, void *ptr) {
  if (!handle || !ptr)
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  Device *device = deviceOf(start);
  if (!device)
    return DRV_ERROR_PARA_ERROR;
  // Any address of a mapping, as the driver's documentation has it.
  auto it = mappingAt(*device, start);
  if (it == device->mappings.end() || !it->second.physical)
    return DRV_ERROR_PARA_ERROR;
  ++it->second.physical->holders;
  *handle = it->second.physical;
  return DRV_ERROR_NONE;
}

drvError_t Driver::memExport(drv_mem_handle_t *handle, drv_mem_handle_type type,
                             uint64_t flags, uint64_t *shareable) {
  if (!shareable || type != MEM_HANDLE_TYPE_NONE || (flags & ~1ULL))
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  // Memory is exported once, from the handle that made it.
  if (!isHeld(handle) || handle->source || handle->shareable)
    return DRV_ERROR_INVALID_VALUE;
  handle->shareable = (static_cast<uint64_t>(getpid()) << 32) | ++NextShareable;
  handle->validatePid = !(flags & 1ULL); // the DISABLE_PID_VALIDATION flag
  Shareables.emplace(handle->shareable, handle);
  *shareable = handle->shareable;
  return DRV_ERROR_NONE;
}

drvError_t Driver::memSetPid(uint64_t shareable, const int *pids,
                             uint32_t count) {
  if (!pids || count == 0)
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  auto it = Shareables.find(shareable);
  if (it == Shareables.end())
    return DRV_ERROR_INVALID_VALUE;
  it->second->allowed.insert(pids, pids + count);
  return DRV_ERROR_NONE;
}

drvError_t Driver::memImport(uint64_t shareable, uint32_t device,
                             drv_mem_handle_t **handle) {
  if (!handle)
    return DRV_ERROR_INVALID_VALUE;
  // Another process's memory: not simulated (a process's device memory is
  // its own).
  if ((shareable >> 32) != static_cast<uint64_t>(getpid()))
    return DRV_ERROR_NOT_SUPPORT;
  std::lock_guard<std::mutex> lock(Mutex);
  auto it = Shareables.find(shareable);
  if (device >= Config.deviceCount || it == Shareables.end())
    return DRV_ERROR_INVALID_VALUE;
  drv_mem_handle *source = it->second;
  if (source->validatePid && !source->allowed.count(getpid()))
    return DRV_ERROR_OPER_NOT_PERMITTED;
  auto object = std::make_unique<drv_mem_handle>();
  object->device = source->device;
  object->heapOffset = source->heapOffset;
  object->size = source->size;
  object->source = source;
  ++source->imports;
  *handle = object.get();
  Handles.emplace(object.get(), std::move(object));
  return DRV_ERROR_NONE;
}

drvError_t Driver::memMap(void *ptr, size_t size, size_t offset,
                          drv_mem_handle_t *handle, uint64_t flag) {
  (void)flag;
  std::lock_guard<std::mutex> lock(Mutex);
  if (!isHeld(handle))
    return DRV_ERROR_INVALID_HANDLE;
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  Device *device = deviceOf(start);
  // Mapped in its own device's address window: the bytes are that
  // device's.
  if (!device || device->id != handle->device || size == 0 ||
      offset + size > handle->size || offset + size < offset)
    return DRV_ERROR_INVALID_VALUE;
  auto reservation = device->reservations.upper_bound(start);
  if (reservation == device->reservations.begin())
    return DRV_ERROR_INVALID_VALUE;
  --reservation;
  if (start + size > reservation->first + reservation->second)
    return DRV_ERROR_INVALID_VALUE;
  auto next = device->mappings.lower_bound(start);
  if (next != device->mappings.end() && next->first < start + size)
    return DRV_ERROR_BUSY;
  if (next != device->mappings.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.size > start)
      return DRV_ERROR_BUSY;
  }
  device->mappings.emplace(start, VaMapping{size, handle, offset, nullptr});
  ++handle->mappings;
  return DRV_ERROR_NONE;
}

drvError_t Driver::memUnmap(void *ptr) {
  std::lock_guard<std::mutex> lock(Mutex);
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  Device *device = deviceOf(start);
  if (!device)
    return DRV_ERROR_INVALID_VALUE;
  auto it = device->mappings.find(start);
  if (it == device->mappings.end() || !it->second.physical)
    return DRV_ERROR_INVALID_VALUE;
  drv_mem_handle *physical = it->second.physical;
  --physical->mappings;
  device->mappings.erase(it);
  destroyIfUnused(physical);
  return DRV_ERROR_NONE;
}

drvError_t Driver::hostRegister(void *src, uint64_t size, uint32_t flag,
                                uint32_t id, void **dst) {
  if (!src || !dst || size == 0 || flag != HOST_MEM_MAP_DEV)
    return DRV_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(Mutex);
  uintptr_t host = reinterpret_cast<uintptr_t>(src);
  if (inDeviceRange(host))
    return DRV_ERROR_INVALID_VALUE;
  auto next = HostRegistrations.lower_bound(host);
  if (next != HostRegistrations.end() && next->first < host + size)
    return DRV_ERROR_REPEATED_USERD;
  if (next != HostRegistrations.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.vaSize > host)
      return DRV_ERROR_REPEATED_USERD;
  }
  drvError_t error = DRV_ERROR_NONE;
  Device *device = openDevice(id, &error);
  if (!device)
    return error;
  std::optional<uint64_t> offset = device->va.allocate(size);
  if (!offset)
    return DRV_ERROR_OUT_OF_MEMORY;
  uintptr_t va = device->vaBase + *offset;
  device->mappings.emplace(va, VaMapping{size, nullptr, 0, src});
  HostRegistrations.emplace(host, HostRegistration{id, va, size});
  *dst = reinterpret_cast<void *>(va);
  return DRV_ERROR_NONE;
}

drvError_t Driver::hostUnregister(void *src, uint32_t id) {
  std::lock_guard<std::mutex> lock(Mutex);
  auto it = HostRegistrations.find(reinterpret_cast<uintptr_t>(src));
  if (it == HostRegistrations.end() || it->second.device != id)
    return DRV_ERROR_NOT_EXIST;
  Device &device = *Devices[id];
  device.mappings.erase(it->second.va);
  device.va.release(it->second.va - device.vaBase);
  HostRegistrations.erase(it);
  return DRV_ERROR_NONE;
}

drvError_t Driver::memAttribute(uint64_t address, DVattribute *attr) {
  if (!attr)
    return DRV_ERROR_INVALID_VALUE;
  ::memset(attr, 0, sizeof(*attr));
  std::lock_guard<std::mutex> lock(Mutex);
  uintptr_t a = static_cast<uintptr_t>(address);
  if (Device *device = deviceOf(a)) {
    attr->devId = device->id;
    attr->pageSize = static_cast<UINT32>(kHeapAlignment);
    if (a >= device->heapBase &&
        a < device->heapBase + device->heap.capacity()) {
      std::optional<std::pair<uint64_t, uint64_t>> range =
          device->heap.find(a - device->heapBase);
      if (range) {
        BlockKind kind = device->blocks.at(range->first).kind;
        attr->memType = kind == BlockKind::Dvpp     ? DV_MEM_LOCK_DEV_DVPP
                        : kind == BlockKind::Device ? DV_MEM_LOCK_DEV
                                                    : 0;
      }
    } else {
      auto it = device->mappings.upper_bound(a);
      if (it != device->mappings.begin() &&
          a < std::prev(it)->first + std::prev(it)->second.size)
        attr->memType = DV_MEM_SVM_DEVICE;
    }
    return DRV_ERROR_NONE;
  }
  if (inDeviceRange(a))
    return DRV_ERROR_NONE;
  auto host = HostBlocks.find(a);
  if (host != HostBlocks.end()) {
    attr->memType = DV_MEM_LOCK_HOST;
    attr->devId = host->second.device;
  }
  return DRV_ERROR_NONE;
}

uint8_t *Driver::resolve(uintptr_t address, size_t length, drvError_t *error) {
  // No range wraps around the address space: p + SIZE_MAX is no range, and
  // every check below may add to an address without overflow.
  if (length > UINTPTR_MAX - address) {
    *error = DRV_ERROR_INVALID_VALUE;
    return nullptr;
  }
  if (!inDeviceRange(address))
    return resolveHost(address, length, error);
  *error = DRV_ERROR_INVALID_VALUE;
  Device *device = deviceOf(address);
  if (!device)
    return nullptr;
  if (address >= device->heapBase &&
      address < device->heapBase + device->heap.capacity()) {
    uint64_t offset = address - device->heapBase;
    std::optional<std::pair<uint64_t, uint64_t>> range =
        device->heap.find(offset);
    if (!range || device->blocks.at(range->first).kind == BlockKind::Physical)
      return nullptr;
    // Copies may use the padding the runtime added, not beyond the block
    // (find() put offset inside it, so the subtraction cannot wrap).
    if (length > range->first + range->second - offset)
      return nullptr;
    return device->shadow + offset;
  }
  auto it = mappingAt(*device, address);
  if (it == device->mappings.end())
    return nullptr;
  uint64_t within = address - it->first;
  if (length > it->second.size - within)
    return nullptr;
  if (!it->second.physical)
    return static_cast<uint8_t *>(it->second.host) + within;
  return device->shadow + it->second.physical->heapOffset +
         it->second.physicalOffset + within;
}

uint8_t *Driver::resolveHost(uintptr_t address, size_t length,
                             drvError_t *error) {
  // A host range that runs on into the devices' ranges is no host memory.
  uintptr_t end = address + length;
  if (address < Config.gmBase + Config.deviceRangesBytes() &&
      end > Config.gmBase) {
    *error = DRV_ERROR_INVALID_VALUE;
    return nullptr;
  }
  // One that starts in pinned memory the driver handed out stays inside it.
  auto block = HostBlocks.upper_bound(address);
  if (block != HostBlocks.begin()) {
    --block;
    uint64_t within = address - block->first;
    if (within < block->second.size && length > block->second.size - within) {
      *error = DRV_ERROR_INVALID_VALUE;
      return nullptr;
    }
  }
  return reinterpret_cast<uint8_t *>(address);
}

drvError_t Driver::memcpy(uint64_t dst, size_t destMax, uint64_t src,
                          size_t count) {
  if (!dst || !src || count > destMax)
    return DRV_ERROR_INVALID_VALUE;
  if (count == 0)
    return DRV_ERROR_NONE;
  uint8_t *to, *from;
  {
    std::lock_guard<std::mutex> lock(Mutex);
    drvError_t error = DRV_ERROR_NONE;
    to = resolve(dst, count, &error);
    from = resolve(src, count, &error);
    if (!to || !from)
      return error;
  }
  memmove(to, from, count);
  return DRV_ERROR_NONE;
}

drvError_t Driver::memset(uint64_t dst, size_t destMax, uint8_t value,
                          size_t count) {
  if (!dst || count > destMax)
    return DRV_ERROR_INVALID_VALUE;
  if (count == 0)
    return DRV_ERROR_NONE;
  uint8_t *to;
  {
    std::lock_guard<std::mutex> lock(Mutex);
    drvError_t error = DRV_ERROR_NONE;
    to = resolve(dst, count, &error);
    if (!to)
      return error;
  }
  ::memset(to, value, count);
  return DRV_ERROR_NONE;
}

void Driver::afterForkInChild() {
  if (Registry)
    Registry->reopenAfterFork();
}

void Driver::unpublish() {
  std::lock_guard<std::mutex> lock(Mutex);
  if (Registry)
    Registry->unpublish();
}

} // namespace mssim
