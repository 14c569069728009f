//===- sanitizer_hooks.cpp - msSanitizer's swapped-header functions -------===//
//
// A project built for msSanitizer includes its swapped acl.h, whose macros
// turn aclrtMalloc(p, n, policy) into sanitizerRtMalloc(p, n, policy,
// __FILE__, __LINE__) and the like, and links libascend_acl_hook.so. These
// are msledger's definitions of those functions, with the same signatures:
// each makes the ACL call it stands for, with the file and line as the
// call's site. They are compiled into libmsledger_preload.so, so that under
// the launcher they take the place of msSanitizer's own (nothing to rebuild
// or relink), into libmsledger.so, and into msledger's libascend_acl_hook.so
// (to link in place of msSanitizer's). __sanitizer_report_malloc / _free,
// msSanitizer's manual reports of GM memory, are recorded too.
//
// A call reaches the ACL function the process would have called: the
// interposer when the preload library is loaded (which records it with the
// site, and attributes the driver calls it makes to the same site), else
// the toolkit's own, and the event is recorded (a copy or set checked,
// Ledger::access) here. The ACL functions' types are the runtime's own
// declarations (cann_api.h), made from the catalog's signatures.
//
//===----------------------------------------------------------------------===//
#include "cann_api.h"
#include "fnv1a.h"
#include "msledger/msledger.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#define MSLEDGER_SANITIZER_HOOK                                                \
  extern "C" __attribute__((visibility("default")))

namespace {

/// The site of `callee` called at `file`:`line`, made once and kept: the
/// ledger holds on to sites. Its serial is fnv1a64 of "FILE:LINE:CALLEE",
/// the same in every run.
const msledger_site *siteAt(const char *callee, const char *file, int line) {
  if (!file || !*file)
    return nullptr;
  static std::mutex mutex;
  static auto *sites =
      new std::map<std::tuple<std::string, int, std::string>, msledger_site>;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_tuple(std::string(file), line, std::string(callee));
  auto found = sites->find(key);
  if (found == sites->end()) {
    msledger_site site{};
    site.line = line > 0 ? static_cast<uint32_t>(line) : 0;
    site.serial = msledger::fnv1a64(std::string(file) + ":" +
                                    std::to_string(line) + ":" + callee);
    found = sites->emplace(key, site).first;
    // The strings of the key are the site's: a map never moves its nodes.
    found->second.file = std::get<0>(found->first).c_str();
    found->second.callee = std::get<2>(found->first).c_str();
  }
  return &found->second;
}

/// The function the application would call for the catalog function `name`,
/// of its type in cann_api.h: the interposer if the preload library is
/// loaded ahead of the toolkit, else the toolkit's.
#define MSLEDGER_RESOLVE(name)                                                 \
  reinterpret_cast<decltype(&name)>(dlsym(RTLD_DEFAULT, #name))

aclError missing(const char *name) {
  fprintf(stderr, "msledger: %s is not in this process's libraries\n", name);
  return ACL_ERROR_FEATURE_UNSUPPORTED;
}

/// The call through msledger's interposer with `site`, if the interposer is
/// active (it records the event): true, and *result is the call's.
template <typename Call>
bool viaInterposer(int api, const msledger_site *site, Call call,
                   aclError *result) {
  if (!msledger_api_interposed(api))
    return false;
  msledger_set_site(site);
  *result = call();
  return true;
}

/// An allocation through `name` at `file`:`line`.
template <typename Call>
aclError allocate(const char *name, msledger_space space, void **devPtr,
                  size_t size, const char *file, int line, Call call) {
  const msledger_site *site = siteAt(name, file, line);
  int api = msledger_api_index(name);
  aclError result;
  if (viaInterposer(api, site, call, &result))
    return result;
  result = call();
  if (result == ACL_SUCCESS && devPtr && *devPtr)
    msledger_record_acquire(api, reinterpret_cast<uintptr_t>(*devPtr), size,
                            space, site);
  return result;
}

/// A copy or set through `name` at `file`:`line`, touching `ranges`: the
/// interposer checks it when it is active, else it is checked here.
template <typename Call>
aclError access(const char *name, const char *file, int line, uint64_t write,
                uint64_t writeSize, uint64_t read, uint64_t readSize,
                int direction, Call call) {
  const msledger_site *site = siteAt(name, file, line);
  int api = msledger_api_index(name);
  aclError result;
  if (viaInterposer(api, site, call, &result))
    return result;
  msledger_record_access(api, site, write, writeSize, read, readSize,
                         direction);
  return call();
}

uint64_t address(const void *pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

} // namespace

MSLEDGER_SANITIZER_HOOK aclError sanitizerRtMalloc(void **devPtr, size_t size,
                                                   aclrtMemMallocPolicy policy,
                                                   char const *filename,
                                                   int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMalloc);
  if (!real)
    return missing("aclrtMalloc");
  return allocate("aclrtMalloc", MSLEDGER_SPACE_GM, devPtr, size, filename,
                  lineno, [&] { return real(devPtr, size, policy); });
}

MSLEDGER_SANITIZER_HOOK aclError
sanitizerRtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                        char const *filename, int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMallocCached);
  if (!real)
    return missing("aclrtMallocCached");
  return allocate("aclrtMallocCached", MSLEDGER_SPACE_GM, devPtr, size,
                  filename, lineno, [&] { return real(devPtr, size, policy); });
}

MSLEDGER_SANITIZER_HOOK aclError sanitizerDvppMalloc(void **devPtr, size_t size,
                                                     char const *filename,
                                                     int lineno) {
  static const auto real = MSLEDGER_RESOLVE(acldvppMalloc);
  if (!real)
    return missing("acldvppMalloc");
  return allocate("acldvppMalloc", MSLEDGER_SPACE_DVPP, devPtr, size, filename,
                  lineno, [&] { return real(devPtr, size); });
}

MSLEDGER_SANITIZER_HOOK aclError sanitizerRtFree(void *devPtr,
                                                 char const *filename,
                                                 int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtFree);
  if (!real)
    return missing("aclrtFree");
  const msledger_site *site = siteAt("aclrtFree", filename, lineno);
  int api = msledger_api_index("aclrtFree");
  aclError result;
  if (viaInterposer(
          api, site, [&] { return real(devPtr); }, &result))
    return result;
  msledger_release state;
  msledger_release_begin(api, reinterpret_cast<uintptr_t>(devPtr), site,
                         &state);
  result = real(devPtr);
  msledger_release_end(&state, result == ACL_SUCCESS);
  return result;
}

MSLEDGER_SANITIZER_HOOK aclError sanitizerRtMemset(void *devPtr,
                                                   size_t maxCount,
                                                   int32_t value, size_t count,
                                                   char const *filename,
                                                   int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMemset);
  if (!real)
    return missing("aclrtMemset");
  return access("aclrtMemset", filename, lineno, address(devPtr), count, 0, 0,
                -1, [&] { return real(devPtr, maxCount, value, count); });
}

MSLEDGER_SANITIZER_HOOK aclError sanitizerRtMemsetAsync(
    void *devPtr, size_t maxCount, int32_t value, size_t count,
    aclrtStream stream, char const *filename, int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMemsetAsync);
  if (!real)
    return missing("aclrtMemsetAsync");
  return access("aclrtMemsetAsync", filename, lineno, address(devPtr), count, 0,
                0, -1,
                [&] { return real(devPtr, maxCount, value, count, stream); });
}

MSLEDGER_SANITIZER_HOOK aclError
sanitizerRtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                  aclrtMemcpyKind kind, char const *filename, int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMemcpy);
  if (!real)
    return missing("aclrtMemcpy");
  return access("aclrtMemcpy", filename, lineno, address(dst), count,
                address(src), count, kind,
                [&] { return real(dst, destMax, src, count, kind); });
}

MSLEDGER_SANITIZER_HOOK aclError
sanitizerRtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                       aclrtMemcpyKind kind, aclrtStream stream,
                       char const *filename, int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMemcpyAsync);
  if (!real)
    return missing("aclrtMemcpyAsync");
  return access("aclrtMemcpyAsync", filename, lineno, address(dst), count,
                address(src), count, kind,
                [&] { return real(dst, destMax, src, count, kind, stream); });
}

MSLEDGER_SANITIZER_HOOK aclError sanitizerRtMemcpy2d(
    void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
    size_t height, aclrtMemcpyKind kind, char const *filename, int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMemcpy2d);
  if (!real)
    return missing("aclrtMemcpy2d");
  return access("aclrtMemcpy2d", filename, lineno, address(dst),
                msledger_extent_2d(dpitch, width, height), address(src),
                msledger_extent_2d(spitch, width, height), kind, [&] {
                  return real(dst, dpitch, src, spitch, width, height, kind);
                });
}

MSLEDGER_SANITIZER_HOOK aclError sanitizerRtMemcpy2dAsync(
    void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
    size_t height, aclrtMemcpyKind kind, aclrtStream stream,
    char const *filename, int lineno) {
  static const auto real = MSLEDGER_RESOLVE(aclrtMemcpy2dAsync);
  if (!real)
    return missing("aclrtMemcpy2dAsync");
  return access("aclrtMemcpy2dAsync", filename, lineno, address(dst),
                msledger_extent_2d(dpitch, width, height), address(src),
                msledger_extent_2d(spitch, width, height), kind, [&] {
                  return real(dst, dpitch, src, spitch, width, height, kind,
                              stream);
                });
}

namespace {

/// The API msSanitizer's manual reports are recorded as: GM memory of its
/// own family (its release through aclrtFree is a mismatched free).
int reportedApi(bool release) {
  static const std::array<int, 2> indices = [] {
    msledger_api_description alloc{};
    alloc.name = "sanitizerReportMalloc";
    alloc.role = "alloc";
    alloc.family = "sanitizer reported memory";
    alloc.display = "memory reported by sanitizerReportMalloc";
    alloc.level = "cann";
    alloc.kind = "memory";
    alloc.space = "GM";
    alloc.name_space = "memory";
    alloc.handle_is_address = 1;
    alloc.has_handle = 1;
    msledger_api_description free = alloc;
    free.name = "sanitizerReportFree";
    free.role = "free";
    return std::array<int, 2>{msledger_register_api(&alloc),
                              msledger_register_api(&free)};
  }();
  return indices[release ? 1 : 0];
}

} // namespace

MSLEDGER_SANITIZER_HOOK void __sanitizer_report_malloc(void *ptr,
                                                       uint64_t size) {
  int api = reportedApi(false);
  if (api >= 0 && ptr)
    msledger_record_acquire(api, reinterpret_cast<uintptr_t>(ptr), size,
                            MSLEDGER_SPACE_GM, nullptr);
}

MSLEDGER_SANITIZER_HOOK void __sanitizer_report_free(void *ptr) {
  int api = reportedApi(true);
  if (api >= 0 && ptr)
    msledger_record_release(api, reinterpret_cast<uintptr_t>(ptr), 1, nullptr);
}
