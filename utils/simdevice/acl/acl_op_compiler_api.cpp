//===- acl_op_compiler_api.cpp - libacl_op_compiler.so's operators -------===//
//
// Compiling and running a single operator, from the library a real toolkit
// has them in: the operators run on the host, through libascendcl.so's
// executeOp (runtime.h). What else acl/acl_op_compiler.h declares is a
// generated stand-in.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_op_compiler.h"
#include "runtime.h"

extern "C" {

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
    const aclDataBuffer *const inputs[], int numOutputs,
    const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
    const aclopAttr *attr, aclopEngineType engineType,
    aclopCompileType compileFlag, const char *opPath, aclrtStream stream) {
  (void)attr;
  (void)engineType;
  (void)compileFlag;
  (void)opPath;
  return mssim::executeOp("aclopCompileAndExecute", opType, numInputs,
                          inputDesc, inputs, numOutputs, outputDesc, outputs,
                          stream);
}

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(
    const char *opType, int numInputs, aclTensorDesc *inputDesc[],
    aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
    aclDataBuffer *outputs[], aclopAttr *attr, aclopEngineType engineType,
    aclopCompileType compileFlag, const char *opPath, aclrtStream stream) {
  (void)attr;
  (void)engineType;
  (void)compileFlag;
  (void)opPath;
  return mssim::executeOp("aclopCompileAndExecuteV2", opType, numInputs,
                          inputDesc, inputs, numOutputs, outputDesc, outputs,
                          stream);
}

} // extern "C"
