//===- nnopbase.h - The simulated aclnn framework's objects -----*- C++ -*-===//
//
// Contract: what libnnopbase.so (the framework: aclnn/acl_meta.h) shares
// with libopapi.so (the operators: aclnnop/aclnn_*.h), as on the real stack
// where the operators make their executors through the framework.
//
//   * Handles (tensors, scalars, arrays, lists, executors) are objects of
//     this file, each registered while live (Handles): every call that takes
//     one checks it is a live object of its kind, so a destroyed or foreign
//     pointer is ACLNN_ERR_PARAM_INVALID with a message, never a crash;
//   * a tensor list or scalar list owns what it was made of (the real
//     framework's lists hold the objects and destroy them with the list):
//     an element is in one list, once, and is not destroyed on its own
//     (each would be a double destroy on the real stack: refused here);
//   * an executor is made by an operator's phase 1 (makeExecutor), holding
//     copies of its operands' descriptions and the computation; its phase 2
//     (runExecutor) checks the workspace, queues the computation on the
//     stream and destroys the executor, unless it was made repeatable
//     (aclSetAclOpExecutorRepeatable), when aclDestroyAclOpExecutor does;
//   * failures are the real aclnnStatus codes (ACLNN_ERR_*), each with the
//     message aclGetRecentErrMsg returns. Where the real framework leaves
//     the outcome undefined (a destroyed handle destroyed again, a view
//     reaching past its storage, a workspace smaller than phase 1 asked
//     for) the simulation refuses with ACLNN_ERR_PARAM_INVALID: stricter,
//     never more lenient (utils/simdevice/README.md lists each).
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACLNN_NNOPBASE_H
#define MSSIM_ACLNN_NNOPBASE_H

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mssim {
namespace nn {

// The framework's status codes (aclnn/opdev/op_errno.h).
constexpr aclnnStatus kSuccess = ACLNN_SUCCESS;
constexpr aclnnStatus kErrParamNullptr = ACLNN_ERR_PARAM_NULLPTR;
constexpr aclnnStatus kErrParamInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kErrRuntime = ACLNN_ERR_RUNTIME_ERROR;
constexpr aclnnStatus kErrInner = ACLNN_ERR_INNER;
constexpr aclnnStatus kErrInnerNullptr = ACLNN_ERR_INNER_NULLPTR;

/// What a tensor is: a view (shape, strides in elements, offset in elements)
/// of storage (storage shape, address), and its data type and format.
struct TensorDesc {
  aclDataType dataType = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> viewDims;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::vector<int64_t> storageDims;
  void *data = nullptr;

  int64_t elementCount() const;
  /// Bytes of storage from `data` the view reaches (0 for an empty view).
  uint64_t spanBytes() const;
};

/// The size of one element of `type`, 0 for a type tensors cannot have.
size_t elementSize(aclDataType type);

} // namespace nn
} // namespace mssim

struct aclTensor {
  mssim::nn::TensorDesc desc;
  const void *owner = nullptr; // the list that owns it, if any
};
struct aclScalar {
  aclDataType dataType;
  uint8_t value[16];           // the value, as `dataType` stores it
  const void *owner = nullptr; // the list that owns it, if any
  /// The value as a double (integers and booleans converted).
  double toDouble() const;
  int64_t toInt() const;
};
struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclTensorList {
  std::vector<aclTensor *> tensors; // owned
};
struct aclScalarList {
  std::vector<aclScalar *> scalars; // owned
};

namespace mssim {
namespace nn {

/// The operands of a computation when it runs: each tensor's description
/// with its storage read into host memory (`bytes`, from desc.data).
struct Operand {
  TensorDesc desc;
  std::vector<uint8_t> bytes;
};
/// The work of an operator, run on its stream: inputs read, outputs read
/// and written back. An empty string is success, else what went wrong.
using Computation = std::function<std::string(std::vector<Operand> &inputs,
                                              std::vector<Operand> &outputs)>;

} // namespace nn
} // namespace mssim

struct aclOpExecutor {
  std::string op;             // "aclnnAdd"
  uint64_t workspaceSize = 0; // what phase 1 said
  bool repeatable = false;
  std::vector<mssim::nn::TensorDesc> inputs, outputs;
  // Where each of inputs / outputs is among the operator's: (irIndex,
  // relativeIndex), a tensor list being one input or output.
  std::vector<std::pair<size_t, size_t>> inputPlaces, outputPlaces;
  mssim::nn::Computation compute;
};

namespace mssim {
namespace nn {

enum class ObjectKind {
  Tensor,
  Scalar,
  IntArray,
  FloatArray,
  BoolArray,
  TensorList,
  ScalarList,
  Executor
};

/// Whether `object` is a live handle of `kind`.
MSSIM_SHARED bool isLive(const void *object, ObjectKind kind);
MSSIM_SHARED void addLive(const void *object, ObjectKind kind);
/// Forgets a live handle; false if it was none.
MSSIM_SHARED bool removeLive(const void *object, ObjectKind kind);

/// Records `message` for aclGetRecentErrMsg, naming `api`, and returns `code`.
MSSIM_SHARED aclnnStatus failed(aclnnStatus code, const char *api,
                                const std::string &message);

/// Checks that `tensor` is a live tensor (null: ACLNN_ERR_PARAM_NULLPTR,
/// unless `optional`), naming it `what` in the message; kSuccess or the code.
MSSIM_SHARED aclnnStatus checkTensor(const char *api, const char *what,
                                     const aclTensor *tensor,
                                     bool optional = false);
MSSIM_SHARED aclnnStatus checkScalar(const char *api, const char *what,
                                     const aclScalar *scalar);
MSSIM_SHARED aclnnStatus checkIntArray(const char *api, const char *what,
                                       const aclIntArray *array);
MSSIM_SHARED aclnnStatus checkTensorList(const char *api, const char *what,
                                         const aclTensorList *list);

/// Phase 1's end: a new executor of `op` (live, not repeatable) into
/// *executor and the workspace it needs into *workspaceSize. Null
/// out-parameters are ACLNN_ERR_PARAM_NULLPTR.
/// `inputPlaces` / `outputPlaces`: each tensor's (irIndex, relativeIndex),
/// for aclSetDynamic*TensorAddr (none given: each an input of its own).
MSSIM_SHARED aclnnStatus makeExecutor(
    const char *op, std::vector<TensorDesc> inputs,
    std::vector<TensorDesc> outputs, Computation compute,
    uint64_t workspaceNeeded, uint64_t *workspaceSize, aclOpExecutor **executor,
    std::vector<std::pair<size_t, size_t>> inputPlaces = {},
    std::vector<std::pair<size_t, size_t>> outputPlaces = {});
/// Phase 2 of `op` (aclnnAdd): checks the executor is a live one of `op`
/// and the workspace (at least what phase 1 asked for, device memory),
/// queues the computation on `stream` (null: the default stream), and
/// destroys a non-repeatable executor -- whether the run succeeds or not,
/// once the executor is found live.
MSSIM_SHARED aclnnStatus runExecutor(const char *op, void *workspace,
                                     uint64_t workspaceSize,
                                     aclOpExecutor *executor,
                                     aclrtStream stream);

} // namespace nn
} // namespace mssim

#endif
