/* An LD_PRELOAD shim that prints every driver-level allocation and free, the
 * way an interposing leak checker sees them, and what is still live at exit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "driver/ascend_hal.h"

typedef drvError_t (*AllocFn)(void **, unsigned long long, unsigned long long);
typedef drvError_t (*FreeFn)(void *);

enum { kMaxLive = 4096 };
static struct {
  void *ptr;
  unsigned long long size, flag;
} live[kMaxLive];

static void *next(const char *name) {
  void *symbol = dlsym(RTLD_NEXT, name);
  if (!symbol) {
    fprintf(stderr, "hal_trace: %s not found\n", name);
    _exit(99);
  }
  return symbol;
}

static void describe(const char *what, unsigned long long size,
                     unsigned long long flag) {
  printf("%s size=%llu device=%llu type=%llu module=%llu", what, size,
         flag & MEM_DEVID_MASK,
         (flag >> MEM_VIRT_BIT) & ((1ULL << MEM_VIRT_WIDTH) - 1),
         flag >> MEM_MODULE_ID_BIT);
}

drvError_t halMemAlloc(void **pp, unsigned long long size,
                       unsigned long long flag) {
  static AllocFn real;
  if (!real)
    *(void **)(&real) = next("halMemAlloc");
  drvError_t status = real(pp, size, flag);
  describe("halMemAlloc", size, flag);
  printf(" -> %d %p\n", (int)status, status == DRV_ERROR_NONE ? *pp : NULL);
  fflush(stdout);
  if (status == DRV_ERROR_NONE)
    for (int i = 0; i < kMaxLive; ++i)
      if (!live[i].ptr) {
        live[i].ptr = *pp;
        live[i].size = size;
        live[i].flag = flag;
        break;
      }
  return status;
}

drvError_t halMemFree(void *pp) {
  static FreeFn real;
  if (!real)
    *(void **)(&real) = next("halMemFree");
  drvError_t status = real(pp);
  printf("halMemFree %p -> %d\n", pp, (int)status);
  fflush(stdout);
  if (status == DRV_ERROR_NONE)
    for (int i = 0; i < kMaxLive; ++i)
      if (live[i].ptr == pp) {
        live[i].ptr = NULL;
        break;
      }
  return status;
}

__attribute__((destructor)) static void reportLive(void) {
  int count = 0;
  for (int i = 0; i < kMaxLive; ++i)
    if (live[i].ptr) {
      describe("live at exit:", live[i].size, live[i].flag);
      printf(" %p\n", live[i].ptr);
      ++count;
    }
  printf("live at exit: %d allocation(s)\n", count);
  fflush(stdout);
}
