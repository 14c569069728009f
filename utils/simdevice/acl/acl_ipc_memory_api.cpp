//===- acl_ipc_memory_api.cpp - Device memory shared by key ---------------===//
//
// IPC memory (8.5): aclrtIpcMemGetExportKey makes a key for a range of
// device memory, aclrtIpcMemSetImportPid lets processes import it (unless
// the key was exported with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
// aclrtIpcMemImportByKey hands out the range's device address, and
// aclrtIpcMemClose ends what the process holds of a key: an import if it
// has one (each import is closed once), else the export itself -- the real
// runtime's order (ApiImpl::IpcCloseMemoryByName in hicann/runtime), which
// wants every importer closed before the exporter closes. A key is text of
// the real length (64 characters and a NUL; `len` must hold 65).
//
// Importing a key of another process is not simulated (the device memory
// of a simulated process is its own): it fails with ACL_ERROR_API_NOT_SUPPORT
// and says so. An import in the exporting process hands out the exported
// address itself (the real driver maps the memory again), so aclrtFree of
// it frees the exported memory, which the real one would refuse: more
// lenient, and the README says so. Freeing exported memory leaves its key,
// whose later imports fail.
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

#include <cstring>
#include <map>
#include <set>
#include <unistd.h>

using namespace mssim;

namespace {

constexpr size_t kKeyLength = 65; // with its NUL, as the real key's
constexpr char kKeyPrefix[] = "mssim-ipc-memory-";

/// A key this process exported, and what it holds of it.
struct ExportedKey {
  uint64_t address = 0;
  size_t size = 0;
  int32_t device = -1;
  bool validatePid = true;
  std::set<int32_t> allowed; // aclrtIpcMemSetImportPid's processes
  unsigned imports = 0;      // open imports in this process
};

using Keys = std::map<std::string, ExportedKey>;

struct IpcMemory {
  std::mutex Mutex;
  Keys Exported;
  uint64_t Next = 0;
};

IpcMemory &ipcMemory() {
  static IpcMemory *state = new IpcMemory; // never destroyed: atexit users
  return *state;
}

/// Key `key` of this process (under state.Mutex), or end() after saying
/// that `api` fails because the key is `missing`.
Keys::iterator findKey(IpcMemory &state, const char *api, const char *key,
                       const char *missing) {
  auto found = state.Exported.find(key);
  if (found == state.Exported.end())
    fail(ACL_ERROR_INVALID_PARAM, api,
         std::string("key \"") + key + "\" " + missing);
  return found;
}

/// The pid a key names (its text after the prefix, up to '-'), or -1.
long pidOfKey(const std::string &key) {
  size_t prefix = sizeof kKeyPrefix - 1;
  if (key.compare(0, prefix, kKeyPrefix) != 0)
    return -1;
  char *end = nullptr;
  long pid = strtol(key.c_str() + prefix, &end, 10);
  return end && *end == '-' && pid > 0 ? pid : -1;
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid) {
  if (!pid)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid",
                "pid is null");
  *pid = static_cast<int32_t>(getpid());
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size,
                                                     char *key, size_t len,
                                                     uint64_t flags) {
  const char *api = "aclrtIpcMemGetExportKey";
  if (!devPtr || !key)
    return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr or key is null");
  if (len < kKeyLength)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "len " + std::to_string(len) + " cannot hold a key (65)");
  if (flags & ~ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown flags " + std::to_string(flags));
  if (currentDevice() < 0)
    return noCurrentDevice(api);
  uint64_t address = reinterpret_cast<uintptr_t>(devPtr);
  int32_t device = deviceOfMemory(devPtr);
  // The range's first and last bytes: device memory of one device.
  if (size == 0 || device < 0 ||
      deviceOfMemory(static_cast<char *>(devPtr) + size - 1) != device)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "[" + hexAddress(devPtr) + ", +" + std::to_string(size) +
                    ") is not live device memory");
  IpcMemory &state = ipcMemory();
  std::lock_guard<std::mutex> lock(state.Mutex);
  std::string text = kKeyPrefix + std::to_string(getpid()) + "-" +
                     std::to_string(++state.Next);
  ExportedKey &exported = state.Exported[text];
  exported.address = address;
  exported.size = size;
  exported.device = device;
  exported.validatePid =
      !(flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
  memset(key, 0, kKeyLength);
  memcpy(key, text.data(), text.size());
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key,
                                                     int32_t *pid, size_t num) {
  const char *api = "aclrtIpcMemSetImportPid";
  if (!key || !pid || num == 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "key or pid is null, or num is 0");
  IpcMemory &state = ipcMemory();
  std::lock_guard<std::mutex> lock(state.Mutex);
  auto found = findKey(state, api, key, "is not exported by this process");
  if (found == state.Exported.end())
    return ACL_ERROR_INVALID_PARAM;
  found->second.allowed.insert(pid, pid + num);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr,
                                                    const char *key,
                                                    uint64_t flags) {
  const char *api = "aclrtIpcMemImportByKey";
  if (!devPtr || !key)
    return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr or key is null");
  if (flags & ~ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "unknown flags " + std::to_string(flags));
  if (currentDevice() < 0)
    return noCurrentDevice(api);
  long pid = pidOfKey(key);
  if (pid < 0)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::string("\"") + key +
                    "\" is not a key of aclrtIpcMemGetExportKey");
  if (pid != getpid())
    return fail(ACL_ERROR_API_NOT_SUPPORT, api,
                "not simulated: IPC memory of another process (pid " +
                    std::to_string(pid) + ")");
  IpcMemory &state = ipcMemory();
  std::lock_guard<std::mutex> lock(state.Mutex);
  auto found = findKey(state, api, key,
                       "is not exported, or was closed by its exporter");
  if (found == state.Exported.end())
    return ACL_ERROR_INVALID_PARAM;
  ExportedKey &exported = found->second;
  if (exported.validatePid &&
      !exported.allowed.count(static_cast<int32_t>(getpid())))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "this process (pid " + std::to_string(getpid()) +
                    ") is not allowed to import the key "
                    "(aclrtIpcMemSetImportPid)");
  if (deviceOfMemory(reinterpret_cast<void *>(exported.address)) !=
      exported.device)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::string("the memory of key \"") + key + "\" was freed");
  ++exported.imports;
  *devPtr = reinterpret_cast<void *>(exported.address);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key) {
  const char *api = "aclrtIpcMemClose";
  if (!key)
    return fail(ACL_ERROR_INVALID_PARAM, api, "key is null");
  IpcMemory &state = ipcMemory();
  std::lock_guard<std::mutex> lock(state.Mutex);
  auto found = findKey(state, api, key,
                       "is neither exported nor imported by this process");
  if (found == state.Exported.end())
    return ACL_ERROR_INVALID_PARAM;
  if (found->second.imports > 0)
    --found->second.imports;
  else
    state.Exported.erase(found);
  return ACL_SUCCESS;
}

} // extern "C"
