/* Simulated CANN device: single-operator interfaces (signatures as in the real
 * acl_op.h). */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

#include <stdbool.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

typedef enum aclEngineType {
  ACL_ENGINE_SYS,
  ACL_ENGINE_AICORE,
  ACL_ENGINE_VECTOR
} aclopEngineType;

typedef enum aclCompileType {
  ACL_COMPILE_SYS,
  ACL_COMPILE_UNREGISTERED
} aclopCompileType;

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr,
                                              const char *attrName,
                                              uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr,
                                             const char *attrName,
                                             int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr,
                                               const char *attrName,
                                               float attrValue);

/*
 * The simulated device implements the element-wise operators "Add", "Sub" and
 * "Mul" on ACL_FLOAT, ACL_INT32 and ACL_INT64 tensors of equal shape; any other
 * operator returns ACL_ERROR_OP_NOT_FOUND.
 */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(
    const char *opType, int numInputs, aclTensorDesc *inputDesc[],
    aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
    aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
    const aclDataBuffer *const inputs[], int numOutputs,
    const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
    const aclopAttr *attr, aclopEngineType engineType,
    aclopCompileType compileFlag, const char *opPath, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
