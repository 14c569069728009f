//===- acl_lifecycle_api.cpp - Binaries, labels, allocators, callbacks ----===//
//
// Contract: the create/destroy pairs of the 8.5 runtime interface that hold
// something, with hicann/runtime's checks and error codes (src/acl/aclrt_impl
// and the src/runtime calls behind them; utils/simdevice/README.md, "Binaries,
// labels, allocators and callbacks"):
//
// - aclrtCreateBinary / aclrtDestroyBinary: a host description of the
//   caller's bytes (not copied).
// - aclrtBinaryLoad: parses the bytes as an ELF object (its FUNC symbols are
//   the kernels) and copies them to the current device: one driver
//   allocation of the size + 4 KiB (MEM_DEV, RUNTIME), as the runtime's
//   BinaryLoad. aclrtBinaryLoadFromData / FromFile parse the same way and
//   load lazily: the device copy is made at the first launch, which the
//   simulation never does, so they hold host memory only. With the option
//   ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE the bytes are an AI CPU library
//   (not parsed); aclrtRegisterCpuFunc then copies them to the current device
//   once per device. aclrtBinaryUnLoad frees the handle, its functions and
//   device copies; a binary of aclrtBinaryLoad needs a current context and
//   frees its copy only from the device it was loaded on, as the real one.
// - aclrtCreateLabel / aclrtDestroyLabel: a label of the current context
//   (destroyed from its context only); aclrtCreateLabelList /
//   aclrtDestroyLabelList: 16 bytes of device memory per label (MEM_DEV,
//   RUNTIME), the list's handle being that device address.
// - aclrtCntNotifyCreate / aclrtCntNotifyDestroy: a counting notify.
// - aclrtAllocatorCreateDesc / DestroyDesc and the Set*ToDesc setters; the
//   stream-to-allocator table of aclrtAllocatorRegister / GetByStream /
//   Unregister (a copy of the description's callbacks, as the real one).
// - aclrtCreateGroupInfo / aclrtDestroyGroupInfo: the simulated devices have
//   no compute groups, so aclrtGetGroupCount says 0 and the create returns
//   NULL without allocating, as the real one does for 0 groups.
// - aclrtMallocForTaskScheduler: aclrtMallocWithCfg's allocation.
// - aclInitCallbackRegister / aclFinalizeCallbackRegister and their
//   UnRegister: a table the runtime calls at aclInit (with the configuration
//   file's text) and at aclFinalize; aclFinalizeReference drops one aclInit
//   reference and finalises at the last.
//
// Nothing here is released by aclrtResetDevice or aclFinalize: the real
// runtime keeps binaries, labels, notifies and registrations until their own
// release. Unknown or destroyed handles are refused without being touched.
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

using namespace mssim;

namespace {

/// What aclrtBinaryLoad's device copy adds to the size (the runtime's
/// instruction alignment, 4 KiB).
constexpr uint64_t kBinaryAlignBytes = 4096;
/// Device memory per label of a label list (the runtime's label record).
constexpr uint64_t kLabelRecordBytes = 16;
constexpr size_t kMaxLabelsPerList = 65535;

struct BinaryDesc {
  const void *data = nullptr;
  size_t length = 0;
};

struct FunctionObject;

struct BinaryObject {
  bool cpu = false;       // an AI CPU library (CPU_KERNEL_MODE)
  bool eagerLoad = false; // aclrtBinaryLoad: copied at load
  int32_t loadDevice = -1;
  std::vector<uint8_t> bytes; // host copy of the program
  std::set<std::string> kernels;
  std::map<int32_t, void *> deviceCopies;
  std::vector<std::unique_ptr<FunctionObject>> functions;
};

struct FunctionObject {
  BinaryObject *binary = nullptr;
  std::string name;
};

struct LabelObject {
  ContextObject *context = nullptr;
};

struct CntNotifyObject {
  int32_t device = 0;
};

struct AllocatorDescObject {
  aclrtAllocator object = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc address = nullptr;
};

struct Registered {
  aclrtAllocatorDesc desc = nullptr;
  AllocatorDescObject callbacks;
};

/// The tables of this file, under their own lock (taken after the runtime's,
/// never before it).
struct Lifecycle {
  std::mutex Mutex;
  std::set<BinaryDesc *> Descs;
  std::set<BinaryObject *> Binaries;
  std::set<FunctionObject *> Functions;
  std::set<LabelObject *> Labels;
  std::set<void *> LabelLists;
  std::set<CntNotifyObject *> CntNotifies;
  std::set<AllocatorDescObject *> AllocatorDescs;
  std::map<aclrtStream, Registered> Allocators;
  std::multimap<aclRegisterCallbackType, std::pair<aclInitCallbackFunc, void *>>
      InitCallbacks;
  std::multimap<aclRegisterCallbackType,
                std::pair<aclFinalizeCallbackFunc, void *>>
      FinalizeCallbacks;
  std::string Config; // the configuration text of the last aclInit
  uint64_t InitReferences = 0;
  std::recursive_mutex CallbackMutex; // held while callbacks run
};

Lifecycle &state() {
  static Lifecycle *lifecycle = new Lifecycle; // outlives static destructors
  return *lifecycle;
}

/// The kernels (global FUNC symbols) of an ELF64 object, or false if the
/// bytes are not one.
bool readKernels(const std::vector<uint8_t> &bytes,
                 std::set<std::string> *kernels) {
  if (bytes.size() < sizeof(Elf64_Ehdr) ||
      memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
      bytes[EI_CLASS] != ELFCLASS64)
    return false;
  Elf64_Ehdr header;
  memcpy(&header, bytes.data(), sizeof(header));
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shoff == 0 ||
      header.e_shoff > bytes.size() ||
      header.e_shnum > (bytes.size() - header.e_shoff) / sizeof(Elf64_Shdr))
    return false;
  auto section = [&](size_t index) {
    Elf64_Shdr shdr;
    memcpy(&shdr, bytes.data() + header.e_shoff + index * sizeof(Elf64_Shdr),
           sizeof(shdr));
    return shdr;
  };
  auto inside = [&](const Elf64_Shdr &shdr) {
    return shdr.sh_offset <= bytes.size() &&
           shdr.sh_size <= bytes.size() - shdr.sh_offset;
  };
  for (size_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr symtab = section(i);
    if (symtab.sh_type != SHT_SYMTAB)
      continue;
    if (!inside(symtab) || symtab.sh_link >= header.e_shnum)
      return false;
    Elf64_Shdr strtab = section(symtab.sh_link);
    if (!inside(strtab))
      return false;
    for (size_t s = 0; s < symtab.sh_size / sizeof(Elf64_Sym); ++s) {
      Elf64_Sym sym;
      memcpy(&sym, bytes.data() + symtab.sh_offset + s * sizeof(Elf64_Sym),
             sizeof(sym));
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
          sym.st_name >= strtab.sh_size)
        continue;
      const char *name = reinterpret_cast<const char *>(
          bytes.data() + strtab.sh_offset + sym.st_name);
      size_t room = strtab.sh_size - sym.st_name;
      kernels->insert(std::string(name, strnlen(name, room)));
    }
  }
  return true;
}

/// One driver allocation of `bytes` on `device` for the runtime, holding
/// `content` (as far as it goes).
aclError copyToDevice(const char *api, int32_t device, uint64_t bytes,
                      const std::vector<uint8_t> &content, void **out) {
  drvError_t error =
      halMemAlloc(out, bytes, driverFlag(device, MEM_DEV, RUNTIME_MODULE_ID));
  if (error != DRV_ERROR_NONE)
    return fail(fromDriver(error), api,
                "cannot allocate " + std::to_string(bytes) +
                    " bytes of device memory");
  if (!content.empty() && !writeDevice(*out, content)) {
    halMemFree(*out);
    return fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR, api, "copy to device failed");
  }
  return ACL_SUCCESS;
}

/// Options of the lazy loads: CPU_KERNEL_MODE makes an AI CPU library.
aclError readOptions(const char *api, const aclrtBinaryLoadOptions *options,
                     bool *cpu) {
  *cpu = false;
  if (!options)
    return ACL_SUCCESS;
  if (options->numOpt && !options->options)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "options->options is null with numOpt > 0");
  for (size_t i = 0; i < options->numOpt; ++i) {
    const aclrtBinaryLoadOption &option = options->options[i];
    switch (option.type) {
    case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
    case ACL_RT_BINARY_LOAD_OPT_MAGIC:
      break;
    case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
      *cpu = true;
      break;
    default:
      return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                  "unknown load option " +
                      std::to_string(static_cast<int>(option.type)));
    }
  }
  return ACL_SUCCESS;
}

/// Makes a binary of `bytes` (an ELF object, or an AI CPU library) and
/// registers it; the device copy, if any, is the caller's.
aclError makeBinary(const char *api, std::vector<uint8_t> bytes, bool cpu,
                    std::unique_ptr<BinaryObject> *out) {
  auto binary = std::make_unique<BinaryObject>();
  binary->cpu = cpu;
  if (bytes.empty())
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "the binary is empty");
  if (!cpu && !readKernels(bytes, &binary->kernels))
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "the data is not an ELF64 kernel object");
  binary->bytes = std::move(bytes);
  *out = std::move(binary);
  return ACL_SUCCESS;
}

aclError lazyLoad(const char *api, std::vector<uint8_t> bytes,
                  const aclrtBinaryLoadOptions *options,
                  aclrtBinHandle *binHandle) {
  bool cpu = false;
  if (aclError error = readOptions(api, options, &cpu))
    return error;
  std::unique_ptr<BinaryObject> binary;
  if (aclError error = makeBinary(api, std::move(bytes), cpu, &binary))
    return error;
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.Binaries.insert(binary.get());
  *binHandle = binary.release();
  return ACL_SUCCESS;
}

/// A function of `binary` named `name`, made once.
FunctionObject *functionOf(BinaryObject *binary, const std::string &name) {
  for (auto &function : binary->functions)
    if (function->name == name)
      return function.get();
  auto function = std::make_unique<FunctionObject>();
  function->binary = binary;
  function->name = name;
  binary->functions.push_back(std::move(function));
  state().Functions.insert(binary->functions.back().get());
  return binary->functions.back().get();
}

bool liveStream(aclrtStream stream) {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  return rt.Streams.count(static_cast<StreamObject *>(stream)) != 0;
}

ContextObject *currentContext() {
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  return rt.current();
}

/// Sets one member of a live allocator description to a non-null `value`.
template <typename Member>
aclError setDescField(const char *api, aclrtAllocatorDesc desc,
                      Member AllocatorDescObject::*member, Member value) {
  if (!desc || !value)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "allocatorDesc and the value must not be null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *object = static_cast<AllocatorDescObject *>(desc);
  if (!lc.AllocatorDescs.count(object))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(desc) + " does not exist or was already destroyed");
  object->*member = value;
  return ACL_SUCCESS;
}

template <typename Map, typename Function>
aclError unregisterCallback(const char *api, Map &map,
                            aclRegisterCallbackType type, Function function) {
  if (!function)
    return fail(ACL_ERROR_INVALID_PARAM, api, "cbFunc is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto range = map.equal_range(type);
  for (auto it = range.first; it != range.second; ++it)
    if (it->second.first == function) {
      map.erase(it);
      return ACL_SUCCESS;
    }
  return fail(ACL_ERROR_INTERNAL_ERROR, api,
              "no such callback is registered for this type");
}

/// The callbacks of `type` in registration order (copied: they run unlocked).
template <typename Map>
std::vector<typename Map::mapped_type> callbacksOf(const Map &map,
                                                   aclRegisterCallbackType t) {
  std::vector<typename Map::mapped_type> list;
  auto range = map.equal_range(t);
  for (auto it = range.first; it != range.second; ++it)
    list.push_back(it->second);
  return list;
}

/// The order hicann/runtime's aclInit and aclFinalize notify the types in.
constexpr aclRegisterCallbackType kInitOrder[] = {
    ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_OP_EXECUTOR, ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_OTHER};
constexpr aclRegisterCallbackType kFinalizeOrder[] = {
    ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_OTHER};

} // namespace

namespace mssim {

aclError runInitCallbacks(const char *configPath) {
  Lifecycle &lc = state();
  std::string config;
  if (configPath && *configPath) {
    std::ifstream file(configPath, std::ios::binary);
    config.assign(std::istreambuf_iterator<char>(file),
                  std::istreambuf_iterator<char>());
  }
  std::lock_guard<std::recursive_mutex> running(lc.CallbackMutex);
  {
    std::lock_guard<std::mutex> lock(lc.Mutex);
    lc.Config = config;
    lc.InitReferences = 1;
  }
  for (aclRegisterCallbackType type : kInitOrder) {
    std::vector<std::pair<aclInitCallbackFunc, void *>> list;
    {
      std::lock_guard<std::mutex> lock(lc.Mutex);
      list = callbacksOf(lc.InitCallbacks, type);
    }
    for (auto &entry : list)
      if (aclError error =
              entry.first(config.c_str(), config.size(), entry.second))
        return fail(error, "aclInit",
                    "an initialisation callback failed with " +
                        std::to_string(error));
  }
  return ACL_SUCCESS;
}

aclError runFinalizeCallbacks() {
  {
    Runtime &rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.Mutex);
    if (!rt.Initialized)
      return ACL_SUCCESS; // aclFinalize reports it
  }
  Lifecycle &lc = state();
  std::lock_guard<std::recursive_mutex> running(lc.CallbackMutex);
  for (aclRegisterCallbackType type : kFinalizeOrder) {
    std::vector<std::pair<aclFinalizeCallbackFunc, void *>> list;
    {
      std::lock_guard<std::mutex> lock(lc.Mutex);
      list = callbacksOf(lc.FinalizeCallbacks, type);
    }
    for (auto &entry : list)
      if (aclError error = entry.first(entry.second))
        return fail(error, "aclFinalize",
                    "a finalisation callback failed with " +
                        std::to_string(error));
  }
  return ACL_SUCCESS;
}

void countInitReference(bool finalized) {
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.InitReferences = finalized ? 0 : lc.InitReferences + 1;
}

} // namespace mssim

extern "C" {

//===----------------------------------------------------------------------===//
// Binaries and functions
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void *data,
                                                  size_t dataLen) {
  if (!data) {
    fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateBinary", "data is null");
    return nullptr;
  }
  auto *desc = new BinaryDesc{data, dataLen};
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.Descs.insert(desc);
  return desc;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary) {
  if (!binary)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyBinary",
                "binary is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *desc = static_cast<BinaryDesc *>(binary);
  if (!lc.Descs.erase(desc))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyBinary",
                hexAddress(binary) +
                    " does not exist or was already destroyed");
  delete desc;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary,
                                             aclrtBinHandle *binHandle) {
  const char *api = "aclrtBinaryLoad";
  if (!binary || !binHandle)
    return fail(ACL_ERROR_INVALID_PARAM, api, "binary or binHandle is null");
  std::vector<uint8_t> bytes;
  {
    Lifecycle &lc = state();
    std::lock_guard<std::mutex> lock(lc.Mutex);
    auto *desc = static_cast<BinaryDesc *>(binary);
    if (!lc.Descs.count(desc))
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  hexAddress(binary) +
                      " does not exist or was already destroyed");
    const auto *begin = static_cast<const uint8_t *>(desc->data);
    bytes.assign(begin, begin + desc->length);
  }
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice(api);
  std::unique_ptr<BinaryObject> loaded;
  if (aclError error = makeBinary(api, std::move(bytes), false, &loaded))
    return error;
  void *copy = nullptr;
  if (aclError error =
          copyToDevice(api, device, loaded->bytes.size() + kBinaryAlignBytes,
                       loaded->bytes, &copy))
    return error;
  loaded->eagerLoad = true;
  loaded->loadDevice = device;
  loaded->deviceCopies[device] = copy;
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.Binaries.insert(loaded.get());
  *binHandle = loaded.release();
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(
    const void *data, size_t length, const aclrtBinaryLoadOptions *options,
    aclrtBinHandle *binHandle) {
  if (!data || !binHandle)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtBinaryLoadFromData",
                "data or binHandle is null");
  const auto *begin = static_cast<const uint8_t *>(data);
  return lazyLoad("aclrtBinaryLoadFromData",
                  std::vector<uint8_t>(begin, begin + length), options,
                  binHandle);
}

ACL_FUNC_VISIBILITY aclError
aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                        aclrtBinHandle *binHandle) {
  const char *api = "aclrtBinaryLoadFromFile";
  if (!binPath || !binHandle)
    return fail(ACL_ERROR_INVALID_PARAM, api, "binPath or binHandle is null");
  std::ifstream file(binPath, std::ios::binary);
  if (!file)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                std::string("cannot read ") + binPath);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  return lazyLoad(api, std::move(bytes), options, binHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  const char *api = "aclrtBinaryUnLoad";
  if (!binHandle)
    return fail(ACL_ERROR_INVALID_PARAM, api, "binHandle is null");
  int32_t device = currentDevice();
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *binary = static_cast<BinaryObject *>(binHandle);
  if (!lc.Binaries.count(binary))
    return fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                hexAddress(binHandle) +
                    " does not exist or was already unloaded");
  if (binary->eagerLoad) {
    // The runtime frees the copy on the current device only: unloaded from
    // another device, the copy stays allocated (a leak, as on the real stack).
    if (device < 0)
      return noCurrentDevice(api);
    auto copy = binary->deviceCopies.find(device);
    if (copy != binary->deviceCopies.end()) {
      halMemFree(copy->second);
      binary->deviceCopies.erase(copy);
    }
  } else {
    for (auto &copy : binary->deviceCopies)
      halMemFree(copy.second);
  }
  for (auto &function : binary->functions)
    lc.Functions.erase(function.get());
  lc.Binaries.erase(binary);
  delete binary;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                       aclrtFuncHandle *funcHandle) {
  const char *api = "aclrtBinaryGetFunction";
  if (!binHandle || !kernelName || !funcHandle)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "binHandle, kernelName or funcHandle is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *binary = static_cast<BinaryObject *>(binHandle);
  if (!lc.Binaries.count(binary))
    return fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                hexAddress(binHandle) +
                    " does not exist or was already unloaded");
  if (binary->cpu || !binary->kernels.count(kernelName))
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                std::string("the binary has no kernel ") + kernelName);
  *funcHandle = functionOf(binary, kernelName);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle,
                                                  const char *funcName,
                                                  const char *kernelName,
                                                  aclrtFuncHandle *funcHandle) {
  const char *api = "aclrtRegisterCpuFunc";
  if (!handle || !funcName || !kernelName || !funcHandle)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "handle, funcName, kernelName or funcHandle is null");
  int32_t device = currentDevice();
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *binary = static_cast<BinaryObject *>(handle);
  if (!lc.Binaries.count(binary))
    return fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                hexAddress(handle) + " does not exist or was already unloaded");
  if (!binary->cpu)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "the binary was not loaded as an AI CPU library "
                "(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)");
  if (device < 0)
    return noCurrentDevice(api);
  if (!binary->deviceCopies.count(device)) {
    void *copy = nullptr;
    if (aclError error = copyToDevice(api, device, binary->bytes.size(),
                                      binary->bytes, &copy))
      return error;
    binary->deviceCopies[device] = copy;
  }
  *funcHandle = functionOf(binary, std::string(funcName) + "/" + kernelName);
  return ACL_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Labels
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label) {
  if (!label)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateLabel", "label is null");
  ContextObject *context = currentContext();
  if (!context)
    return noCurrentDevice("aclrtCreateLabel");
  auto *created = new LabelObject{context};
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.Labels.insert(created);
  *label = created;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label) {
  const char *api = "aclrtDestroyLabel";
  if (!label)
    return fail(ACL_ERROR_INVALID_PARAM, api, "label is null");
  ContextObject *context = currentContext();
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *object = static_cast<LabelObject *>(label);
  if (!lc.Labels.count(object))
    return fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                hexAddress(label) + " does not exist or was already destroyed");
  if (!context)
    return noCurrentDevice(api);
  if (object->context != context)
    return fail(ACL_ERROR_RT_LABEL_CONTEXT, api,
                "the label belongs to another context");
  lc.Labels.erase(object);
  delete object;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels,
                                                  size_t num,
                                                  aclrtLabelList *labelList) {
  const char *api = "aclrtCreateLabelList";
  if (!labels || !labelList)
    return fail(ACL_ERROR_INVALID_PARAM, api, "labels or labelList is null");
  if (num == 0 || num > kMaxLabelsPerList)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "num must be in (0, 65535], not " + std::to_string(num));
  {
    Lifecycle &lc = state();
    std::lock_guard<std::mutex> lock(lc.Mutex);
    for (size_t i = 0; i < num; ++i)
      if (!lc.Labels.count(static_cast<LabelObject *>(labels[i])))
        return fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                    "labels[" + std::to_string(i) + "] (" +
                        hexAddress(labels[i]) +
                        ") does not exist or was already destroyed");
  }
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice(api);
  void *memory = nullptr;
  // Initialised to 0xFF (no label placed yet), as the runtime does.
  std::vector<uint8_t> records(num * kLabelRecordBytes, 0xFF);
  if (aclError error =
          copyToDevice(api, device, records.size(), records, &memory))
    return error;
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.LabelLists.insert(memory);
  *labelList = memory;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  const char *api = "aclrtDestroyLabelList";
  if (!labelList)
    return fail(ACL_ERROR_INVALID_PARAM, api, "labelList is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  if (!lc.LabelLists.erase(labelList))
    return fail(ACL_ERROR_RT_MEMORY_FREE, api,
                hexAddress(labelList) +
                    " is not a label list or was already destroyed");
  halMemFree(labelList);
  return ACL_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Counting notifies
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify,
                                                  uint64_t flag) {
  const char *api = "aclrtCntNotifyCreate";
  if (flag != 0)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "flag must be 0");
  if (!cntNotify)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "cntNotify is null");
  int32_t device = currentDevice();
  if (device < 0)
    return noCurrentDevice(api);
  auto *created = new CntNotifyObject{device};
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.CntNotifies.insert(created);
  *cntNotify = created;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
  const char *api = "aclrtCntNotifyDestroy";
  if (!cntNotify)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "cntNotify is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *object = static_cast<CntNotifyObject *>(cntNotify);
  if (!lc.CntNotifies.erase(object))
    return fail(ACL_ERROR_RT_INVALID_HANDLE, api,
                hexAddress(cntNotify) +
                    " does not exist or was already destroyed");
  delete object;
  return ACL_SUCCESS;
}

//===----------------------------------------------------------------------===//
// External allocators
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
  auto *desc = new AllocatorDescObject;
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.AllocatorDescs.insert(desc);
  return desc;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  const char *api = "aclrtAllocatorDestroyDesc";
  if (!allocatorDesc)
    return fail(ACL_ERROR_INVALID_PARAM, api, "allocatorDesc is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *desc = static_cast<AllocatorDescObject *>(allocatorDesc);
  if (!lc.AllocatorDescs.erase(desc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(allocatorDesc) +
                    " does not exist or was already destroyed");
  delete desc;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  return setDescField("aclrtAllocatorSetObjToDesc", allocatorDesc,
                      &AllocatorDescObject::object, allocator);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  return setDescField("aclrtAllocatorSetAllocFuncToDesc", allocatorDesc,
                      &AllocatorDescObject::alloc, func);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  return setDescField("aclrtAllocatorSetFreeFuncToDesc", allocatorDesc,
                      &AllocatorDescObject::free, func);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
  return setDescField("aclrtAllocatorSetAllocAdviseFuncToDesc", allocatorDesc,
                      &AllocatorDescObject::advise, func);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorGetAddrFromBlockFunc func) {
  return setDescField("aclrtAllocatorSetGetAddrFromBlockFuncToDesc",
                      allocatorDesc, &AllocatorDescObject::address, func);
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  const char *api = "aclrtAllocatorRegister";
  if (!stream || !allocatorDesc)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "stream and allocatorDesc must not be null");
  if (!liveStream(stream))
    return fail(ACL_ERROR_RT_STREAM_CONTEXT, api,
                "stream " + hexAddress(stream) + " does not exist");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto *desc = static_cast<AllocatorDescObject *>(allocatorDesc);
  if (!lc.AllocatorDescs.count(desc))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                hexAddress(allocatorDesc) +
                    " does not exist or was already destroyed");
  if (!desc->object || !desc->alloc || !desc->free || !desc->address)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the description needs its allocator, alloc, free and "
                "get-address functions");
  lc.Allocators[stream] = Registered{allocatorDesc, *desc};
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(
    aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
    aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
    aclrtAllocatorFreeFunc *freeFunc,
    aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
    aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc) {
  const char *api = "aclrtAllocatorGetByStream";
  if (!allocatorDesc || !stream)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "allocatorDesc and stream must not be null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  auto it = lc.Allocators.find(stream);
  if (it == lc.Allocators.end())
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the stream is not registered with any allocator");
  const AllocatorDescObject &callbacks = it->second.callbacks;
  *allocatorDesc = it->second.desc;
  if (allocator)
    *allocator = callbacks.object;
  if (allocFunc)
    *allocFunc = callbacks.alloc;
  if (freeFunc)
    *freeFunc = callbacks.free;
  if (allocAdviseFunc)
    *allocAdviseFunc = callbacks.advise;
  if (getAddrFromBlockFunc)
    *getAddrFromBlockFunc = callbacks.address;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream) {
  if (!stream)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtAllocatorUnregister",
                "stream is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  lc.Allocators.erase(stream); // none registered: nothing to do, as the real
  return ACL_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Compute groups
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t *count) {
  if (!count)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetGroupCount", "count is null");
  if (currentDevice() < 0)
    return noCurrentDevice("aclrtGetGroupCount");
  *count = 0; // the simulated devices are not partitioned into groups
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclrtGroupInfo *aclrtCreateGroupInfo(void) {
  uint32_t count = 0;
  if (aclrtGetGroupCount(&count) != ACL_SUCCESS)
    return nullptr;
  // No group: nothing is allocated and NULL returned, as the real runtime.
  recordErrorMessage("aclrtCreateGroupInfo", "the device has no groups", 0);
  return nullptr;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo) {
  if (!groupInfo)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyGroupInfo",
                "groupInfo is null");
  // aclrtCreateGroupInfo never makes one here, so this is none of its.
  return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyGroupInfo",
              hexAddress(groupInfo) + " was not made by aclrtCreateGroupInfo");
}

//===----------------------------------------------------------------------===//
// Memory for the task scheduler
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(
    void **devPtr, size_t size, aclrtMemMallocPolicy policy,
    aclrtMallocConfig *cfg) {
  const char *api = "aclrtMallocForTaskScheduler";
  if (!devPtr)
    return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr is null");
  if (cfg && cfg->numAttrs != 0 && !cfg->attrs)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "cfg->attrs is null with cfg->numAttrs > 0");
  if (!validPolicy(policy))
    return fail(ACL_ERROR_INVALID_PARAM, api, "unknown policy");
  return allocateOnDevice(api, devPtr, size, paddedDeviceSize(size), MEM_DEV,
                          moduleFrom(cfg));
}

//===----------------------------------------------------------------------===//
// Initialisation and finalisation callbacks
//===----------------------------------------------------------------------===//

ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(
    aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData) {
  const char *api = "aclInitCallbackRegister";
  if (!cbFunc)
    return fail(ACL_ERROR_INVALID_PARAM, api, "cbFunc is null");
  Lifecycle &lc = state();
  std::string config;
  {
    std::lock_guard<std::mutex> lock(lc.Mutex);
    if (type != ACL_REG_TYPE_OTHER && lc.InitCallbacks.count(type))
      return fail(ACL_ERROR_INTERNAL_ERROR, api,
                  "a callback of this type is already registered");
    lc.InitCallbacks.insert({type, {cbFunc, userData}});
    config = lc.Config;
  }
  // Registered after aclInit: it runs now (its result is not looked at).
  bool initialized = false;
  {
    Runtime &rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.Mutex);
    initialized = rt.Initialized;
  }
  if (initialized)
    (void)cbFunc(config.c_str(), config.size(), userData);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(
    aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  return unregisterCallback("aclInitCallbackUnRegister", state().InitCallbacks,
                            type, cbFunc);
}

ACL_FUNC_VISIBILITY aclError
aclFinalizeCallbackRegister(aclRegisterCallbackType type,
                            aclFinalizeCallbackFunc cbFunc, void *userData) {
  const char *api = "aclFinalizeCallbackRegister";
  if (!cbFunc)
    return fail(ACL_ERROR_INVALID_PARAM, api, "cbFunc is null");
  Lifecycle &lc = state();
  std::lock_guard<std::mutex> lock(lc.Mutex);
  if (type != ACL_REG_TYPE_OTHER && lc.FinalizeCallbacks.count(type))
    return fail(ACL_ERROR_INTERNAL_ERROR, api,
                "a callback of this type is already registered");
  lc.FinalizeCallbacks.insert({type, {cbFunc, userData}});
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(
    aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc) {
  return unregisterCallback("aclFinalizeCallbackUnRegister",
                            state().FinalizeCallbacks, type, cbFunc);
}

ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount) {
  Lifecycle &lc = state();
  uint64_t references = 0;
  {
    std::lock_guard<std::mutex> lock(lc.Mutex);
    references = lc.InitReferences;
    if (references > 1) {
      --lc.InitReferences;
      if (refCount)
        *refCount = lc.InitReferences;
      return ACL_SUCCESS;
    }
  }
  if (refCount)
    *refCount = references;
  if (references < 1)
    return fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference",
                "AscendCL is not initialized");
  aclError status = aclFinalize(); // the last reference
  if (refCount) {
    std::lock_guard<std::mutex> lock(lc.Mutex);
    *refCount = lc.InitReferences;
  }
  return status;
}

} // extern "C"
