/*
 * peer_loop.c: the loop utils/benchmarks/peers.py times under each leak
 * checker: PAIRS allocations of SIZE bytes, each freed at once, timed from
 * inside the process (so start-up and the checkers' exit reports are not
 * counted). Prints "ns_per_pair N". Host memory (malloc/free) by default;
 * with -DPEER_ACL, device memory through aclrtMalloc/aclrtFree on the
 * (simulated) toolkit. Every call's result is checked: if one failed, the
 * loop says how many on stderr and exits with status 1, printing no figure.
 *
 *   peer_loop [PAIRS] [SIZE]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef PEER_ACL
#include "acl/acl.h"
#endif

static double nowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One pair; the pointer escapes, so the compiler cannot drop the pair. Not
 * inlined: instructions.py counts what runs inside it. Returns how many of
 * its calls failed. */
__attribute__((noinline)) static int pair(size_t size) {
  void *p = NULL;
  int failed = 0;
#ifdef PEER_ACL
  failed += aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
  __asm__ volatile("" : : "r"(p) : "memory");
  failed += aclrtFree(p) != ACL_SUCCESS;
#else
  p = malloc(size);
  failed += p == NULL;
  __asm__ volatile("" : : "r"(p) : "memory");
  free(p);
#endif
  return failed;
}

int main(int argc, char **argv) {
  long pairs = argc > 1 ? atol(argv[1]) : 1000000;
  size_t size = argc > 2 ? (size_t)atol(argv[2]) : 64;
  if (pairs <= 0 || size == 0)
    return 2;
#ifdef PEER_ACL
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    fprintf(stderr, "peer_loop: aclInit or aclrtSetDevice failed\n");
    return 1;
  }
#endif
  long failed = 0;
  for (long i = 0; i < pairs / 10 + 10000; ++i) /* warm up: first stacks */
    failed += pair(size);
  double start = nowNs();
  for (long i = 0; i < pairs; ++i)
    failed += pair(size);
  double elapsed = nowNs() - start;
#ifdef PEER_ACL
  aclrtResetDevice(0);
  aclFinalize();
#endif
  if (failed) {
    fprintf(stderr,
            "peer_loop: %ld allocation or free call(s) failed: no figure\n",
            failed);
    return 1;
  }
  printf("ns_per_pair %.1f\n", elapsed / (double)pairs);
  return 0;
}
