//===- opapi.h - What libopapi.so's operators share -------------*- C++ -*-===//
//
// Contract: the simulated operators (aclnnop/aclnn_*.h, opapi_*.cpp) are
// thin: each checks its handles, turns its non-tensor arguments into values
// (captured by value: nothing keeps a user's handle past phase 1), and hands
// its tensors and a kernel call (kernels.h) to launch(), which does the
// standard phase 1:
//
//   1. each tensor a live one (null: ACLNN_ERR_PARAM_NULLPTR, unless it is
//      an optional one, a parameter named *Optional; not live:
//      ACLNN_ERR_PARAM_INVALID), workspaceSize and executor not null;
//   2. the kernel in Mode::Check over views of the tensors' descriptions
//      (no storage: base null, storageBytes what the storage shape spans); a
//      message is ACLNN_ERR_PARAM_INVALID with that message, which
//      aclGetRecentErrMsg returns;
//   3. an executor (makeExecutor) holding copies of the descriptions and a
//      computation that runs the same kernel in Mode::Run over the operands'
//      bytes when phase 2's task reaches the stream.
//
// Phase 2 is runExecutor, with the operator's name (MSSIM_ACLNN_PHASE2).
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACLNN_OPAPI_H
#define MSSIM_ACLNN_OPAPI_H

#include "kernels.h"
#include "nnopbase.h"

#include <functional>
#include <string>
#include <vector>

namespace mssim::nn::opapi {

/// The workspace every operator that reduces asks phase 1 for (reductions,
/// softmax / log-softmax, norms, matrix products). A real device's
/// operators ask for a system workspace (16 MiB on Atlas A2); the
/// simulation asks 16 KiB of every operator that reduces, so that
/// workspace handling is exercised. All other operators ask for none.
constexpr uint64_t kScratchWorkspace = 16 * 1024;

/// The kernel views of an operator's tensors, in the order launch() was
/// given them; an absent optional tensor has no view (optional() is null).
class Views {
public:
  Views() = default;
  Views(std::vector<TensorView> views, std::vector<bool> present)
      : views_(std::move(views)), present_(std::move(present)) {}
  const TensorView &operator[](size_t i) const { return views_[i]; }
  const TensorView *optional(size_t i) const {
    return present_[i] ? &views_[i] : nullptr;
  }
  size_t size() const { return views_.size(); }
  /// Views [first, first + count), all present (a tensor list's).
  std::vector<TensorView> range(size_t first, size_t count) const {
    return {views_.begin() + first, views_.begin() + first + count};
  }

private:
  std::vector<TensorView> views_;
  std::vector<bool> present_;
};

/// An operator's computation: the kernel call over its inputs' and outputs'
/// views, in either mode; an empty string is success.
using Kernel = std::function<std::string(Mode mode, const Views &inputs,
                                         const Views &outputs)>;

/// One tensor argument: its parameter name (for messages) and handle.
struct Arg {
  std::string name;
  const aclTensor *tensor;
  bool optional = false;
  /// Its place in the tensor list it came from (listArgs), -1 if none: a
  /// list is one input of the operator (aclSetDynamicInputTensorAddr's
  /// irIndex), each of its tensors a relativeIndex.
  int listIndex = -1;
};

/// The view of `desc` phase 1 checks with: no base; the storage it spans.
TensorView checkView(const TensorDesc &desc);
/// The view of an operand phase 2 runs with: over its bytes.
TensorView runView(Operand &operand);
/// An aclScalar's value (its handle checked live already).
Scalar scalarOf(const aclScalar *scalar);

/// The standard phase 1 of `op` ("aclnnAdd"): see the file comment.
aclnnStatus launch(const char *op, const std::vector<Arg> &inputs,
                   const std::vector<Arg> &outputs, uint64_t workspaceNeeded,
                   Kernel kernel, uint64_t *workspaceSize,
                   aclOpExecutor **executor);

/// Checks that `scalar` is a live scalar of a dtype the kernels take.
aclnnStatus checkScalarValue(const char *api, const char *what,
                             const aclScalar *scalar);
/// Checks that `list` is a live tensor list and appends its tensors to
/// `args`, each named "<what>[i]".
aclnnStatus listArgs(const char *api, const char *what,
                     const aclTensorList *list, std::vector<Arg> *args);
/// Checks that `array` is a live int array and returns its values.
aclnnStatus intsOf(const char *api, const char *what, const aclIntArray *array,
                   std::vector<int64_t> *values);

} // namespace mssim::nn::opapi

/// Defines phase 2 of aclnn<Name>: runs the executor phase 1 made.
#define MSSIM_ACLNN_PHASE2(Name)                                               \
  aclnnStatus aclnn##Name(void *workspace, uint64_t workspaceSize,             \
                          aclOpExecutor *executor, aclrtStream stream) {       \
    return mssim::nn::runExecutor("aclnn" #Name, workspace, workspaceSize,     \
                                  executor, stream);                           \
  }

/// Returns the status of `expr` unless it is success.
#define MSSIM_ACLNN_CHECK(expr)                                                \
  do {                                                                         \
    aclnnStatus mssimStatus_ = (expr);                                         \
    if (mssimStatus_ != ACLNN_SUCCESS)                                         \
      return mssimStatus_;                                                     \
  } while (0)

#endif // MSSIM_ACLNN_OPAPI_H
