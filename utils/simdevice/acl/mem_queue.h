//===- mem_queue.h - The runtime's memory queues on a device ----*- C++ -*-===//
//
// Contract: the device-side message queues of the simulated runtime, what
// the real runtime's rtMemQueue* calls make (acltdtCreateQueue's queues in
// libacl_tdt_queue.so and acltdtCreateChannelWithCapacity's channel queue in
// libacl_tdt_channel.so both stand on them, as the real libraries do): one
// table of queues per device, each named by a queue id that is unique on its
// device, holding at most `depth` messages (bytes and a user-data area),
// first in, first out.
//
// A queue lives until it is destroyed or its device is released
// (aclrtResetDevice's last reference, aclFinalize): the runtime calls
// releaseDeviceQueues() then, and the queue's id names nothing after that
// (the stricter reading of what the real driver does with a process's
// queues on a reset device; utils/simdevice/README.md). A thread waiting on a
// released queue wakes up and fails.
//
// Storage: host memory of the simulation's own. The real queues live in the
// driver's buffer pool on the device, not in the device memory that
// aclrtMalloc takes and aclrtGetMemInfo counts, so creating a queue changes
// neither here.
//
// Locking: one mutex of its own; never held while taking Runtime::Mutex.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACL_MEM_QUEUE_H
#define MSSIM_ACL_MEM_QUEUE_H

#include "runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mssim {

/// One message of a queue: its bytes and its user-data area.
struct QueueMessage {
  std::vector<uint8_t> data;
  std::vector<uint8_t> userData;
};

/// The smallest depth a queue may have (the runtime's RT_MQ_DEPTH_MIN) and
/// the longest name, its terminating NUL included (RT_MQ_MAX_NAME_LEN).
constexpr uint32_t kQueueDepthMin = 2;
constexpr size_t kQueueNameMax = 128;

/// A queue of `depth` messages on `device`, which must be open; its id in
/// *qid. ACL_ERROR_RT_PARAM_INVALID for a depth under kQueueDepthMin or a
/// name too long, ACL_ERROR_RT_INVALID_DEVICEID for a device not open.
MSSIM_SHARED aclError createQueue(const char *api, int32_t device,
                                  const std::string &name, uint32_t depth,
                                  uint32_t *qid);
/// Destroys queue `qid` of `device`, dropping its messages;
/// ACL_ERROR_RT_PARAM_INVALID if there is no such queue.
MSSIM_SHARED aclError destroyQueue(const char *api, int32_t device,
                                   uint32_t qid);
/// Appends `message`, waiting up to `timeout` ms for room (-1: for ever);
/// ACL_ERROR_RT_QUEUE_FULL if there is none by then.
MSSIM_SHARED aclError enqueueMessage(const char *api, int32_t device,
                                     uint32_t qid, QueueMessage message,
                                     int32_t timeout);
/// Takes the first message into *message, waiting up to `timeout` ms for
/// one (-1: for ever); ACL_ERROR_RT_QUEUE_EMPTY if there is none by then.
/// With `limit`, a message of more than *limit bytes is left in the queue
/// and ACL_ERROR_INVALID_PARAM returned, its size in *limit.
MSSIM_SHARED aclError dequeueMessage(const char *api, int32_t device,
                                     uint32_t qid, QueueMessage *message,
                                     int32_t timeout, size_t *limit);
/// The number of messages queue `qid` holds.
MSSIM_SHARED aclError queueSize(const char *api, int32_t device, uint32_t qid,
                                size_t *size);
/// Drops the messages of queue `qid`.
MSSIM_SHARED aclError resetQueue(const char *api, int32_t device, uint32_t qid);
/// Whether `device` has a queue `qid`.
MSSIM_SHARED bool queueExists(int32_t device, uint32_t qid);
/// The runtime, releasing `device`: its queues are gone.
void releaseDeviceQueues(int32_t device);

} // namespace mssim

#endif
