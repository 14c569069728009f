//===- mem_queue.cpp - The runtime's memory queues on a device ------------===//
#include "mem_queue.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

namespace mssim {

namespace {

struct Queue {
  std::string name;
  uint32_t depth = 0;
  std::deque<QueueMessage> messages;
  bool released = false; // destroyed, or its device released
  std::condition_variable changed;
};

struct Queues {
  std::mutex mutex;
  std::map<uint32_t, std::shared_ptr<Queue>> byDevice[8];
  uint32_t nextId[8] = {};
};

Queues &queues() {
  static Queues *table = new Queues; // outlives static destructors
  return *table;
}

bool validDevice(int32_t device) { return device >= 0 && device < 8; }

/// The queue `qid` of `device`, or null with the failure recorded.
std::shared_ptr<Queue> find(const char *api, int32_t device, uint32_t qid,
                            aclError *status) {
  if (validDevice(device)) {
    auto &table = queues().byDevice[device];
    auto it = table.find(qid);
    if (it != table.end())
      return it->second;
  }
  *status = fail(ACL_ERROR_RT_PARAM_INVALID, api,
                 "device " + std::to_string(device) + " has no queue " +
                     std::to_string(qid) +
                     " (never created, destroyed, or "
                     "its device was reset)");
  return nullptr;
}

/// Waits on `queue` under `lock` until `ready` or `timeout` ms (-1: no
/// limit) have passed; whether it is ready.
template <typename Ready>
bool waitFor(std::unique_lock<std::mutex> &lock, Queue &queue, int32_t timeout,
             Ready ready) {
  if (timeout < 0) {
    queue.changed.wait(lock, [&] { return queue.released || ready(); });
  } else if (timeout > 0) {
    queue.changed.wait_for(lock, std::chrono::milliseconds(timeout),
                           [&] { return queue.released || ready(); });
  }
  return !queue.released && ready();
}

} // namespace

aclError createQueue(const char *api, int32_t device, const std::string &name,
                     uint32_t depth, uint32_t *qid) {
  bool open = false;
  if (validDevice(device)) {
    Runtime &rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.Mutex);
    open = rt.DeviceRefs[device] > 0;
  }
  if (!open)
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, api,
                "device " + std::to_string(device) + " is not set");
  if (depth < kQueueDepthMin)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "a queue's depth is at least " +
                    std::to_string(kQueueDepthMin) + ", not " +
                    std::to_string(depth));
  if (name.size() + 1 > kQueueNameMax)
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "a queue's name is at most " +
                    std::to_string(kQueueNameMax - 1) + " characters");
  Queues &all = queues();
  std::lock_guard<std::mutex> lock(all.mutex);
  auto queue = std::make_shared<Queue>();
  queue->name = name;
  queue->depth = depth;
  *qid = all.nextId[device]++;
  all.byDevice[device][*qid] = std::move(queue);
  return ACL_SUCCESS;
}

aclError destroyQueue(const char *api, int32_t device, uint32_t qid) {
  Queues &all = queues();
  std::lock_guard<std::mutex> lock(all.mutex);
  aclError status = ACL_SUCCESS;
  std::shared_ptr<Queue> queue = find(api, device, qid, &status);
  if (!queue)
    return status;
  queue->released = true;
  queue->messages.clear();
  queue->changed.notify_all();
  all.byDevice[device].erase(qid);
  return ACL_SUCCESS;
}

aclError enqueueMessage(const char *api, int32_t device, uint32_t qid,
                        QueueMessage message, int32_t timeout) {
  Queues &all = queues();
  std::unique_lock<std::mutex> lock(all.mutex);
  aclError status = ACL_SUCCESS;
  std::shared_ptr<Queue> queue = find(api, device, qid, &status);
  if (!queue)
    return status;
  if (!waitFor(lock, *queue, timeout,
               [&] { return queue->messages.size() < queue->depth; }))
    return queue->released ? fail(ACL_ERROR_RT_PARAM_INVALID, api,
                                  "the queue was destroyed while waiting")
                           : fail(ACL_ERROR_RT_QUEUE_FULL, api,
                                  "queue " + std::to_string(qid) + " is full");
  queue->messages.push_back(std::move(message));
  queue->changed.notify_all();
  return ACL_SUCCESS;
}

aclError dequeueMessage(const char *api, int32_t device, uint32_t qid,
                        QueueMessage *message, int32_t timeout, size_t *limit) {
  Queues &all = queues();
  std::unique_lock<std::mutex> lock(all.mutex);
  aclError status = ACL_SUCCESS;
  std::shared_ptr<Queue> queue = find(api, device, qid, &status);
  if (!queue)
    return status;
  if (!waitFor(lock, *queue, timeout, [&] { return !queue->messages.empty(); }))
    return queue->released ? fail(ACL_ERROR_RT_PARAM_INVALID, api,
                                  "the queue was destroyed while waiting")
                           : fail(ACL_ERROR_RT_QUEUE_EMPTY, api,
                                  "queue " + std::to_string(qid) + " is empty");
  if (limit && queue->messages.front().data.size() > *limit) {
    *limit = queue->messages.front().data.size();
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the first message has " + std::to_string(*limit) +
                    " bytes, more than the buffer holds");
  }
  *message = std::move(queue->messages.front());
  queue->messages.pop_front();
  queue->changed.notify_all();
  return ACL_SUCCESS;
}

aclError queueSize(const char *api, int32_t device, uint32_t qid,
                   size_t *size) {
  Queues &all = queues();
  std::lock_guard<std::mutex> lock(all.mutex);
  aclError status = ACL_SUCCESS;
  std::shared_ptr<Queue> queue = find(api, device, qid, &status);
  if (!queue)
    return status;
  *size = queue->messages.size();
  return ACL_SUCCESS;
}

aclError resetQueue(const char *api, int32_t device, uint32_t qid) {
  Queues &all = queues();
  std::lock_guard<std::mutex> lock(all.mutex);
  aclError status = ACL_SUCCESS;
  std::shared_ptr<Queue> queue = find(api, device, qid, &status);
  if (!queue)
    return status;
  queue->messages.clear();
  queue->changed.notify_all();
  return ACL_SUCCESS;
}

bool queueExists(int32_t device, uint32_t qid) {
  if (!validDevice(device))
    return false;
  Queues &all = queues();
  std::lock_guard<std::mutex> lock(all.mutex);
  return all.byDevice[device].count(qid) != 0;
}

void releaseDeviceQueues(int32_t device) {
  if (!validDevice(device))
    return;
  Queues &all = queues();
  std::lock_guard<std::mutex> lock(all.mutex);
  for (auto &entry : all.byDevice[device]) {
    entry.second->released = true;
    entry.second->messages.clear();
    entry.second->changed.notify_all();
  }
  all.byDevice[device].clear();
}

} // namespace mssim
