//===- stream.h - Ordered work queues and events ----------------*- C++ -*-===//
//
// Contract: a Stream runs the tasks given to it one at a time, in the order
// they were enqueued, on a worker thread of its own (started on first use).
// synchronize() returns once every task enqueued before the call has run, with
// the first error any of them reported since the last synchronize.
//
// While a capture is on (beginCapture, aclmdlRICaptureBegin), enqueue()
// appends the task to the capture instead of running it; endCapture() hands
// the recorded tasks back in order, for a model runtime instance to replay.
//
// An Event is recorded on a stream: it completes when the stream reaches the
// point of the record. Waiting for an event (from the host or from another
// stream) waits for the most recent record made before the wait was issued.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACL_STREAM_H
#define MSSIM_ACL_STREAM_H

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mssim {

class Stream {
public:
  /// A task returns 0 on success or an ACL error code.
  using Task = std::function<int()>;

  Stream() = default;
  ~Stream(); // waits for queued work, then stops the worker
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  void enqueue(Task task);
  /// Waits for everything enqueued so far; returns and clears the first error.
  int synchronize();
  bool idle();

  /// Starts recording: later enqueue() calls append to the capture. False if
  /// a capture is already on.
  bool beginCapture();
  /// Ends the capture and returns its tasks; false if none is on.
  bool endCapture(std::vector<Task> *tasks);
  bool capturing();

private:
  void run();

  std::mutex Mutex;
  std::condition_variable Changed;
  std::deque<Task> Queue;
  uint64_t Enqueued = 0;
  uint64_t Completed = 0;
  int FirstError = 0;
  bool Stopping = false;
  bool Capturing = false;
  std::vector<Task> Captured;
  std::thread Worker;
};

class Event {
public:
  using Clock = std::chrono::steady_clock;

  /// Marks a new record; returns its generation number.
  uint64_t beginRecord();
  /// Called by the stream when it reaches the record of `generation`.
  void complete(uint64_t generation);
  /// Forgets the records: the event reads as complete with no timestamp.
  void reset();
  /// The generation of the latest record (0: never recorded).
  uint64_t latest();
  void waitFor(uint64_t generation);
  bool isComplete();
  /// Time of the completed latest record; false if it has not completed.
  bool timestamp(Clock::time_point *when);

private:
  std::mutex Mutex;
  std::condition_variable Changed;
  uint64_t Recorded = 0;
  uint64_t Done = 0;
  Clock::time_point DoneAt;
};

} // namespace mssim

#endif
