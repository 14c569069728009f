/*
 * mstx (MindStudio Tools Extension), as a CANN toolkit ships it under
 * tools/mstx/include/mstx/ (simulated: our own text of the same types,
 * functions and injection protocol). The types both public headers use.
 */
#ifndef MSSIM_MSTX_BASE_H_
#define MSSIM_MSTX_BASE_H_

#include <stddef.h>
#include <stdint.h>

#define MSTX_DECLSPEC __attribute__((visibility("default")))

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

typedef uint64_t mstxRangeId;
typedef void *aclrtStream;

typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

#endif
