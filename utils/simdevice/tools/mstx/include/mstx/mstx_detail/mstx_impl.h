/*
 * mstx's implementation, in the application (simulated toolkit: our own
 * text of the real behaviour). Every function calls through a pointer of
 * one process-wide context; each pointer starts at a stub that, on the first
 * call of any, loads the injection library named by MSTX_INJECTION_PATH
 * (dlopen) and calls its InitInjectionMstx with mstxGetModuleFuncTable, then
 * calls on. Slots the library did not fill -- all of them, without a library
 * -- become null, and their calls do nothing (0 for handles and range ids).
 */
#ifndef MSSIM_MSTX_IMPL_H_
#define MSSIM_MSTX_IMPL_H_
#ifndef MSTX_IMPL_GUARD
#error "include mstx/ms_tools_ext.h, not this file"
#endif

#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>

#ifdef __cplusplus
#define MSTX_INNER_FUNC extern "C" __attribute__((visibility("hidden"))) inline
extern "C" {
#else
#define MSTX_INNER_FUNC __attribute__((visibility("hidden")))
#endif

enum { MSTX_STATE_NEW = 0, MSTX_STATE_LOADING, MSTX_STATE_DONE, MSTX_STATE_FAILED };

MSTX_INNER_FUNC int mstxGetModuleFuncTable(mstxFuncModule module,
                                           mstxFuncTable *outTable,
                                           unsigned int *outSize);
MSTX_INNER_FUNC void mstxInitOnce(void);

typedef struct mstxContext_t {
  volatile unsigned int state;
  mstxMarkAFunc markA;
  mstxRangeStartAFunc rangeStartA;
  mstxRangeEndFunc rangeEnd;
  mstxGetToolIdFunc getToolId;
  mstxDomainCreateAFunc domainCreateA;
  mstxDomainDestroyFunc domainDestroy;
  mstxDomainMarkAFunc domainMarkA;
  mstxDomainRangeStartAFunc domainRangeStartA;
  mstxDomainRangeEndFunc domainRangeEnd;
  mstxMemHeapRegisterFunc memHeapRegister;
  mstxMemHeapUnregisterFunc memHeapUnregister;
  mstxMemRegionsRegisterFunc memRegionsRegister;
  mstxMemRegionsUnregisterFunc memRegionsUnregister;
} mstxContext_t;

/* The stubs each pointer starts at: load, then call on. */
MSTX_INNER_FUNC void mstxMarkAStub_(const char *message, aclrtStream stream);
MSTX_INNER_FUNC mstxRangeId mstxRangeStartAStub_(const char *message,
                                                 aclrtStream stream);
MSTX_INNER_FUNC void mstxRangeEndStub_(mstxRangeId id);
MSTX_INNER_FUNC void mstxGetToolIdStub_(uint64_t *id);
MSTX_INNER_FUNC mstxDomainHandle_t mstxDomainCreateAStub_(const char *name);
MSTX_INNER_FUNC void mstxDomainDestroyStub_(mstxDomainHandle_t domain);
MSTX_INNER_FUNC void mstxDomainMarkAStub_(mstxDomainHandle_t domain,
                                          const char *message,
                                          aclrtStream stream);
MSTX_INNER_FUNC mstxRangeId mstxDomainRangeStartAStub_(
    mstxDomainHandle_t domain, const char *message, aclrtStream stream);
MSTX_INNER_FUNC void mstxDomainRangeEndStub_(mstxDomainHandle_t domain,
                                             mstxRangeId id);
MSTX_INNER_FUNC mstxMemHeapHandle_t mstxMemHeapRegisterStub_(
    mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc);
MSTX_INNER_FUNC void mstxMemHeapUnregisterStub_(mstxDomainHandle_t domain,
                                                mstxMemHeapHandle_t heap);
MSTX_INNER_FUNC void
mstxMemRegionsRegisterStub_(mstxDomainHandle_t domain,
                            mstxMemRegionsRegisterBatch_t const *desc);
MSTX_INNER_FUNC void
mstxMemRegionsUnregisterStub_(mstxDomainHandle_t domain,
                              mstxMemRegionsUnregisterBatch_t const *desc);

/* One context per process: weak, so that every file that includes this
 * header shares the first's. */
__attribute__((visibility("hidden"), weak)) mstxContext_t g_mstxContext = {
    MSTX_STATE_NEW,
    mstxMarkAStub_,
    mstxRangeStartAStub_,
    mstxRangeEndStub_,
    mstxGetToolIdStub_,
    mstxDomainCreateAStub_,
    mstxDomainDestroyStub_,
    mstxDomainMarkAStub_,
    mstxDomainRangeStartAStub_,
    mstxDomainRangeEndStub_,
    mstxMemHeapRegisterStub_,
    mstxMemHeapUnregisterStub_,
    mstxMemRegionsRegisterStub_,
    mstxMemRegionsUnregisterStub_};

MSTX_INNER_FUNC int mstxGetModuleFuncTable(mstxFuncModule module,
                                           mstxFuncTable *outTable,
                                           unsigned int *outSize) {
  /* Slot 0 and the slot after the last are null, as the ids count. */
  static mstxFuncPointer *core[MSTX_API_CORE_SIZE + 1] = {
      0,
      (mstxFuncPointer *)&g_mstxContext.markA,
      (mstxFuncPointer *)&g_mstxContext.rangeStartA,
      (mstxFuncPointer *)&g_mstxContext.rangeEnd,
      (mstxFuncPointer *)&g_mstxContext.getToolId,
      0};
  static mstxFuncPointer *domain[MSTX_API_CORE2_SIZE + 1] = {
      0,
      (mstxFuncPointer *)&g_mstxContext.domainCreateA,
      (mstxFuncPointer *)&g_mstxContext.domainDestroy,
      (mstxFuncPointer *)&g_mstxContext.domainMarkA,
      (mstxFuncPointer *)&g_mstxContext.domainRangeStartA,
      (mstxFuncPointer *)&g_mstxContext.domainRangeEnd,
      0};
  static mstxFuncPointer *mem[MSTX_API_CORE_MEM_SIZE + 1] = {
      0,
      (mstxFuncPointer *)&g_mstxContext.memHeapRegister,
      (mstxFuncPointer *)&g_mstxContext.memHeapUnregister,
      (mstxFuncPointer *)&g_mstxContext.memRegionsRegister,
      (mstxFuncPointer *)&g_mstxContext.memRegionsUnregister,
      0};
  mstxFuncTable table = 0;
  unsigned int slots = 0;
  switch (module) {
  case MSTX_API_MODULE_CORE:
    table = core;
    slots = MSTX_API_CORE_SIZE;
    break;
  case MSTX_API_MODULE_CORE_DOMAIN:
    table = domain;
    slots = MSTX_API_CORE2_SIZE;
    break;
  case MSTX_API_MODULE_CORE_MEM:
    table = mem;
    slots = MSTX_API_CORE_MEM_SIZE;
    break;
  default:
    return MSTX_FAIL;
  }
  if (!outTable || !outSize)
    return MSTX_FAIL;
  *outTable = table;
  *outSize = slots;
  return MSTX_SUCCESS;
}

/* Null every pointer still at its stub (or every one, after a failure). */
MSTX_INNER_FUNC void mstxClearStubs_(int all) {
  mstxContext_t *c = &g_mstxContext;
#define MSTX_CLEAR_(field, stub)                                               \
  if (all || c->field == stub)                                                 \
    c->field = 0;
  MSTX_CLEAR_(markA, mstxMarkAStub_)
  MSTX_CLEAR_(rangeStartA, mstxRangeStartAStub_)
  MSTX_CLEAR_(rangeEnd, mstxRangeEndStub_)
  MSTX_CLEAR_(getToolId, mstxGetToolIdStub_)
  MSTX_CLEAR_(domainCreateA, mstxDomainCreateAStub_)
  MSTX_CLEAR_(domainDestroy, mstxDomainDestroyStub_)
  MSTX_CLEAR_(domainMarkA, mstxDomainMarkAStub_)
  MSTX_CLEAR_(domainRangeStartA, mstxDomainRangeStartAStub_)
  MSTX_CLEAR_(domainRangeEnd, mstxDomainRangeEndStub_)
  MSTX_CLEAR_(memHeapRegister, mstxMemHeapRegisterStub_)
  MSTX_CLEAR_(memHeapUnregister, mstxMemHeapUnregisterStub_)
  MSTX_CLEAR_(memRegionsRegister, mstxMemRegionsRegisterStub_)
  MSTX_CLEAR_(memRegionsUnregister, mstxMemRegionsUnregisterStub_)
#undef MSTX_CLEAR_
}

MSTX_INNER_FUNC int mstxLoadInjection_(void) {
  const char *path = getenv("MSTX_INJECTION_PATH");
  void *library = path ? dlopen(path, RTLD_LAZY | RTLD_LOCAL) : 0;
  mstxInitInjectionFunc init =
      library ? (mstxInitInjectionFunc)dlsym(library, "InitInjectionMstx") : 0;
  return init ? init(mstxGetModuleFuncTable) : MSTX_FAIL;
}

MSTX_INNER_FUNC void mstxInitOnce(void) {
  if (g_mstxContext.state == MSTX_STATE_DONE)
    return;
  __sync_synchronize();
  if (__sync_val_compare_and_swap(&g_mstxContext.state, MSTX_STATE_NEW,
                                  MSTX_STATE_LOADING) == MSTX_STATE_NEW) {
    int result = mstxLoadInjection_();
    mstxClearStubs_(result != MSTX_SUCCESS);
    __sync_lock_test_and_set(&g_mstxContext.state, result == MSTX_SUCCESS
                                                       ? MSTX_STATE_DONE
                                                       : MSTX_STATE_FAILED);
    return;
  }
  while (g_mstxContext.state != MSTX_STATE_DONE &&
         g_mstxContext.state != MSTX_STATE_FAILED) {
    sched_yield();
    __sync_synchronize();
  }
}

/* The stubs and the public functions, one pair per slot. */
#ifdef MSTX_DISABLE
#define MSTX_CALL_(field, args, none)                                          \
  do {                                                                         \
    return none;                                                               \
  } while (0)
#else
#define MSTX_CALL_(field, args, none)                                          \
  do {                                                                         \
    if (g_mstxContext.field)                                                   \
      return g_mstxContext.field args;                                         \
    return none;                                                               \
  } while (0)
#endif

MSTX_INNER_FUNC void mstxMarkAStub_(const char *message, aclrtStream stream) {
  mstxInitOnce();
  if (g_mstxContext.markA)
    g_mstxContext.markA(message, stream);
}
MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.markA)
    g_mstxContext.markA(message, stream);
#else
  (void)message, (void)stream;
#endif
}

MSTX_INNER_FUNC mstxRangeId mstxRangeStartAStub_(const char *message,
                                                 aclrtStream stream) {
  mstxInitOnce();
  MSTX_CALL_(rangeStartA, (message, stream), (mstxRangeId)0);
}
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message,
                                          aclrtStream stream) {
  MSTX_CALL_(rangeStartA, (message, stream), (mstxRangeId)0);
}

MSTX_INNER_FUNC void mstxRangeEndStub_(mstxRangeId id) {
  mstxInitOnce();
  if (g_mstxContext.rangeEnd)
    g_mstxContext.rangeEnd(id);
}
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.rangeEnd)
    g_mstxContext.rangeEnd(id);
#else
  (void)id;
#endif
}

MSTX_INNER_FUNC void mstxGetToolIdStub_(uint64_t *id) {
  mstxInitOnce();
  if (g_mstxContext.getToolId)
    g_mstxContext.getToolId(id);
  else
    *id = MSTX_TOOL_INVALID_ID;
}
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id) {
  if (!id)
    return;
#ifndef MSTX_DISABLE
  if (g_mstxContext.getToolId) {
    g_mstxContext.getToolId(id);
    return;
  }
#endif
  *id = MSTX_TOOL_INVALID_ID;
}

MSTX_INNER_FUNC mstxDomainHandle_t mstxDomainCreateAStub_(const char *name) {
  mstxInitOnce();
  MSTX_CALL_(domainCreateA, (name), (mstxDomainHandle_t)0);
}
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name) {
  MSTX_CALL_(domainCreateA, (name), (mstxDomainHandle_t)0);
}

MSTX_INNER_FUNC void mstxDomainDestroyStub_(mstxDomainHandle_t domain) {
  mstxInitOnce();
  if (g_mstxContext.domainDestroy)
    g_mstxContext.domainDestroy(domain);
}
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.domainDestroy)
    g_mstxContext.domainDestroy(domain);
#else
  (void)domain;
#endif
}

MSTX_INNER_FUNC void mstxDomainMarkAStub_(mstxDomainHandle_t domain,
                                          const char *message,
                                          aclrtStream stream) {
  mstxInitOnce();
  if (g_mstxContext.domainMarkA)
    g_mstxContext.domainMarkA(domain, message, stream);
}
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain,
                                   const char *message, aclrtStream stream) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.domainMarkA)
    g_mstxContext.domainMarkA(domain, message, stream);
#else
  (void)domain, (void)message, (void)stream;
#endif
}

MSTX_INNER_FUNC mstxRangeId mstxDomainRangeStartAStub_(
    mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  mstxInitOnce();
  MSTX_CALL_(domainRangeStartA, (domain, message, stream), (mstxRangeId)0);
}
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain,
                                                const char *message,
                                                aclrtStream stream) {
  MSTX_CALL_(domainRangeStartA, (domain, message, stream), (mstxRangeId)0);
}

MSTX_INNER_FUNC void mstxDomainRangeEndStub_(mstxDomainHandle_t domain,
                                             mstxRangeId id) {
  mstxInitOnce();
  if (g_mstxContext.domainRangeEnd)
    g_mstxContext.domainRangeEnd(domain, id);
}
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain,
                                      mstxRangeId id) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.domainRangeEnd)
    g_mstxContext.domainRangeEnd(domain, id);
#else
  (void)domain, (void)id;
#endif
}

MSTX_INNER_FUNC mstxMemHeapHandle_t mstxMemHeapRegisterStub_(
    mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc) {
  mstxInitOnce();
  MSTX_CALL_(memHeapRegister, (domain, desc), (mstxMemHeapHandle_t)0);
}
MSTX_DECLSPEC mstxMemHeapHandle_t
mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc) {
  MSTX_CALL_(memHeapRegister, (domain, desc), (mstxMemHeapHandle_t)0);
}

MSTX_INNER_FUNC void mstxMemHeapUnregisterStub_(mstxDomainHandle_t domain,
                                                mstxMemHeapHandle_t heap) {
  mstxInitOnce();
  if (g_mstxContext.memHeapUnregister)
    g_mstxContext.memHeapUnregister(domain, heap);
}
MSTX_DECLSPEC void mstxMemHeapUnregister(mstxDomainHandle_t domain,
                                         mstxMemHeapHandle_t heap) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.memHeapUnregister)
    g_mstxContext.memHeapUnregister(domain, heap);
#else
  (void)domain, (void)heap;
#endif
}

MSTX_INNER_FUNC void
mstxMemRegionsRegisterStub_(mstxDomainHandle_t domain,
                            mstxMemRegionsRegisterBatch_t const *desc) {
  mstxInitOnce();
  if (g_mstxContext.memRegionsRegister)
    g_mstxContext.memRegionsRegister(domain, desc);
}
MSTX_DECLSPEC void
mstxMemRegionsRegister(mstxDomainHandle_t domain,
                       mstxMemRegionsRegisterBatch_t const *desc) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.memRegionsRegister)
    g_mstxContext.memRegionsRegister(domain, desc);
#else
  (void)domain, (void)desc;
#endif
}

MSTX_INNER_FUNC void
mstxMemRegionsUnregisterStub_(mstxDomainHandle_t domain,
                              mstxMemRegionsUnregisterBatch_t const *desc) {
  mstxInitOnce();
  if (g_mstxContext.memRegionsUnregister)
    g_mstxContext.memRegionsUnregister(domain, desc);
}
MSTX_DECLSPEC void
mstxMemRegionsUnregister(mstxDomainHandle_t domain,
                         mstxMemRegionsUnregisterBatch_t const *desc) {
#ifndef MSTX_DISABLE
  if (g_mstxContext.memRegionsUnregister)
    g_mstxContext.memRegionsUnregister(domain, desc);
#else
  (void)domain, (void)desc;
#endif
}

#undef MSTX_CALL_

#ifdef __cplusplus
}
#endif

#endif
