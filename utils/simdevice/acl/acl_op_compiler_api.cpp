//===- acl_op_compiler_api.cpp - libacl_op_compiler.so's operators -------===//
//
// Compiling and running a single operator, from the library a real toolkit
// has them in: the operators run on the host, through libascendcl.so's
// executeOp (runtime.h). Graph dump options (aclCreateGraphDumpOpt,
// aclDestroyGraphDumpOpt) are host objects, registered while they live: a
// destroy of null (ACL_ERROR_INVALID_PARAM, as in hicann/ge) or of one not
// live (stricter: the real one deletes it again) fails and touches nothing.
// What else acl/acl_op_compiler.h declares is a generated stand-in.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_op_compiler.h"
#include "runtime.h"

#include <mutex>
#include <unordered_set>

struct aclGraphDumpOption {};

namespace {

std::mutex DumpOptionsMutex;
std::unordered_set<const aclGraphDumpOption *> &dumpOptions() {
  static std::unordered_set<const aclGraphDumpOption *> live;
  return live;
}

} // namespace

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

ACL_FUNC_VISIBILITY aclGraphDumpOption *aclCreateGraphDumpOpt(void) {
  auto *option = new aclGraphDumpOption;
  std::lock_guard<std::mutex> lock(DumpOptionsMutex);
  dumpOptions().insert(option);
  return option;
}

ACL_FUNC_VISIBILITY aclError
aclDestroyGraphDumpOpt(const aclGraphDumpOption *graphDumpOpt) {
  if (!graphDumpOpt)
    return mssim::fail(ACL_ERROR_INVALID_PARAM, "aclDestroyGraphDumpOpt",
                       "the option is null");
  {
    std::lock_guard<std::mutex> lock(DumpOptionsMutex);
    if (!dumpOptions().erase(graphDumpOpt))
      return mssim::fail(ACL_ERROR_INVALID_PARAM, "aclDestroyGraphDumpOpt",
                         mssim::hexAddress(graphDumpOpt) +
                             " does not exist or was already destroyed");
  }
  delete graphDumpOpt;
  return ACL_SUCCESS;
}

} // extern "C"
