//===- hccl_ops_api.cpp - libhccl.so: collectives and send/receive --------===//
//
// HcclAllReduce, HcclBroadcast, HcclAllGather, HcclReduceScatter, HcclSend,
// HcclRecv and HcclBarrier, computed for real between the ranks (processes
// or threads) through the group's shared memory (transport.h), each queued
// as one task on the caller's stream: the caller's aclrtSynchronizeStream
// waits for it, and returns its failure.
//
// Checks, in the real library's order (hccl's ops/*_op.cc): a count of 0
// succeeds at once; null stream, communicator or buffers are HCCL_E_PTR; a
// count over 0x7FFFFFFFF or a rank out of range HCCL_E_PARA; a data type or
// reduction the real one refuses HCCL_E_NOT_SUPPORT (reductions: int8,
// int16, int32, int64, uint64, fp16, fp32, fp64, bf16; prod neither int16
// nor bf16; moves: every type but int128), a send to oneself too. Stricter
// (undefined in the real one): an unknown or destroyed communicator and a
// buffer that is not device memory are HCCL_E_PARA.
//
// The data moves through the driver, as a DMA would (readDevice and
// writeDevice, past any interposer); the ranks exchange it in steps of at
// most kSlotBytes, with a barrier after each. Reductions apply in rank
// order, each step rounded to the type (reduce.h).
//
//===----------------------------------------------------------------------===//
#include "communicator.h"
#include "reduce.h"
#include "runtime.h"

#include <cstring>
#include <vector>

namespace mssim {
namespace hccl {

int taskError(Outcome outcome) {
  return outcome == Outcome::TimedOut ? ACL_ERROR_RT_TASK_TIMEOUT
                                      : ACL_ERROR_RT_DEVICE_TASK_ABORT;
}

namespace {

constexpr uint64_t kMaxCount = 0x7FFFFFFFFULL;

/// A queued operation's failure: the group fails with it (its peers stop
/// waiting) and the communicator remembers it (HcclGetCommAsyncError).
int failed(Communicator &state, Outcome outcome) {
  state.Transport->breakGroup();
  state.AsyncError =
      outcome == Outcome::TimedOut ? HCCL_E_TIMEOUT : HCCL_E_REMOTE;
  return taskError(outcome);
}

int unreadable(Communicator &state) {
  state.Transport->breakGroup();
  state.AsyncError = HCCL_E_PARA;
  return ACL_ERROR_RT_PARAM_INVALID;
}

HcclResult checkCount(const char *api, uint64_t count) {
  if (count > kMaxCount)
    return fail(HCCL_E_PARA, api,
                "count " + std::to_string(count) + " is over 0x7FFFFFFFF");
  return HCCL_SUCCESS;
}

HcclResult checkTypes(const char *api, HcclDataType type, bool reduces,
                      HcclReduceOp op) {
  if (HcclResult result = checkType(type, reduces))
    return fail(result, api,
                "data type " + std::to_string(type) + " is not supported");
  if (reduces)
    if (HcclResult result = checkOp(type, op))
      return fail(result, api,
                  "reduction " + std::to_string(op) +
                      " is not supported on data type " + std::to_string(type));
  return HCCL_SUCCESS;
}

HcclResult checkDeviceMemory(const char *api, const void *pointer,
                             const char *what) {
  if (!inDeviceMemory(pointer))
    return fail(HCCL_E_PARA, api, std::string(what) + " is not device memory");
  return HCCL_SUCCESS;
}

HcclResult enqueue(const char *api, aclrtStream stream, Stream::Task task) {
  if (enqueueTask(api, stream, std::move(task)) != ACL_SUCCESS)
    return fail(HCCL_E_RUNTIME, api, "the stream does not exist");
  return HCCL_SUCCESS;
}

int allReduce(Communicator &state, const void *send, void *recv, uint64_t count,
              HcclDataType type, HcclReduceOp op) {
  if (state.Destroyed)
    return failed(state, Outcome::Broken);
  size_t size = elementSize(type);
  std::vector<uint8_t> input;
  if (!readDevice(send, count * size, &input))
    return unreadable(state);
  std::vector<uint8_t> output(input.size());
  Group &group = *state.Transport;
  uint64_t step = kSlotBytes / size;
  for (uint64_t first = 0; first < count; first += step) {
    uint64_t n = std::min(step, count - first);
    std::memcpy(group.slot(state.Rank), input.data() + first * size, n * size);
    Outcome outcome = group.barrier(state.ExecTimeout);
    if (outcome != Outcome::Done)
      return failed(state, outcome);
    uint8_t *acc = output.data() + first * size;
    std::memcpy(acc, group.slot(0), n * size);
    for (uint32_t r = 1; r < state.Ranks; ++r)
      reduceInto(acc, group.slot(r), n, type, op);
    if ((outcome = group.barrier(state.ExecTimeout)) != Outcome::Done)
      return failed(state, outcome);
  }
  return writeDevice(recv, output) ? 0 : unreadable(state);
}

int broadcast(Communicator &state, void *buf, uint64_t count, HcclDataType type,
              uint32_t root) {
  if (state.Destroyed)
    return failed(state, Outcome::Broken);
  uint64_t bytes = count * elementSize(type);
  std::vector<uint8_t> data(bytes);
  if (state.Rank == root && !readDevice(buf, bytes, &data))
    return unreadable(state);
  Group &group = *state.Transport;
  for (uint64_t first = 0; first < bytes; first += kSlotBytes) {
    uint64_t n = std::min<uint64_t>(kSlotBytes, bytes - first);
    if (state.Rank == root)
      std::memcpy(group.slot(root), data.data() + first, n);
    Outcome outcome = group.barrier(state.ExecTimeout);
    if (outcome != Outcome::Done)
      return failed(state, outcome);
    if (state.Rank != root)
      std::memcpy(data.data() + first, group.slot(root), n);
    if ((outcome = group.barrier(state.ExecTimeout)) != Outcome::Done)
      return failed(state, outcome);
  }
  if (state.Rank != root && !writeDevice(buf, data))
    return unreadable(state);
  return 0;
}

int allGather(Communicator &state, const void *send, void *recv, uint64_t count,
              HcclDataType type) {
  if (state.Destroyed)
    return failed(state, Outcome::Broken);
  uint64_t bytes = count * elementSize(type);
  std::vector<uint8_t> input;
  if (!readDevice(send, bytes, &input))
    return unreadable(state);
  std::vector<uint8_t> output(bytes * state.Ranks);
  Group &group = *state.Transport;
  for (uint64_t first = 0; first < bytes; first += kSlotBytes) {
    uint64_t n = std::min<uint64_t>(kSlotBytes, bytes - first);
    std::memcpy(group.slot(state.Rank), input.data() + first, n);
    Outcome outcome = group.barrier(state.ExecTimeout);
    if (outcome != Outcome::Done)
      return failed(state, outcome);
    for (uint32_t r = 0; r < state.Ranks; ++r)
      std::memcpy(output.data() + r * bytes + first, group.slot(r), n);
    if ((outcome = group.barrier(state.ExecTimeout)) != Outcome::Done)
      return failed(state, outcome);
  }
  return writeDevice(recv, output) ? 0 : unreadable(state);
}

int reduceScatter(Communicator &state, const void *send, void *recv,
                  uint64_t count, HcclDataType type, HcclReduceOp op) {
  if (state.Destroyed)
    return failed(state, Outcome::Broken);
  size_t size = elementSize(type);
  uint64_t bytes = count * size; // each rank's share
  std::vector<uint8_t> input;
  if (!readDevice(send, bytes * state.Ranks, &input))
    return unreadable(state);
  std::vector<uint8_t> output(bytes);
  Group &group = *state.Transport;
  // Each step stages a piece of every rank's share: Ranks pieces per slot.
  uint64_t step = kSlotBytes / state.Ranks / size;
  for (uint64_t first = 0; first < count; first += step) {
    uint64_t n = std::min(step, count - first);
    for (uint32_t d = 0; d < state.Ranks; ++d)
      std::memcpy(group.slot(state.Rank) + d * step * size,
                  input.data() + d * bytes + first * size, n * size);
    Outcome outcome = group.barrier(state.ExecTimeout);
    if (outcome != Outcome::Done)
      return failed(state, outcome);
    uint8_t *acc = output.data() + first * size;
    std::memcpy(acc, group.slot(0) + state.Rank * step * size, n * size);
    for (uint32_t r = 1; r < state.Ranks; ++r)
      reduceInto(acc, group.slot(r) + state.Rank * step * size, n, type, op);
    if ((outcome = group.barrier(state.ExecTimeout)) != Outcome::Done)
      return failed(state, outcome);
  }
  return writeDevice(recv, output) ? 0 : unreadable(state);
}

/// HcclAllReduce's, HcclAllGather's and HcclReduceScatter's checks after a
/// count of 0, in the real order: `reduces` and `op` as checkTypes takes
/// them.
HcclResult checkCollective(const char *api, void *sendBuf, void *recvBuf,
                           uint64_t count, HcclDataType dataType, bool reduces,
                           HcclReduceOp op, HcclComm comm, aclrtStream stream,
                           std::shared_ptr<Communicator> *state) {
  if (!stream || !comm || !sendBuf || !recvBuf)
    return fail(HCCL_E_PTR, api, "stream, comm, sendBuf or recvBuf is null");
  if (HcclResult result = resolve(api, comm, state))
    return result;
  if (HcclResult result = checkCount(api, count))
    return result;
  if (HcclResult result = checkTypes(api, dataType, reduces, op))
    return result;
  if (HcclResult result = checkDeviceMemory(api, sendBuf, "sendBuf"))
    return result;
  return checkDeviceMemory(api, recvBuf, "recvBuf");
}

/// HcclSend's and HcclRecv's checks after a count of 0, in the real order:
/// `peer` is the other rank (destRank, srcRank), `buffer` this rank's.
HcclResult checkPointToPoint(const char *api, void *buffer,
                             const std::string &bufferName, uint64_t count,
                             HcclDataType dataType, uint32_t peer,
                             const std::string &peerName, HcclComm comm,
                             aclrtStream stream,
                             std::shared_ptr<Communicator> *state) {
  if (!comm || !buffer || !stream)
    return fail(HCCL_E_PTR, api, "comm, " + bufferName + " or stream is null");
  if (HcclResult result = resolve(api, comm, state))
    return result;
  if (HcclResult result = checkCount(api, count))
    return result;
  if (HcclResult result =
          checkTypes(api, dataType, false, HCCL_REDUCE_RESERVED))
    return result;
  if (peer == (*state)->Rank)
    return fail(HCCL_E_NOT_SUPPORT, api, peerName + " is this rank");
  if (peer >= (*state)->Ranks)
    return fail(HCCL_E_PARA, api,
                peerName + " " + std::to_string(peer) + " is not below the " +
                    std::to_string((*state)->Ranks) + " ranks");
  return checkDeviceMemory(api, buffer, bufferName.c_str());
}

} // namespace
} // namespace hccl
} // namespace mssim

using namespace mssim;
using namespace mssim::hccl;

extern "C" {

__attribute__((visibility("default"))) HcclResult
HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count,
              HcclDataType dataType, HcclReduceOp op, HcclComm comm,
              aclrtStream stream) {
  const char *api = "HcclAllReduce";
  if (count == 0)
    return HCCL_SUCCESS;
  std::shared_ptr<Communicator> state;
  if (HcclResult result =
          checkCollective(api, sendBuf, recvBuf, count, dataType, true, op,
                          comm, stream, &state))
    return result;
  return enqueue(api, stream, [state, sendBuf, recvBuf, count, dataType, op] {
    return allReduce(*state, sendBuf, recvBuf, count, dataType, op);
  });
}

__attribute__((visibility("default"))) HcclResult
HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root,
              HcclComm comm, aclrtStream stream) {
  const char *api = "HcclBroadcast";
  if (count == 0)
    return HCCL_SUCCESS;
  if (!comm || !buf || !stream)
    return fail(HCCL_E_PTR, api, "comm, buf or stream is null");
  std::shared_ptr<Communicator> state;
  if (HcclResult result = resolve(api, comm, &state))
    return result;
  if (root >= state->Ranks)
    return fail(HCCL_E_PARA, api,
                "root " + std::to_string(root) + " is not below the " +
                    std::to_string(state->Ranks) + " ranks");
  if (HcclResult result = checkCount(api, count))
    return result;
  if (HcclResult result =
          checkTypes(api, dataType, false, HCCL_REDUCE_RESERVED))
    return result;
  if (HcclResult result = checkDeviceMemory(api, buf, "buf"))
    return result;
  return enqueue(api, stream, [state, buf, count, dataType, root] {
    return broadcast(*state, buf, count, dataType, root);
  });
}

__attribute__((visibility("default"))) HcclResult
HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount,
              HcclDataType dataType, HcclComm comm, aclrtStream stream) {
  const char *api = "HcclAllGather";
  if (sendCount == 0)
    return HCCL_SUCCESS;
  std::shared_ptr<Communicator> state;
  if (HcclResult result =
          checkCollective(api, sendBuf, recvBuf, sendCount, dataType, false,
                          HCCL_REDUCE_RESERVED, comm, stream, &state))
    return result;
  return enqueue(api, stream, [state, sendBuf, recvBuf, sendCount, dataType] {
    return allGather(*state, sendBuf, recvBuf, sendCount, dataType);
  });
}

__attribute__((visibility("default"))) HcclResult
HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
                  HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                  aclrtStream stream) {
  const char *api = "HcclReduceScatter";
  if (recvCount == 0)
    return HCCL_SUCCESS;
  std::shared_ptr<Communicator> state;
  if (HcclResult result =
          checkCollective(api, sendBuf, recvBuf, recvCount, dataType, true, op,
                          comm, stream, &state))
    return result;
  return enqueue(
      api, stream, [state, sendBuf, recvBuf, recvCount, dataType, op] {
        return reduceScatter(*state, sendBuf, recvBuf, recvCount, dataType, op);
      });
}

__attribute__((visibility("default"))) HcclResult
HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType,
         uint32_t destRank, HcclComm comm, aclrtStream stream) {
  const char *api = "HcclSend";
  if (count == 0)
    return HCCL_SUCCESS;
  std::shared_ptr<Communicator> state;
  if (HcclResult result =
          checkPointToPoint(api, sendBuf, "sendBuf", count, dataType, destRank,
                            "destRank", comm, stream, &state))
    return result;
  uint64_t bytes = count * elementSize(dataType);
  return enqueue(api, stream, [state, sendBuf, bytes, destRank] {
    if (state->Destroyed)
      return failed(*state, Outcome::Broken);
    std::vector<uint8_t> data;
    if (!readDevice(sendBuf, bytes, &data))
      return unreadable(*state);
    Outcome outcome = state->Transport->send(destRank, data.data(), bytes,
                                             state->ExecTimeout);
    return outcome == Outcome::Done ? 0 : failed(*state, outcome);
  });
}

__attribute__((visibility("default"))) HcclResult
HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
         HcclComm comm, aclrtStream stream) {
  const char *api = "HcclRecv";
  if (count == 0)
    return HCCL_SUCCESS;
  std::shared_ptr<Communicator> state;
  if (HcclResult result =
          checkPointToPoint(api, recvBuf, "recvBuf", count, dataType, srcRank,
                            "srcRank", comm, stream, &state))
    return result;
  uint64_t bytes = count * elementSize(dataType);
  return enqueue(api, stream, [state, recvBuf, bytes, srcRank] {
    if (state->Destroyed)
      return failed(*state, Outcome::Broken);
    std::vector<uint8_t> data(bytes);
    Outcome outcome = state->Transport->receive(srcRank, data.data(), bytes,
                                                state->ExecTimeout);
    if (outcome != Outcome::Done)
      return failed(*state, outcome);
    return writeDevice(recvBuf, data) ? 0 : unreadable(*state);
  });
}

__attribute__((visibility("default"))) HcclResult
HcclBarrier(HcclComm comm, aclrtStream stream) {
  const char *api = "HcclBarrier";
  if (!stream || !comm)
    return fail(HCCL_E_PTR, api, "stream or comm is null");
  std::shared_ptr<Communicator> state;
  if (HcclResult result = resolve(api, comm, &state))
    return result;
  return enqueue(api, stream, [state] {
    if (state->Destroyed)
      return failed(*state, Outcome::Broken);
    Outcome outcome = state->Transport->barrier(state->ExecTimeout);
    return outcome == Outcome::Done ? 0 : failed(*state, outcome);
  });
}

} // extern "C"
