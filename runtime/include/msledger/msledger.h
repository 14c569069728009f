/*
 * msledger: the public C interface of the ledger (libmsledger).
 *
 * Instrumented code (msrewrite's tracking wrappers) and msledger's own
 * interposers record events through these calls; applications may call
 * msledger_report() themselves. Usable from C and C++. Every name has the
 * msledger_ / MSLEDGER_ prefix; nothing else of the library is public.
 *
 * Events: an acquisition (an allocation, or any handle a resource API hands
 * out) and a release. Each recorded event gets an event serial (serialNo in
 * reports), unique in the process and increasing along each thread and along
 * each handle -- not to be confused with a call site's serial (site_serial
 * in reports), which names the site in its project. Record only what
 * succeeded: a failed allocation records nothing. Releases are recorded
 * whatever the outcome (`succeeded` says it): the ledger diagnoses illegal,
 * double and mismatched releases even when the API rejected them, and forgets
 * an allocation only when its release succeeded.
 *
 * All functions are thread-safe and may be called before main, from static
 * destructors after main returns, and after fork.
 */
#ifndef MSLEDGER_MSLEDGER_H
#define MSLEDGER_MSLEDGER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSLEDGER_INTERFACE_VERSION 1

/* What libmsledger exports: the functions declared here, nothing else. */
#if defined(__GNUC__) || defined(__clang__)
#define MSLEDGER_API __attribute__((visibility("default")))
#else
#define MSLEDGER_API
#endif

/*
 * A call site in the application's source, as msrewrite emits it: static data
 * that outlives every event recorded with it. An event without a site reads
 * "<unknown>:0" in reports.
 */
typedef struct msledger_site {
  const char *file;     /* relative to the project root */
  uint32_t line;        /* 1-based */
  uint32_t column;      /* 1-based */
  uint64_t serial;      /* the site serial: the site within its project, the
                           same in every build and run (msrewrite); not an
                           event's serialNo */
  const char *callee;   /* the API called at this site, e.g. "aclrtMalloc" */
  const char *function; /* the enclosing function, or NULL */
} msledger_site;

/* Where memory lives, as reports name it. */
typedef enum msledger_space {
  MSLEDGER_SPACE_NONE = 0,   /* a handle, not memory */
  MSLEDGER_SPACE_GM = 1,     /* device global memory */
  MSLEDGER_SPACE_HOST = 2,   /* host memory (pinned or registered) */
  MSLEDGER_SPACE_DVPP = 3,   /* DVPP memory */
  MSLEDGER_SPACE_VIRTUAL = 4 /* reserved device virtual addresses */
} msledger_space;

/* The catalog index of an API ("aclrtMalloc"), or -1 if the catalog does not
 * list it. Indices are stable for one build of the library. */
MSLEDGER_API int msledger_api_index(const char *callee);
/* The same, starting from where the catalog that generated msledger/track.h
 * put it: `hint` when that index still names `callee` (a string compare),
 * else msledger_api_index(callee). What track.h's wrappers call on each use:
 * they are macros, which can keep no cache of their own. */
MSLEDGER_API int msledger_api_index_hint(int hint, const char *callee);

/*
 * An API the built-in catalog does not list -- a project's own allocator,
 * added with msrewrite --catalog -- as its tracking wrapper describes it to
 * the ledger. Strings use the catalog's words (rewriter/catalog/README.md).
 */
typedef struct msledger_api_description {
  const char *name;       /* "poolAlloc" */
  const char *role;       /* "alloc", "free", "acquire" or "release" */
  const char *family;     /* which release matches which acquisition */
  const char *display;    /* how reports name the family */
  const char *level;      /* "cann" or "device" */
  const char *kind;       /* "memory" or "resource" */
  const char *space;      /* "GM", "host", "DVPP", "virtual" or "" */
  const char *name_space; /* "memory" to meet the memory families */
  int refcounted;
  int handle_is_address; /* 0 for ids */
  int has_handle;
} msledger_api_description;

/* Registers an API (an API of that name keeps the index it has) and returns
 * its index, or -1 if the description is malformed or the tables are full. */
MSLEDGER_API int
msledger_register_api(const msledger_api_description *description);

/* Records that API `api` handed out `handle` (an address, or an id such as a
 * model id) of `size` bytes (0 for handles without memory) in `space`.
 * `site` may be NULL. */
MSLEDGER_API void msledger_record_acquire(int api, uint64_t handle,
                                          uint64_t size, msledger_space space,
                                          const msledger_site *site);

/*
 * A release in two halves, around the real call: msledger_release_begin()
 * before it, msledger_release_end() with its outcome after it. The record is
 * taken out first, so that another thread that is handed the same address as
 * soon as the real free returns is recorded correctly.
 */
typedef struct msledger_release {
  uint64_t opaque[16]; /* the ledger's; keep it alive until _end */
} msledger_release;
MSLEDGER_API void msledger_release_begin(int api, uint64_t handle,
                                         const msledger_site *site,
                                         msledger_release *state);
MSLEDGER_API void msledger_release_end(msledger_release *state, int succeeded);

/* Both halves at once, for a release whose address nobody else can be handed
 * meanwhile (single-threaded code, or after the real call failed). */
MSLEDGER_API void msledger_record_release(int api, uint64_t handle,
                                          int succeeded,
                                          const msledger_site *site);

/*
 * A copy or set (an API of role "access": aclrtMemcpy, aclrtMemset, ...)
 * about to write `write_size` bytes at `write` and read `read_size` bytes at
 * `read` (0 for a side it has not). Checked against the live and recently
 * freed memory of the API's level: touching freed memory, running past the
 * end of an allocation, or -- `direction` being an aclrtMemcpyKind, -1 for
 * none -- passing host memory as device memory or the reverse is reported
 * (unless check_access=no). Call it before the real call.
 */
MSLEDGER_API void msledger_record_access(int api, const msledger_site *site,
                                         uint64_t write, uint64_t write_size,
                                         uint64_t read, uint64_t read_size,
                                         int direction);

/* The bytes a 2-D copy spans on one side: `height` rows of `width` bytes,
 * `pitch` bytes apart. */
static inline uint64_t msledger_extent_2d(uint64_t pitch, uint64_t width,
                                          uint64_t height) {
  return width == 0 || height == 0 ? 0 : (height - 1) * pitch + width;
}

/*
 * For msrewrite's wrappers (msledger/track.h). msledger_api_interposed() says
 * whether the application's calls to `api` reach msledger's interposer (the
 * library is preloaded, or linked ahead of the API's own library). If so, the
 * wrapper names its site with msledger_set_site() and calls the API: the
 * interposer records the event with that site, and attributes the driver
 * calls the API makes to it too. If not, the wrapper records the event itself.
 */
MSLEDGER_API int msledger_api_interposed(int api);
MSLEDGER_API void msledger_set_site(const msledger_site *site);

/* A call of an API of role "retain" (aclSetAclOpExecutorRepeatable) that
 * succeeded on `handle`. */
MSLEDGER_API void msledger_record_retain(int api, uint64_t handle,
                                         const msledger_site *site);

/*
 * The catalog's operator rule (aclnn's two phases), for msrewrite's operator
 * wrappers, which record their calls themselves: between
 * msledger_operator_enter() and msledger_operator_leave() -- around the real
 * call -- msledger's interposer of the operator, if it has one, records
 * nothing. `function` names the operator's function as called
 * ("aclnnAddGetWorkspaceSize", "aclnnAdd"); with a NULL `site` the event's
 * site is the function's own, file unknown. A phase 1 that succeeded made
 * `executor` and asked for `workspace_size` bytes of workspace: the
 * thread's next allocation of that size (at the device level, of the ACL
 * layer's padding of it) is reported as the operator's workspace. A phase 2
 * is about to run `executor` (recorded before the call: it consumes the
 * executor whatever its outcome).
 */
MSLEDGER_API void msledger_operator_enter(void);
MSLEDGER_API void msledger_operator_leave(void);
MSLEDGER_API void msledger_operator_prepared(const char *function,
                                             uint64_t executor,
                                             uint64_t workspace_size,
                                             const msledger_site *site);
MSLEDGER_API void msledger_operator_run(const char *function, uint64_t executor,
                                        const msledger_site *site);

/*
 * Call chains. msrewrite wraps every call of a project function that
 * reaches a catalog call -- directly or through other project functions --
 * in MSLEDGER_CHAIN (msledger/track.h), which pushes the call's site on the
 * calling thread's chain for the duration of the call. An event records the
 * innermost sites of its thread's chain with its own (at most the option
 * chain_depth of them), and reports show them: "allocated in utils.cpp:190
 * <- model.cpp:77 <- main.cpp:31". Pushes and pops must pair on a thread.
 */
MSLEDGER_API void msledger_frame_push(const msledger_site *site);
MSLEDGER_API void msledger_frame_pop(void);

/*
 * Memory pools: the meaning of msSanitizer's mstx heap and region calls. A
 * pool that sub-allocates from one real allocation registers that block as a
 * heap, then each sub-allocation as a region and each return to the pool as
 * its unregistration. Regions are allocations of the catalog's "pool region"
 * family -- tracked like aclrtMalloc (by msledger's interposers, with their
 * sites when msrewrite rewrote the calls), reported as leaks when live at
 * exit, double and illegal unregistrations as errors -- while a block
 * registered as a heap is not itself reported as leaked.
 *
 *   mstxMemHeapRegister      msledger_heap_register
 *   mstxMemRegionsRegister   msledger_region_register (one region a call)
 *   mstxMemRegionsUnregister msledger_region_unregister
 *   mstxMemHeapUnregister    msledger_heap_unregister
 */
typedef struct msledger_heap msledger_heap;
/* The heap of [base, base + size), or NULL for a null base or size. */
MSLEDGER_API msledger_heap *msledger_heap_register(const void *base,
                                                   size_t size);
/* The heap is gone; regions still registered stay live (and leak). */
MSLEDGER_API void msledger_heap_unregister(msledger_heap *heap);
/* 0, or MSLEDGER_REGION_OUTSIDE_HEAP if [ptr, ptr + size) is not inside a
 * registered heap (nothing is recorded then). */
MSLEDGER_API int msledger_region_register(msledger_heap *heap, void *ptr,
                                          size_t size);
/* 0, or MSLEDGER_REGION_OUTSIDE_HEAP for a heap not registered. */
MSLEDGER_API int msledger_region_unregister(msledger_heap *heap, void *ptr);
#define MSLEDGER_REGION_OUTSIDE_HEAP 1

/* The memory space a driver allocation flag (halMemAlloc's `flag`) asks for:
 * its bits 10-13 name the memory type (SVM, DEV, HOST, DVPP). What the
 * interposers and msledger/track.h's wrappers of driver allocations record. */
MSLEDGER_API msledger_space msledger_driver_space(unsigned long long flag);

/* The handle that names key text `key` (an IPC memory key,
 * aclrtIpcMemGetExportKey's): the low 56 bits of the 64-bit FNV-1a hash of
 * its bytes up to its NUL (at most 4096), never 0; 0 for NULL. What the interposers and
 * msledger/track.h's wrappers record for a catalog family of keys. */
MSLEDGER_API uint64_t msledger_key_handle(const char *key);

/* Writes a leak report of what is live now, for every enabled level, to the
 * ledger's log (stderr or log_path), without stopping the process. */
MSLEDGER_API void msledger_report(void);

/* Number of errors (illegal, double, mismatched releases) found so far, less
 * the suppressed ones; those a baseline knows (--baseline) are counted: they
 * were found, though they do not count for the exit status. */
MSLEDGER_API uint64_t msledger_error_count(void);

#ifdef __cplusplus
}
#endif

#endif
