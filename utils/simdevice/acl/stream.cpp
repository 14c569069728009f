//===- stream.cpp - Ordered work queues and events of the simulated device ===//
#include "stream.h"

namespace mssim {

Stream::~Stream() {
  synchronize();
  {
    std::lock_guard<std::mutex> lock(Mutex);
    Stopping = true;
  }
  Changed.notify_all();
  if (Worker.joinable())
    Worker.join();
}

void Stream::enqueue(Task task) {
  {
    std::lock_guard<std::mutex> lock(Mutex);
    if (Capturing) {
      Captured.push_back(std::move(task));
      return;
    }
    Queue.push_back(std::move(task));
    ++Enqueued;
    if (!Worker.joinable())
      Worker = std::thread(&Stream::run, this);
  }
  Changed.notify_all();
}

int Stream::synchronize() {
  std::unique_lock<std::mutex> lock(Mutex);
  uint64_t target = Enqueued;
  Changed.wait(lock, [&] { return Completed >= target; });
  int error = FirstError;
  FirstError = 0;
  return error;
}

bool Stream::idle() {
  std::lock_guard<std::mutex> lock(Mutex);
  return Completed == Enqueued;
}

bool Stream::beginCapture() {
  std::lock_guard<std::mutex> lock(Mutex);
  if (Capturing)
    return false;
  Capturing = true;
  Captured.clear();
  return true;
}

bool Stream::endCapture(std::vector<Task> *tasks) {
  std::lock_guard<std::mutex> lock(Mutex);
  if (!Capturing)
    return false;
  Capturing = false;
  tasks->swap(Captured);
  Captured.clear();
  return true;
}

bool Stream::capturing() {
  std::lock_guard<std::mutex> lock(Mutex);
  return Capturing;
}

void Stream::run() {
  std::unique_lock<std::mutex> lock(Mutex);
  for (;;) {
    Changed.wait(lock, [&] { return Stopping || !Queue.empty(); });
    if (Queue.empty())
      return;
    Task task = std::move(Queue.front());
    Queue.pop_front();
    lock.unlock();
    int error = task();
    lock.lock();
    if (error && !FirstError)
      FirstError = error;
    ++Completed;
    Changed.notify_all();
  }
}

uint64_t Event::beginRecord() {
  std::lock_guard<std::mutex> lock(Mutex);
  return ++Recorded;
}

void Event::complete(uint64_t generation) {
  {
    std::lock_guard<std::mutex> lock(Mutex);
    if (generation > Done) {
      Done = generation;
      DoneAt = Clock::now();
    }
  }
  Changed.notify_all();
}

void Event::reset() {
  {
    std::lock_guard<std::mutex> lock(Mutex);
    Done = Recorded;
    DoneAt = Clock::time_point();
  }
  Changed.notify_all();
}

uint64_t Event::latest() {
  std::lock_guard<std::mutex> lock(Mutex);
  return Recorded;
}

void Event::waitFor(uint64_t generation) {
  std::unique_lock<std::mutex> lock(Mutex);
  Changed.wait(lock, [&] { return Done >= generation; });
}

bool Event::isComplete() {
  std::lock_guard<std::mutex> lock(Mutex);
  return Done >= Recorded;
}

bool Event::timestamp(Clock::time_point *when) {
  std::lock_guard<std::mutex> lock(Mutex);
  if (Done < Recorded || Recorded == 0 || DoneAt == Clock::time_point())
    return false;
  *when = DoneAt;
  return true;
}

} // namespace mssim
