/*
 * mstx (simulated toolkit: our own text of the real types, functions and
 * injection protocol). Marks, ranges and domains; with ms_tools_ext_mem.h,
 * memory pools. Implemented in this header: on first use it loads the
 * library MSTX_INJECTION_PATH names and calls its InitInjectionMstx, which
 * fills the function table; without one, every call does nothing. Define
 * MSTX_NO_IMPL for the declarations alone, MSTX_DISABLE for calls that do
 * nothing.
 */
#ifndef MSSIM_MSTX_TOOLS_EXT_H_
#define MSSIM_MSTX_TOOLS_EXT_H_

#include "mstx_detail/mstx_base.h"

#ifdef __cplusplus
extern "C" {
#endif

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message,
                                          aclrtStream stream);
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id);
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name);
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain,
                                   const char *message, aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain,
                                                const char *message,
                                                aclrtStream stream);
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain,
                                      mstxRangeId id);
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id);

#ifdef __cplusplus
}
#endif

#include "ms_tools_ext_mem.h"

#define MSTX_IMPL_GUARD
#include "mstx_detail/mstx_types.h"
#ifndef MSTX_NO_IMPL
#include "mstx_detail/mstx_impl.h"
#endif
#undef MSTX_IMPL_GUARD

#endif
