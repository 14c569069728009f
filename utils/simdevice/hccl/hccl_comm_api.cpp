//===- hccl_comm_api.cpp - libhccl.so: communicators ----------------------===//
//
// HcclGetRootInfo, the HcclCommInit* functions, HcclCommDestroy and the
// queries, with the real library's checks in its order (hcomm's op_base.cc):
// each needs a device set on the calling thread (HCCL_E_RUNTIME without);
// null pointers are HCCL_E_PTR, bad values and malformed configurations,
// environment variables and rank tables HCCL_E_PARA, a rank table that
// cannot be read HCCL_E_INTERNAL, a second rank table communicator of one
// device HCCL_E_UNAVAIL, a rank that does not join in time HCCL_E_TIMEOUT.
// Stricter than the real library (whose behaviour is undefined there): an
// unknown or destroyed handle is HCCL_E_PARA, a root info HcclGetRootInfo
// did not make is HCCL_E_PARA.
//
// A communicator allocates, once every rank has joined, two CCL buffers of
// HCCL_BUFFSIZE MB (default 200; or the configuration's hcclBufferSize) on
// its device with halMemAlloc(MEM_DEV, HCCL_HAL_MODULE_ID), as the real
// one's input and output buffers, and HcclCommDestroy frees them.
//
//===----------------------------------------------------------------------===//
#include "communicator.h"
#include "rank_table.h"
#include "reduce.h"
#include "runtime.h"

#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <vector>

namespace mssim {
namespace hccl {

namespace {

/// The registry of live communicators, by handle.
struct Registry {
  std::mutex Mutex;
  std::map<const void *, std::shared_ptr<Communicator>> Live;
};

Registry &registry() {
  static Registry *instance = new Registry(); // outlives static destructors
  return *instance;
}

constexpr const char kRootMagic[] = "mssim-hccl-root-info";
constexpr const char kWorldGroup[] = "hccl_world_group";

/// The settings a communicator is made with: the environment
/// (InitExternalInput) and its configuration.
struct Settings {
  uint64_t BufferBytes = uint64_t(HCCL_COMM_DEFAULT_BUFFSIZE) << 20;
  std::chrono::milliseconds ConnectTimeout{(120 + 20) * 1000};
  std::chrono::milliseconds ExecTimeout{1836 * 1000};
  std::string Name;
};

/// A whole decimal number of `text` in [low, high].
bool number(const char *text, long long low, long long high, long long *out) {
  if (!text || !*text)
    return false;
  char *end = nullptr;
  errno = 0;
  long long value = std::strtoll(text, &end, 10);
  if (errno || *end || value < low || value > high)
    return false;
  *out = value;
  return true;
}

/// Reads the environment as the real library does when a communicator is
/// made; false (HCCL_E_PARA) for a malformed or out-of-range value.
bool readEnvironment(const char *api, Settings *settings) {
  long long value = 0;
  if (const char *text = std::getenv("HCCL_BUFFSIZE")) {
    if (!number(text, 1, INT_MAX, &value)) {
      fail(HCCL_E_PARA, api,
           std::string("HCCL_BUFFSIZE \"") + text +
               "\" is not a whole number of MB from 1");
      return false;
    }
    settings->BufferBytes = uint64_t(value) << 20;
  }
  if (const char *text = std::getenv("HCCL_CONNECT_TIMEOUT")) {
    if (!number(text, 120, 7200, &value)) {
      fail(HCCL_E_PARA, api,
           std::string("HCCL_CONNECT_TIMEOUT \"") + text +
               "\" is not a whole number of seconds in [120, 7200]");
      return false;
    }
    // The real wait is the setting plus 20 seconds.
    settings->ConnectTimeout = std::chrono::milliseconds((value + 20) * 1000);
  }
  // The simulation's own: a shorter wait for tests (any seconds from 1).
  if (const char *text = std::getenv("MSSIM_HCCL_CONNECT_TIMEOUT")) {
    if (!number(text, 1, 7220, &value)) {
      fail(HCCL_E_PARA, api,
           std::string("MSSIM_HCCL_CONNECT_TIMEOUT \"") + text +
               "\" is not a whole number of seconds from 1");
      return false;
    }
    settings->ConnectTimeout = std::chrono::milliseconds(value * 1000);
  }
  if (const char *text = std::getenv("HCCL_EXEC_TIMEOUT")) {
    if (!number(text, 0, INT_MAX, &value)) {
      fail(HCCL_E_PARA, api,
           std::string("HCCL_EXEC_TIMEOUT \"") + text +
               "\" is not a whole number of seconds from 0");
      return false;
    }
    settings->ExecTimeout = std::chrono::milliseconds(value * 1000);
  }
  return true;
}

/// Applies a configuration (HcclCommConfigInit's header checked, then its
/// set fields); false (HCCL_E_PARA) if it is not one.
bool readConfig(const char *api, const HcclCommConfig *config,
                Settings *settings) {
  struct Header {
    size_t Size;
    uint32_t Magic;
    uint32_t Version;
  } header;
  std::memcpy(&header, config, sizeof header);
  if (header.Magic != HCCL_COMM_CONFIG_MAGIC_WORD || header.Size == 0 ||
      header.Size > sizeof(HcclCommConfig) || header.Version == 0 ||
      header.Version > HCCL_COMM_CONFIG_VERSION) {
    fail(HCCL_E_PARA, api,
         "the configuration was not initialised by HcclCommConfigInit");
    return false;
  }
  if (config->hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET) {
    if (config->hcclBufferSize == 0) {
      fail(HCCL_E_PARA, api, "hcclBufferSize is 0 (MB, from 1)");
      return false;
    }
    settings->BufferBytes = uint64_t(config->hcclBufferSize) << 20;
  }
  if (config->hcclDeterministic != HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET &&
      config->hcclDeterministic > 2) {
    fail(HCCL_E_PARA, api, "hcclDeterministic is not 0, 1 or 2");
    return false;
  }
  size_t nameLength = strnlen(config->hcclCommName, COMM_NAME_MAX_LENGTH);
  if (nameLength == COMM_NAME_MAX_LENGTH) {
    fail(HCCL_E_PARA, api, "hcclCommName is not terminated");
    return false;
  }
  settings->Name.assign(config->hcclCommName, nameLength);
  if (config->hcclExecTimeOut != HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET) {
    if (config->hcclExecTimeOut < 0) {
      fail(HCCL_E_PARA, api, "hcclExecTimeOut is negative");
      return false;
    }
    settings->ExecTimeout =
        std::chrono::milliseconds(int64_t(config->hcclExecTimeOut) * 1000);
  }
  return true;
}

/// The device of the calling thread, or -1 with HCCL_E_RUNTIME recorded.
int32_t deviceOf(const char *api) {
  int32_t device = currentDevice();
  if (device < 0)
    fail(HCCL_E_RUNTIME, api,
         "no device is set on this thread (call aclrtSetDevice)");
  return device;
}

/// Under the registry's lock: whether a communicator of `device` has `name`.
bool nameTaken(const std::string &name, int32_t device) {
  for (const auto &entry : registry().Live)
    if (entry.second->Name == name && entry.second->Device == device)
      return true;
  return false;
}

/// Joins the group `key` as `rank` of `ranks`, waits for the others and
/// allocates the buffers: the communicator, registered, in *comm.
HcclResult makeCommunicator(const char *api, const std::string &key,
                            uint32_t ranks, uint32_t rank, int32_t device,
                            const Settings &settings, std::string name,
                            bool world, HcclComm *comm) {
  // A name the configuration gives must be its device's only one in the
  // process; the default names (the root info's, the world group's) are
  // shared by the ranks of one process, as HcclCommInitAll's.
  bool uniqueName = !settings.Name.empty();
  if (ranks > kMaxRanks)
    return fail(HCCL_E_NOT_SUPPORT, api,
                "the simulation supports at most " + std::to_string(kMaxRanks) +
                    " ranks");
  {
    std::lock_guard<std::mutex> lock(registry().Mutex);
    if (uniqueName && nameTaken(name, device))
      return fail(HCCL_E_PARA, api,
                  "a communicator named \"" + name + "\" exists already");
  }
  Outcome outcome;
  std::shared_ptr<Group> group(Group::open(key, ranks, rank, &outcome));
  if (!group)
    return fail(HCCL_E_PARA, api,
                "rank " + std::to_string(rank) +
                    " has joined already, or the other ranks were given "
                    "another number of ranks");
  outcome = group->waitForAll(settings.ConnectTimeout);
  if (outcome != Outcome::Done)
    return fail(
        outcome == Outcome::TimedOut ? HCCL_E_TIMEOUT : HCCL_E_INTERNAL, api,
        "not every one of the " + std::to_string(ranks) +
            " ranks joined within " +
            std::to_string(settings.ConnectTimeout.count() / 1000) + " s");
  auto state = std::make_shared<Communicator>();
  state->Key = key;
  state->Rank = rank;
  state->Ranks = ranks;
  state->Device = device;
  state->Transport = group;
  state->BufferBytes = settings.BufferBytes;
  state->ExecTimeout = settings.ExecTimeout;
  state->World = world;
  unsigned long long flag = driverFlag(device, MEM_DEV, HCCL_HAL_MODULE_ID);
  drvError_t error = halMemAlloc(&state->InputBuffer, state->BufferBytes, flag);
  if (error == DRV_ERROR_NONE) {
    error = halMemAlloc(&state->OutputBuffer, state->BufferBytes, flag);
    if (error != DRV_ERROR_NONE) {
      halMemFree(state->InputBuffer);
      state->InputBuffer = nullptr;
    }
  }
  if (error != DRV_ERROR_NONE) {
    group->breakGroup();
    return fail(HCCL_E_MEMORY, api,
                "cannot allocate the two CCL buffers of " +
                    std::to_string(state->BufferBytes) + " bytes on device " +
                    std::to_string(device) + " (driver error " +
                    std::to_string(error) + ")");
  }
  std::lock_guard<std::mutex> lock(registry().Mutex);
  state->Name = name.empty() ? key : name;
  if (uniqueName && nameTaken(state->Name, device)) {
    halMemFree(state->InputBuffer);
    halMemFree(state->OutputBuffer);
    return fail(HCCL_E_PARA, api,
                "a communicator named \"" + state->Name + "\" exists already");
  }
  registry().Live[state.get()] = state;
  *comm = state.get();
  return HCCL_SUCCESS;
}

/// The group key a root info carries, or "" if HcclGetRootInfo did not make
/// it.
std::string keyOf(const HcclRootInfo *rootInfo) {
  const char *text = rootInfo->internal;
  size_t magic = sizeof kRootMagic; // with its terminating NUL
  if (std::memcmp(text, kRootMagic, magic) != 0)
    return "";
  size_t length = strnlen(text + magic, HCCL_ROOT_INFO_BYTES - magic);
  if (length == 0 || length == HCCL_ROOT_INFO_BYTES - magic)
    return "";
  return std::string(text + magic, length);
}

HcclResult initRootInfo(const char *api, uint32_t nRanks,
                        const HcclRootInfo *rootInfo, uint32_t rank,
                        const HcclCommConfig *config, bool configured,
                        HcclComm *comm) {
  if (!rootInfo)
    return fail(HCCL_E_PTR, api, "rootInfo is null");
  if (configured && !config)
    return fail(HCCL_E_PTR, api, "config is null");
  int32_t device = deviceOf(api);
  if (device < 0)
    return HCCL_E_RUNTIME;
  if (nRanks == 0)
    return fail(HCCL_E_PARA, api, "nRanks is 0");
  if (rank >= nRanks)
    return fail(HCCL_E_PARA, api,
                "rank " + std::to_string(rank) + " is not below nRanks " +
                    std::to_string(nRanks));
  if (!comm)
    return fail(HCCL_E_PTR, api, "comm is null");
  Settings settings;
  if (!readEnvironment(api, &settings))
    return HCCL_E_PARA;
  if (configured && !readConfig(api, config, &settings))
    return HCCL_E_PARA;
  std::string key = keyOf(rootInfo);
  if (key.empty())
    return fail(HCCL_E_PARA, api,
                "the root info was not made by "
                "HcclGetRootInfo");
  return makeCommunicator(api, key, nRanks, rank, device, settings,
                          settings.Name, false, comm);
}

/// FNV-1a: the group key of a rank table (its path and its text).
std::string hashOf(const std::string &text) {
  uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char out[17];
  snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

HcclResult initClusterInfo(const char *api, const char *clusterInfo,
                           uint32_t rank, HcclCommConfig *config,
                           bool configured, HcclComm *comm) {
  int32_t device = deviceOf(api);
  if (device < 0)
    return HCCL_E_RUNTIME;
  if (!clusterInfo)
    return fail(HCCL_E_PTR, api, "clusterInfo is null");
  if (configured && !config)
    return fail(HCCL_E_PTR, api, "config is null");
  if (!comm)
    return fail(HCCL_E_PTR, api, "comm is null");
  char real[PATH_MAX];
  std::ifstream file;
  if (realpath(clusterInfo, real))
    file.open(real);
  if (!file.is_open() || !file)
    return fail(HCCL_E_INTERNAL, api,
                std::string("cannot read the rank table ") + clusterInfo);
  std::stringstream text;
  text << file.rdbuf();
  RankTable table;
  std::string why;
  if (!parseRankTable(text.str(), &table, &why))
    return fail(HCCL_E_PARA, api,
                std::string("the rank table ") + clusterInfo +
                    " is malformed: " + why);
  Settings settings;
  if (!readEnvironment(api, &settings))
    return HCCL_E_PARA;
  if (configured && !readConfig(api, config, &settings))
    return HCCL_E_PARA;
  {
    std::lock_guard<std::mutex> lock(registry().Mutex);
    for (const auto &entry : registry().Live)
      if (entry.second->World && entry.second->Device == device)
        return fail(HCCL_E_UNAVAIL, api,
                    "device " + std::to_string(device) +
                        " has a rank table communicator already");
  }
  if (rank >= table.Ranks.size())
    return fail(HCCL_E_PARA, api,
                "rank " + std::to_string(rank) + " is not in the rank table");
  if (table.Ranks[rank].Device != device)
    return fail(HCCL_E_PARA, api,
                "the rank table puts rank " + std::to_string(rank) +
                    " on device " + std::to_string(table.Ranks[rank].Device) +
                    ", this thread's device is " + std::to_string(device));
  std::string key = "t" + hashOf(std::string(real) + '\n' + text.str());
  std::string name = settings.Name.empty() ? kWorldGroup : settings.Name;
  return makeCommunicator(api, key, static_cast<uint32_t>(table.Ranks.size()),
                          rank, device, settings, name, true, comm);
}

HcclResult destroy(const char *api, HcclComm comm) {
  if (deviceOf(api) < 0)
    return HCCL_E_RUNTIME;
  if (!comm)
    return HCCL_SUCCESS; // the real one skips a null communicator
  std::shared_ptr<Communicator> state;
  {
    std::lock_guard<std::mutex> lock(registry().Mutex);
    auto found = registry().Live.find(comm);
    if (found == registry().Live.end())
      return fail(HCCL_E_PARA, api,
                  "the communicator does not exist or was destroyed");
    state = found->second;
    registry().Live.erase(found);
  }
  state->Destroyed = true;
  halMemFree(state->InputBuffer);
  halMemFree(state->OutputBuffer);
  state->InputBuffer = state->OutputBuffer = nullptr;
  if (state->ResetDeviceOnDestroy)
    aclrtResetDevice(state->Device);
  // The group goes with the last task that still holds it.
  return HCCL_SUCCESS;
}

HcclResult createSubComm(const char *api, HcclComm *comm, uint32_t rankNum,
                         uint32_t *rankIds, uint64_t subCommId,
                         uint32_t subCommRankId, HcclCommConfig *config,
                         HcclComm *subComm) {
  int32_t device = deviceOf(api);
  if (device < 0)
    return HCCL_E_RUNTIME;
  if (!comm || !*comm || !subComm || !config)
    return fail(HCCL_E_PTR, api, "comm, *comm, config or subComm is null");
  std::shared_ptr<Communicator> parent;
  if (HcclResult result = resolve(api, *comm, &parent))
    return result;
  // A rank outside every sub-communicator says so with these two.
  if (!rankIds && subCommId == 0xFFFFFFFFULL) {
    *subComm = nullptr;
    return HCCL_SUCCESS;
  }
  if (!rankIds)
    return fail(HCCL_E_PTR, api, "rankIds is null");
  if (parent->Sub)
    return fail(HCCL_E_NOT_SUPPORT, api,
                "a sub-communicator cannot be split further");
  if (rankNum == 0 || rankNum > parent->Ranks)
    return fail(HCCL_E_PARA, api,
                "rankNum " + std::to_string(rankNum) + " is not 1 to the " +
                    std::to_string(parent->Ranks) + " ranks");
  for (uint32_t i = 0; i < rankNum; ++i)
    if (rankIds[i] >= parent->Ranks || (i && rankIds[i] <= rankIds[i - 1]))
      return fail(HCCL_E_PARA, api,
                  "rankIds are not ascending ranks of the communicator");
  if (subCommRankId >= rankNum || rankIds[subCommRankId] != parent->Rank)
    return fail(HCCL_E_PARA, api,
                "rankIds[subCommRankId] is not this rank (" +
                    std::to_string(parent->Rank) + ")");
  Settings settings;
  if (!readEnvironment(api, &settings) || !readConfig(api, config, &settings))
    return HCCL_E_PARA;
  std::string name = settings.Name.empty()
                         ? parent->Name + "_sub_" + std::to_string(subCommId)
                         : settings.Name;
  std::string key = parent->Key + "-s" + hashOf(name);
  HcclResult result = makeCommunicator(api, key, rankNum, subCommRankId, device,
                                       settings, name, false, subComm);
  if (result == HCCL_SUCCESS)
    lookup(*subComm)->Sub = true;
  return result;
}

} // namespace

std::shared_ptr<Communicator> lookup(HcclComm handle) {
  std::lock_guard<std::mutex> lock(registry().Mutex);
  auto found = registry().Live.find(handle);
  return found == registry().Live.end() ? nullptr : found->second;
}

HcclResult resolve(const char *api, HcclComm comm,
                   std::shared_ptr<Communicator> *state) {
  *state = lookup(comm);
  if (!*state)
    return fail(HCCL_E_PARA, api,
                "the communicator does not exist or was destroyed");
  return HCCL_SUCCESS;
}

HcclResult fail(HcclResult code, const char *api, const std::string &message) {
  recordErrorMessage(api, message, code);
  return code;
}

} // namespace hccl
} // namespace mssim

using namespace mssim;
using namespace mssim::hccl;

extern "C" {

__attribute__((visibility("default"))) HcclResult
HcclGetRootInfo(HcclRootInfo *rootInfo) {
  const char *api = "HcclGetRootInfo";
  if (deviceOf(api) < 0)
    return HCCL_E_RUNTIME;
  if (!rootInfo)
    return fail(HCCL_E_PTR, api, "rootInfo is null");
  Settings settings;
  if (!readEnvironment(api, &settings))
    return HCCL_E_PARA;
  sweepStaleSegments();
  static std::atomic<uint64_t> counter{0};
  std::random_device random;
  char key[96];
  snprintf(key, sizeof key, "r%d-%llu-%08x%08x", static_cast<int>(getpid()),
           static_cast<unsigned long long>(counter++), random(), random());
  std::memset(rootInfo->internal, 0, HCCL_ROOT_INFO_BYTES);
  std::memcpy(rootInfo->internal, kRootMagic, sizeof kRootMagic);
  std::memcpy(rootInfo->internal + sizeof kRootMagic, key, strlen(key));
  return HCCL_SUCCESS;
}

__attribute__((visibility("default"))) HcclResult
HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo,
                     uint32_t rank, HcclComm *comm) {
  return initRootInfo("HcclCommInitRootInfo", nRanks, rootInfo, rank, nullptr,
                      false, comm);
}

__attribute__((visibility("default"))) HcclResult
HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo,
                           uint32_t rank, const HcclCommConfig *config,
                           HcclComm *comm) {
  return initRootInfo("HcclCommInitRootInfoConfig", nRanks, rootInfo, rank,
                      config, true, comm);
}

__attribute__((visibility("default"))) HcclResult
HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank,
                        HcclComm *comm) {
  return initClusterInfo("HcclCommInitClusterInfo", clusterInfo, rank, nullptr,
                         false, comm);
}

__attribute__((visibility("default"))) HcclResult
HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank,
                              HcclCommConfig *config, HcclComm *comm) {
  return initClusterInfo("HcclCommInitClusterInfoConfig", clusterInfo, rank,
                         config, true, comm);
}

__attribute__((visibility("default"))) HcclResult
HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms) {
  const char *api = "HcclCommInitAll";
  if (deviceOf(api) < 0)
    return HCCL_E_RUNTIME;
  if (ndev == 0)
    return fail(HCCL_E_PARA, api, "ndev is 0");
  if (!comms)
    return fail(HCCL_E_PTR, api, "comms is null");
  if (!devices)
    return fail(HCCL_E_PTR, api, "devices is null");
  if (std::set<int32_t>(devices, devices + ndev).size() != ndev)
    return fail(HCCL_E_PARA, api, "a device is listed twice");
  HcclRootInfo root;
  if (HcclResult result = HcclGetRootInfo(&root))
    return result;
  for (uint32_t i = 0; i < ndev; ++i)
    comms[i] = nullptr;
  // As the real one: a thread per device sets it and joins as its rank;
  // destroying the communicator resets the device.
  std::vector<std::thread> threads;
  std::vector<HcclResult> results(ndev, HCCL_SUCCESS);
  for (uint32_t i = 0; i < ndev; ++i)
    threads.emplace_back([&, i] {
      if (aclrtSetDevice(devices[i]) != ACL_SUCCESS) {
        results[i] = HCCL_E_INTERNAL;
        return;
      }
      results[i] = HcclCommInitRootInfo(ndev, &root, i, &comms[i]);
      if (results[i] != HCCL_SUCCESS) {
        comms[i] = nullptr;
        aclrtResetDevice(devices[i]);
        return;
      }
      lookup(comms[i])->ResetDeviceOnDestroy = true;
    });
  for (std::thread &thread : threads)
    thread.join();
  for (uint32_t i = 0; i < ndev; ++i)
    if (results[i] != HCCL_SUCCESS) {
      for (uint32_t j = 0; j < ndev; ++j)
        if (comms[j]) {
          destroy(api, comms[j]);
          comms[j] = nullptr;
        }
      return fail(HCCL_E_INTERNAL, api,
                  "the communicator of device " + std::to_string(devices[i]) +
                      " could not be made (" + std::to_string(results[i]) +
                      ")");
    }
  return HCCL_SUCCESS;
}

__attribute__((visibility("default"))) HcclResult
HcclCreateSubCommConfig(HcclComm *comm, uint32_t rankNum, uint32_t *rankIds,
                        uint64_t subCommId, uint32_t subCommRankId,
                        HcclCommConfig *config, HcclComm *subComm) {
  return createSubComm("HcclCreateSubCommConfig", comm, rankNum, rankIds,
                       subCommId, subCommRankId, config, subComm);
}

__attribute__((visibility("default"))) HcclResult
HcclCommDestroy(HcclComm comm) {
  return destroy("HcclCommDestroy", comm);
}

__attribute__((visibility("default"))) HcclResult
HcclGetRankSize(HcclComm comm, uint32_t *rankSize) {
  const char *api = "HcclGetRankSize";
  if (!comm || !rankSize)
    return fail(HCCL_E_PTR, api, "comm or rankSize is null");
  std::shared_ptr<Communicator> state;
  if (HcclResult result = resolve(api, comm, &state))
    return result;
  *rankSize = state->Ranks;
  return HCCL_SUCCESS;
}

__attribute__((visibility("default"))) HcclResult
HcclGetRankId(HcclComm comm, uint32_t *rank) {
  const char *api = "HcclGetRankId";
  if (!comm || !rank)
    return fail(HCCL_E_PTR, api, "comm or rank is null");
  std::shared_ptr<Communicator> state;
  if (HcclResult result = resolve(api, comm, &state))
    return result;
  *rank = state->Rank;
  return HCCL_SUCCESS;
}

__attribute__((visibility("default"))) HcclResult
HcclGetCommName(HcclComm comm, char *commName) {
  const char *api = "HcclGetCommName";
  if (!comm || !commName)
    return fail(HCCL_E_PTR, api, "comm or commName is null");
  std::shared_ptr<Communicator> state;
  if (HcclResult result = resolve(api, comm, &state))
    return result;
  size_t length =
      std::min<size_t>(state->Name.size(), COMM_NAME_MAX_LENGTH - 1);
  std::memcpy(commName, state->Name.data(), length);
  commName[length] = '\0';
  return HCCL_SUCCESS;
}

__attribute__((visibility("default"))) HcclResult
HcclCommGetHandleWithName(const char *commName, HcclComm *comm) {
  const char *api = "HcclCommGetHandleWithName";
  if (!commName || !comm)
    return fail(HCCL_E_PTR, api, "commName or comm is null");
  std::lock_guard<std::mutex> lock(registry().Mutex);
  for (const auto &entry : registry().Live)
    if (entry.second->Name == commName) {
      *comm = entry.second.get();
      return HCCL_SUCCESS;
    }
  return fail(HCCL_E_PARA, api,
              std::string("no communicator is named \"") + commName + "\"");
}

__attribute__((visibility("default"))) HcclResult
HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError) {
  const char *api = "HcclGetCommAsyncError";
  if (!comm || !asyncError)
    return fail(HCCL_E_PTR, api, "comm or asyncError is null");
  std::shared_ptr<Communicator> state;
  if (HcclResult result = resolve(api, comm, &state))
    return result;
  *asyncError = static_cast<HcclResult>(state->AsyncError.load());
  return HCCL_SUCCESS;
}

__attribute__((visibility("default"))) const char *
HcclGetErrorString(HcclResult code) {
  switch (code) {
  case HCCL_SUCCESS:
    return "success";
  case HCCL_E_PARA:
    return "parameter error";
  case HCCL_E_PTR:
    return "empty pointer";
  case HCCL_E_MEMORY:
    return "memory error";
  case HCCL_E_INTERNAL:
    return "internal error";
  case HCCL_E_NOT_SUPPORT:
    return "not support feature";
  case HCCL_E_NOT_FOUND:
    return "not found specific resource";
  case HCCL_E_UNAVAIL:
    return "resource unavailable";
  case HCCL_E_SYSCALL:
    return "call system interface error";
  case HCCL_E_TIMEOUT:
    return "timeout";
  case HCCL_E_OPEN_FILE_FAILURE:
    return "open file fail";
  case HCCL_E_TCP_CONNECT:
    return "tcp connect fail";
  case HCCL_E_ROCE_CONNECT:
    return "roce connect fail";
  case HCCL_E_TCP_TRANSFER:
    return "tcp transfer fail";
  case HCCL_E_ROCE_TRANSFER:
    return "roce transfer fail";
  case HCCL_E_RUNTIME:
    return "call runtime api fail";
  case HCCL_E_DRV:
    return "call driver api fail";
  case HCCL_E_PROFILING:
    return "call profiling api fail";
  case HCCL_E_CCE:
    return "call cce api fail";
  case HCCL_E_NETWORK:
    return "call network api fail";
  case HCCL_E_AGAIN:
    return "try again";
  case HCCL_E_REMOTE:
    return "error cqe";
  case HCCL_E_SUSPENDING:
    return "error communicator suspending";
  case HCCL_E_OPRETRY_FAIL:
    return "retry constraint";
  case HCCL_E_OOM:
    return "out of memory";
  case HCCL_E_IN_STATUS:
    return "the error information is in the status";
  default:
    return "unknown error";
  }
}

} // extern "C"
