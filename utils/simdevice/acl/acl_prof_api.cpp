//===- acl_prof_api.cpp - libmsprofiler.so: profiling sessions, msproftx --===//
//
// The profiling interfaces an application's control flow depends on, with the
// real library's checks and error codes: a session (init with a result
// folder, created if missing; configs naming devices; start, stop, finalize)
// and msproftx stamps, marks and ranges (stamps only while msproftx is on,
// 100 at most, freed by aclprofFinalize). Nothing is collected: no data is
// written to the result folder. Configs, step infos and stamps are host
// objects the runtime tracks, so a destroyed or unknown one is refused as
// the real library refuses it. Model subscriptions: a subscribe
// configuration (a host object naming the caller's pipe descriptor) and a
// subscription per loaded model, which the real library's mode rules keep
// apart from an aclprofInit session; unsubscribing closes the descriptor
// (unless another subscription writes to it) and sets the caller's copy to
// -1, as the real library does. No operator data is written to the pipe:
// the operator-info readers are generated stand-ins (not simulated).
//
//===----------------------------------------------------------------------===//
#include "acl/acl_prof.h"
#include "runtime.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace mssim;

struct aclprofConfig {
  std::vector<uint32_t> devices;
  uint64_t dataTypeConfig = 0;
};
struct aclprofStepInfo {
  uint64_t timestamps[2] = {};
};
struct aclprofSubscribeConfig {
  int8_t timeInfo = 0;
  aclprofAicoreMetrics aicoreMetrics = ACL_AICORE_NONE;
  int *fd = nullptr; // the caller's descriptor, as the real config keeps it
};

namespace {

struct Stamp {
  std::string message;
};

/// The profiling session: initialised by aclprofInit, the devices started.
struct Session {
  std::mutex Mutex;
  bool Initialized = false;
  std::string ResultPath;
  std::set<uint32_t> Started;
  std::vector<Stamp *> Pushed; // aclprofPush / aclprofPop, per process
  std::set<uint32_t> OpenRanges;
  uint32_t NextRange = 1;
  /// msproftx: on from an aclprofStart of a config with ACL_PROF_MSPROFTX
  /// to aclprofFinalize, which frees the stamps still live (the real
  /// library's stamp pool goes with it).
  bool TxOn = false;
  std::set<Stamp *> Stamps;
  /// Model subscriptions: model id -> the caller's descriptor. While there
  /// is one, the session cannot be initialised, and the other way round.
  std::map<uint32_t, int *> Subscriptions;
};

Session &session() {
  static Session *s = new Session; // never destroyed: used from atexit code
  return *s;
}

/// mkdir -p `path`; false if a component cannot be made a folder.
bool makeFolders(const std::string &path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/')
      continue;
    std::string prefix = path.substr(0, at);
    if (mkdir(prefix.c_str(), 0750) != 0 && errno != EEXIST)
      return false;
  }
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

constexpr size_t MaxPathLength = 4096;
constexpr size_t MaxConfigLength = 256;
constexpr uint32_t MaxTraceMessage = 128;
/// The real library's stamp pool holds this many.
constexpr size_t MaxStamps = 100;

bool validDeviceList(const uint32_t *devices, uint32_t count) {
  uint32_t available = 0;
  aclrtGetDeviceCount(&available);
  if (count > available || (count != 0 && devices == nullptr))
    return false;
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < count; ++i)
    if (devices[i] >= available || !seen.insert(devices[i]).second)
      return false;
  return true;
}

/// aclprofStart / aclprofStop: every device of `config` changes state, or
/// none does.
aclError startOrStop(const char *api, const aclprofConfig *config, bool start) {
  if (!Runtime::instance().isLive(config, HandleKind::ProfConfig))
    return fail(ACL_ERROR_INVALID_PARAM, api, "the config does not exist");
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (!s.Initialized)
    return fail(ACL_ERROR_PROF_NOT_RUN, api,
                "profiling was not initialised (aclprofInit)");
  for (uint32_t device : config->devices) {
    if (start && s.Started.count(device))
      return fail(ACL_ERROR_PROF_ALREADY_RUN, api,
                  "device " + std::to_string(device) + " is being profiled");
    if (!start && !s.Started.count(device))
      return fail(ACL_ERROR_PROF_NOT_RUN, api,
                  "device " + std::to_string(device) + " is not profiled");
  }
  for (uint32_t device : config->devices)
    if (start)
      s.Started.insert(device);
    else
      s.Started.erase(device);
  if (start && (config->dataTypeConfig & ACL_PROF_MSPROFTX))
    s.TxOn = true;
  return ACL_SUCCESS;
}

/// Under the session's lock: ends the session; its stamps go with it.
void endSession(Session &s) {
  s.Initialized = false;
  s.Started.clear();
  s.TxOn = false;
  for (Stamp *stamp : s.Stamps)
    destroyHandle("aclprofFinalize", stamp, HandleKind::ProfStamp);
  s.Stamps.clear();
  s.Pushed.clear();
}

} // namespace

extern "C" {

MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath,
                                   size_t length) {
  if (profilerResultPath == nullptr || length == 0 || length > MaxPathLength ||
      strnlen(profilerResultPath, length + 1) != length)
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofInit",
                "the result path must be a string of `length` characters");
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (s.Initialized)
    return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit",
                "profiling is already initialised");
  if (!s.Subscriptions.empty())
    return fail(ACL_ERROR_PROF_API_CONFLICT, "aclprofInit",
                "models are subscribed (aclprofModelSubscribe): the two "
                "profiling modes exclude each other");
  std::string path(profilerResultPath, length);
  if (!makeFolders(path))
    return fail(ACL_ERROR_INVALID_FILE, "aclprofInit",
                "cannot create the result folder " + path);
  s.Initialized = true;
  s.ResultPath = path;
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofFinalize(void) {
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (!s.Initialized)
    return fail(ACL_ERROR_PROF_NOT_RUN, "aclprofFinalize",
                "profiling was not initialised");
  endSession(s);
  return ACL_SUCCESS;
}

/// aclFinalize's end of an aclprofInit session (runtime.h).
MSSIM_SHARED void mssim::mssim_profFinalizeSession() {
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (s.Initialized)
    endSession(s);
}

MSVP_PROF_API aclprofConfig *
aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                    aclprofAicoreMetrics aicoreMetrics,
                    const aclprofAicoreEvents *aicoreEvents,
                    uint64_t dataTypeConfig) {
  (void)aicoreMetrics;
  if (aicoreEvents != nullptr || !validDeviceList(deviceIdList, deviceNums) ||
      (deviceNums == 0 && (dataTypeConfig & ACL_PROF_MSPROFTX) == 0)) {
    fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig",
         "invalid device list, events or data types");
    return nullptr;
  }
  auto *config = new aclprofConfig;
  config->devices.assign(deviceIdList, deviceIdList + deviceNums);
  config->dataTypeConfig = dataTypeConfig;
  return trackHandle(config, HandleKind::ProfConfig);
}

MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *config) {
  return destroyHandle("aclprofDestroyConfig", config, HandleKind::ProfConfig);
}

MSVP_PROF_API aclError aclprofStart(const aclprofConfig *config) {
  return startOrStop("aclprofStart", config, /*start=*/true);
}

MSVP_PROF_API aclError aclprofStop(const aclprofConfig *config) {
  return startOrStop("aclprofStop", config, /*start=*/false);
}

MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType,
                                        const char *config,
                                        size_t configLength) {
  if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX ||
      config == nullptr || configLength == 0 || configLength > MaxConfigLength)
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofSetConfig",
                "invalid config type or value");
  return ACL_SUCCESS;
}

MSVP_PROF_API aclprofStepInfo *aclprofCreateStepInfo(void) {
  return trackHandle(new aclprofStepInfo, HandleKind::ProfStepInfo);
}

MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo) {
  if (stepinfo)
    destroyHandle("aclprofDestroyStepInfo", stepinfo, HandleKind::ProfStepInfo);
}

MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo,
                                               aclprofStepTag tag,
                                               aclrtStream stream) {
  (void)stream;
  if (!Runtime::instance().isLive(stepInfo, HandleKind::ProfStepInfo) ||
      (tag != ACL_STEP_START && tag != ACL_STEP_END))
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofGetStepTimestamp",
                "unknown step info or tag");
  stepInfo->timestamps[tag] = static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  return ACL_SUCCESS;
}

MSVP_PROF_API void *aclprofCreateStamp(void) {
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (!s.TxOn) {
    fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateStamp",
         "msproftx is not on: aclprofStart a config with ACL_PROF_MSPROFTX "
         "first");
    return nullptr;
  }
  if (s.Stamps.size() >= MaxStamps) {
    fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateStamp",
         "all 100 stamps are in use");
    return nullptr;
  }
  Stamp *stamp = trackHandle(new Stamp, HandleKind::ProfStamp);
  s.Stamps.insert(stamp);
  return stamp;
}

MSVP_PROF_API void aclprofDestroyStamp(void *stamp) {
  if (!stamp)
    return;
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  // A stamp aclprofFinalize freed, or one never made, is left alone.
  if (s.Stamps.erase(static_cast<Stamp *>(stamp)))
    destroyHandle("aclprofDestroyStamp", static_cast<Stamp *>(stamp),
                  HandleKind::ProfStamp);
  else
    fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroyStamp",
         hexAddress(stamp) + " does not exist or was destroyed");
}

MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg,
                                                   uint32_t msgLen) {
  if (!Runtime::instance().isLive(stamp, HandleKind::ProfStamp) ||
      msg == nullptr || msgLen == 0 || msgLen > MaxTraceMessage)
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofSetStampTraceMessage",
                "unknown stamp, or a message not of 1 to 128 characters");
  static_cast<Stamp *>(stamp)->message.assign(msg, strnlen(msg, msgLen));
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofMark(void *stamp) {
  if (!Runtime::instance().isLive(stamp, HandleKind::ProfStamp))
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofMark", "unknown stamp");
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen,
                                     aclrtStream stream) {
  (void)stream;
  if (msg == nullptr || msgLen == 0 || msgLen > MaxTraceMessage)
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofMarkEx",
                "a message of 1 to 128 characters is required");
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofPush(void *stamp) {
  if (!Runtime::instance().isLive(stamp, HandleKind::ProfStamp))
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofPush", "unknown stamp");
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  s.Pushed.push_back(static_cast<Stamp *>(stamp));
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofPop(void) {
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (s.Pushed.empty())
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofPop", "no stamp was pushed");
  s.Pushed.pop_back();
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId) {
  if (!Runtime::instance().isLive(stamp, HandleKind::ProfStamp) ||
      rangeId == nullptr)
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofRangeStart",
                "unknown stamp or null range id");
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  *rangeId = s.NextRange++;
  s.OpenRanges.insert(*rangeId);
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId) {
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (!s.OpenRanges.erase(rangeId))
    return fail(ACL_ERROR_INVALID_PARAM, "aclprofRangeStop",
                "range " + std::to_string(rangeId) + " is not open");
  return ACL_SUCCESS;
}

// Model subscriptions.
MSVP_PROF_API aclprofSubscribeConfig *
aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                             aclprofAicoreMetrics aicoreMetrics, void *fd) {
  if (fd == nullptr || (timeInfoSwitch != 0 && timeInfoSwitch != 1)) {
    fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig",
         "a null descriptor, or a time switch neither 0 nor 1");
    return nullptr;
  }
  auto *config = new aclprofSubscribeConfig;
  config->timeInfo = timeInfoSwitch;
  config->aicoreMetrics = aicoreMetrics;
  config->fd = static_cast<int *>(fd);
  return trackHandle(config, HandleKind::ProfSubscribeConfig);
}

MSVP_PROF_API aclError aclprofDestroySubscribeConfig(
    const aclprofSubscribeConfig *profSubscribeConfig) {
  return destroyHandle("aclprofDestroySubscribeConfig", profSubscribeConfig,
                       HandleKind::ProfSubscribeConfig);
}

MSVP_PROF_API aclError aclprofModelSubscribe(
    uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig) {
  const char *api = "aclprofModelSubscribe";
  Runtime &rt = Runtime::instance();
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    if (!rt.Models.count(modelId))
      return fail(ACL_ERROR_INVALID_MODEL_ID, api,
                  "model " + std::to_string(modelId) + " is not loaded");
  }
  if (!rt.isLive(profSubscribeConfig, HandleKind::ProfSubscribeConfig))
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the subscribe config does not exist");
  if (profSubscribeConfig->timeInfo == 0 &&
      profSubscribeConfig->aicoreMetrics == ACL_AICORE_NONE)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the config asks for nothing (time switch 0, no AI Core "
                "metrics)");
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  if (s.Initialized)
    return fail(ACL_ERROR_PROF_API_CONFLICT, api,
                "profiling is initialised (aclprofInit): the two profiling "
                "modes exclude each other");
  if (s.Subscriptions.count(modelId))
    return fail(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, api,
                "model " + std::to_string(modelId) + " is already subscribed");
  s.Subscriptions[modelId] = profSubscribeConfig->fd;
  return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId) {
  const char *api = "aclprofModelUnSubscribe";
  Runtime &rt = Runtime::instance();
  {
    std::lock_guard<std::mutex> lock(rt.Mutex);
    if (!rt.Models.count(modelId))
      return fail(ACL_ERROR_INVALID_MODEL_ID, api,
                  "model " + std::to_string(modelId) + " is not loaded");
  }
  Session &s = session();
  std::lock_guard<std::mutex> lock(s.Mutex);
  auto it = s.Subscriptions.find(modelId);
  if (it == s.Subscriptions.end())
    return fail(ACL_ERROR_INVALID_MODEL_ID, api,
                "model " + std::to_string(modelId) + " is not subscribed");
  int *fd = it->second;
  s.Subscriptions.erase(it);
  for (const auto &other : s.Subscriptions)
    if (*other.second == *fd)
      return ACL_SUCCESS; // another subscription still writes to it
  close(*fd);
  *fd = -1;
  return ACL_SUCCESS;
}

} // extern "C"
