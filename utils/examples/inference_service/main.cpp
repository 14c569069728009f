// inference_service: a long-running AscendCL service in the shape of an
// inference server, for msledger's reports of a process that does not exit.
//
// Each request stages its output in 1 MiB of device memory that it never
// frees (the leak, at the line marked LEAK) and looks its input up in a
// bounded cache of device buffers that holds at most kCacheEntries and frees
// the oldest (live memory that rises, then holds: not a leak, at the line
// marked CACHE). It serves `requests` requests (default: until killed),
// `interval_ms` apart (default 50).
//
//   inference_service [requests] [interval_ms]
#include "acl/acl.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <thread>

namespace {

constexpr size_t kOutputBytes = 1 << 20;
constexpr size_t kCacheEntries = 4;
constexpr size_t kCacheEntryBytes = 256 << 10;

#define CHECK_ACL(call)                                                        \
  do {                                                                         \
    aclError status_ = (call);                                                 \
    if (status_ != ACL_SUCCESS) {                                              \
      std::fprintf(stderr, "%s failed: %d\n", #call, status_);                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

std::deque<void *> cache;

void *cachedInput() {
  void *entry = nullptr;
  CHECK_ACL(aclrtMalloc(&entry, kCacheEntryBytes,
                        ACL_MEM_MALLOC_HUGE_FIRST)); // CACHE
  cache.push_back(entry);
  if (cache.size() > kCacheEntries) {
    CHECK_ACL(aclrtFree(cache.front()));
    cache.pop_front();
  }
  return entry;
}

void *stageOutput() {
  void *output = nullptr;
  CHECK_ACL(
      aclrtMalloc(&output, kOutputBytes, ACL_MEM_MALLOC_HUGE_FIRST)); // LEAK
  return output;
}

void serve(unsigned request) {
  void *input = cachedInput();
  void *output = stageOutput();
  (void)input;
  (void)output;
  if (request % 10 == 0)
    std::printf("served %u requests\n", request);
}

} // namespace

int main(int argc, char **argv) {
  long requests = argc > 1 ? std::atol(argv[1]) : -1;
  long intervalMs = argc > 2 ? std::atol(argv[2]) : 50;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  for (unsigned request = 1; requests < 0 || request <= requests; ++request) {
    serve(request);
    std::this_thread::sleep_for(std::chrono::milliseconds(intervalMs));
  }
  std::fflush(stdout);
  return 0;
}
