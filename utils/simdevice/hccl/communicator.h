//===- communicator.h - HCCL communicators of this process ------*- C++ -*-===//
//
// Contract: the state behind an HcclComm handle and the registry of live
// handles, so that every function refuses a destroyed or unknown handle
// (HCCL_E_PARA) instead of touching freed memory. A communicator owns its
// two CCL buffers (driver memory of its device, allocated when every rank
// has joined and freed by HcclCommDestroy) and its rank's view of the group
// (transport.h), which the tasks it queued on streams share: a task queued
// before HcclCommDestroy runs after it and fails, as the real library's
// operations do once their communicator is destroyed.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HCCL_COMMUNICATOR_H
#define MSSIM_HCCL_COMMUNICATOR_H

#define HCOMM_WEAK_SYMBOL // the library defines these: strong definitions
#include "hccl/hccl.h"
#include "transport.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

namespace mssim {
namespace hccl {

struct Communicator {
  std::string Name;
  std::string Key;  // of its group (transport.h)
  bool Sub = false; // made by HcclCreateSubCommConfig
  uint32_t Rank = 0;
  uint32_t Ranks = 0;
  int32_t Device = 0;
  std::shared_ptr<Group> Transport;
  void *InputBuffer = nullptr;
  void *OutputBuffer = nullptr;
  uint64_t BufferBytes = 0;
  std::chrono::milliseconds ExecTimeout{0}; // 0: none
  bool ResetDeviceOnDestroy = false;        // HcclCommInitAll set its device
  bool World = false;                       // made from a rank table
  std::atomic<bool> Destroyed{false};
  std::atomic<int> AsyncError{HCCL_SUCCESS};
};

/// The live communicator `handle` names, or null.
std::shared_ptr<Communicator> lookup(HcclComm handle);

/// The live communicator `comm` names in *state, or HCCL_E_PARA recorded for
/// `api` (an unknown or destroyed handle).
HcclResult resolve(const char *api, HcclComm comm,
                   std::shared_ptr<Communicator> *state);

/// Records `message` for aclGetRecentErrMsg, as the real library reports
/// its input errors (EI0003 ...), and passes `code` through.
HcclResult fail(HcclResult code, const char *api, const std::string &message);

/// What a queued operation returns to the stream when it cannot complete.
int taskError(Outcome outcome);

} // namespace hccl
} // namespace mssim

#endif
