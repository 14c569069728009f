/*
 * Simulated CANN toolkit: aclnn's initialisation (libnnopbase.so), and the
 * framework's handles (acl_meta.h). Declarations written for the msledger
 * project, matching the public aclnn/aclnn_base.h of CANN 9.1.0.
 */
#ifndef OP_API_OP_API_COMMON_INC_EXTERNAL_ACLNN_BASE_H
#define OP_API_OP_API_COMMON_INC_EXTERNAL_ACLNN_BASE_H

#include <cstdint>
#include <cstdlib>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize();

#ifdef __cplusplus
}
#endif

#endif
