// soak: a service-shaped program for utils/benchmarks/soak.py. Each
// request takes scratch buffers and frees them, and looks its input up in
// a bounded cache of device buffers (at most kCache, the oldest freed: live
// memory that rises, then holds, at the line marked CACHE); about kLeaks
// times over the run a request keeps one buffer for good (the slow leak, at
// the line marked LEAK). It runs until it has made `events` tracked events.
//
// What it holds is its own bookkeeping in TRUTH_FILE, a shared mapping that
// a kill -9 leaves as it was: the cache, the leaks, the scratch buffer, and
// the call in flight (an allocation of a size, or the release of an
// address), whose effect a journal may or may not hold at the kill.
//
//   soak EVENTS TRUTH_FILE
#define _POSIX_C_SOURCE 200809L
#include "acl/acl.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kCache = 64, kMaxLeaks = 1 << 16, kScratchPairs = 16 };
enum { kLeaks = 200 };
enum { kNone = 0, kAllocating = 1, kReleasing = 2 };

// The layout soak.py reads: little-endian 64-bit words.
struct Truth {
  uint64_t magic; // "SOAKTRTH" once set up
  uint64_t events;
  uint64_t pending, pendingAddress, pendingSize;
  uint64_t scratch, scratchSize;
  uint64_t cacheAddress[kCache], cacheSize[kCache];
  uint64_t leaks;
  uint64_t leakAddress[kMaxLeaks], leakSize[kMaxLeaks];
};

static volatile struct Truth *truth;

static void check(aclError status, const char *what) {
  if (status != ACL_SUCCESS) {
    fprintf(stderr, "soak: %s failed: %d\n", what, status);
    exit(1);
  }
}

// Each tracked call says first what is in flight, and clears it once its
// effect is in the bookkeeping.
static void *allocate(size_t size, int leak) {
  void *buffer = NULL;
  truth->pendingSize = size;
  truth->pending = kAllocating;
  if (leak)
    check(aclrtMalloc(&buffer, size, ACL_MEM_MALLOC_HUGE_FIRST), "LEAK");
  else
    check(aclrtMalloc(&buffer, size, ACL_MEM_MALLOC_HUGE_FIRST), "CACHE");
  return buffer;
}

static void *scratchBuffer(size_t size) {
  void *buffer = NULL;
  truth->pendingSize = size;
  truth->pending = kAllocating;
  check(aclrtMalloc(&buffer, size, ACL_MEM_MALLOC_HUGE_FIRST), "scratch");
  truth->scratchSize = size;
  truth->scratch = (uintptr_t)buffer;
  truth->pending = kNone;
  return buffer;
}

static void release(void *buffer) {
  truth->pendingAddress = (uintptr_t)buffer;
  truth->pending = kReleasing;
  check(aclrtFree(buffer), "aclrtFree");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: soak EVENTS TRUTH_FILE\n");
    return 2;
  }
  uint64_t events = strtoull(argv[1], NULL, 10);
  int fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ftruncate(fd, sizeof(struct Truth)) != 0)
    return 2;
  truth = mmap(NULL, sizeof(struct Truth), PROT_READ | PROT_WRITE, MAP_SHARED,
               fd, 0);
  if (truth == MAP_FAILED)
    return 2;
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  uint64_t perRequest = 2 * kScratchPairs + 2;
  uint64_t leakEvery = events / perRequest / kLeaks;
  if (leakEvery == 0)
    leakEvery = 1;
  truth->magic = 0x4854525441454f53ULL; // "SOAKTRTH"
  unsigned next = 0;
  for (uint64_t request = 1; truth->events < events; ++request) {
    for (int i = 0; i < kScratchPairs; ++i) {
      void *scratch = scratchBuffer(4096);
      release(scratch);
      truth->scratch = 0;
      truth->pending = kNone;
    }
    // The cache: the newest in, the oldest out.
    if (truth->cacheAddress[next]) {
      release((void *)(uintptr_t)truth->cacheAddress[next]);
      truth->cacheAddress[next] = 0;
      truth->pending = kNone;
      truth->events += 1;
    }
    void *entry = allocate(65536, 0);
    truth->cacheSize[next] = 65536; // before the address, which makes it held
    truth->cacheAddress[next] = (uintptr_t)entry;
    truth->pending = kNone;
    next = (next + 1) % kCache;
    truth->events += 2 * kScratchPairs + 1;
    if (request % leakEvery == 0 && truth->leaks < kMaxLeaks) {
      void *kept = allocate(4096, 1);
      truth->leakSize[truth->leaks] = 4096;
      truth->leakAddress[truth->leaks] = (uintptr_t)kept;
      truth->leaks += 1;
      truth->pending = kNone;
      truth->events += 1;
    }
  }
  return 0;
}
