//===- acl_callback_api.cpp - Host callbacks and fp16 conversions ---------===//
//
// aclrtSubscribeReport binds a stream to a thread of the application's;
// aclrtLaunchCallback puts a host function on the stream's queue; when the
// stream reaches it, the function is handed to the bound thread, which runs
// it inside its own aclrtProcessReport. A blocking callback holds the stream
// until it has run. Error codes are the real runtime's: see
// utils/simdevice/README.md.
//
//===----------------------------------------------------------------------===//
#include "runtime.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <pthread.h>

using namespace mssim;

namespace {

/// A callback handed to its thread, and whether it has run.
struct Report {
  std::function<void()> function;
  bool done = false;
};

/// Which thread handles which stream's callbacks, and each thread's reports.
/// Its own lock, never held while a stream or a callback runs.
class Subscriptions {
public:
  static Subscriptions &instance() {
    static Subscriptions *subscriptions = new Subscriptions; // never destroyed
    return *subscriptions;
  }

  aclError subscribe(const char *api, uint64_t thread, Stream *stream) {
    std::lock_guard<std::mutex> lock(Mutex);
    if (!ThreadOf.emplace(stream, thread).second)
      return fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, api,
                  "the stream is already bound to a thread");
    ++Bindings[thread];
    return ACL_SUCCESS;
  }

  aclError unsubscribe(const char *api, uint64_t thread, Stream *stream) {
    std::lock_guard<std::mutex> lock(Mutex);
    auto bound = ThreadOf.find(stream);
    if (bound == ThreadOf.end())
      return fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, api,
                  "the stream is not bound to a thread");
    if (bound->second != thread)
      return fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, api,
                  "the stream is bound to another thread");
    ThreadOf.erase(bound);
    if (--Bindings[thread] == 0)
      Bindings.erase(thread);
    return ACL_SUCCESS;
  }

  void forget(Stream *stream) {
    std::lock_guard<std::mutex> lock(Mutex);
    auto bound = ThreadOf.find(stream);
    if (bound == ThreadOf.end())
      return;
    if (--Bindings[bound->second] == 0)
      Bindings.erase(bound->second);
    ThreadOf.erase(bound);
  }

  /// The thread bound to `stream`; false if there is none.
  bool threadOf(Stream *stream, uint64_t *thread) {
    std::lock_guard<std::mutex> lock(Mutex);
    auto bound = ThreadOf.find(stream);
    if (bound == ThreadOf.end())
      return false;
    *thread = bound->second;
    return true;
  }

  /// Hands `report` to `thread`; with `wait`, returns once it has run.
  void post(uint64_t thread, const std::shared_ptr<Report> &report, bool wait) {
    std::unique_lock<std::mutex> lock(Mutex);
    Pending[thread].push_back(report);
    Changed.notify_all();
    if (wait)
      Changed.wait(lock, [&] { return report->done; });
  }

  /// aclrtProcessReport on `thread`: runs one report, waiting up to
  /// `timeoutMs` (-1: for ever) for it.
  aclError process(uint64_t thread, int32_t timeoutMs) {
    std::unique_lock<std::mutex> lock(Mutex);
    if (!Bindings.count(thread))
      return fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport",
                  "no stream is bound to this thread (aclrtSubscribeReport)");
    auto ready = [&] { return !Pending[thread].empty(); };
    if (timeoutMs < 0)
      Changed.wait(lock, ready);
    else if (!Changed.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                               ready))
      return ACL_ERROR_RT_REPORT_TIMEOUT;
    std::shared_ptr<Report> report = Pending[thread].front();
    Pending[thread].pop_front();
    lock.unlock();
    report->function();
    lock.lock();
    report->done = true;
    Changed.notify_all();
    return ACL_SUCCESS;
  }

private:
  std::mutex Mutex;
  std::condition_variable Changed;
  std::map<Stream *, uint64_t> ThreadOf;
  std::map<uint64_t, unsigned> Bindings; // streams bound to each thread
  std::map<uint64_t, std::deque<std::shared_ptr<Report>>> Pending;
};

/// `then(queue)` for the queue of `stream` (null: the default stream), or
/// the error that there is none.
template <typename Then>
aclError onQueue(const char *api, aclrtStream stream, Then then) {
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor(api, stream, &status);
  return queue ? then(queue) : status;
}

/// IEEE 754 binary16 to binary32, exactly.
float halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) { // infinity, NaN
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) { // normal
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) { // zero
    bits = sign;
  } else { // subnormal: normalise
    int shift = 0;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | ((113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

/// binary32 to binary16, rounded to nearest, ties to even; overflow gives
/// infinity, NaN stays NaN.
uint16_t floatToHalf(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t exponent = (bits >> 23) & 0xffu;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) // infinity, NaN (kept quiet and non-zero)
    return sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0);
  int halfExponent = static_cast<int>(exponent) - 127 + 15;
  if (halfExponent >= 0x1f)
    return sign | 0x7c00u; // too large: infinity
  if (halfExponent <= 0) {
    if (halfExponent < -10)
      return sign;         // below half the smallest subnormal: zero
    mantissa |= 0x800000u; // the implicit bit
    unsigned shift = static_cast<unsigned>(14 - halfExponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return sign | static_cast<uint16_t>(half);
  }
  uint32_t half =
      (static_cast<uint32_t>(halfExponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half; // a carry into the exponent is right, up to infinity
  return sign | static_cast<uint16_t>(half);
}

} // namespace

void mssim::forgetCallbackThread(Stream *queue) {
  Subscriptions::instance().forget(queue);
}

aclError mssim::bindCallbackThread(const char *api, uint64_t thread,
                                   aclrtStream stream, bool bind) {
  return onQueue(api, stream, [&](Stream *queue) {
    return bind ? Subscriptions::instance().subscribe(api, thread, queue)
                : Subscriptions::instance().unsubscribe(api, thread, queue);
  });
}

aclError mssim::launchHostFunction(const char *api,
                                   std::function<void()> function, bool block,
                                   aclrtStream stream) {
  aclError status = ACL_SUCCESS;
  Stream *queue = queueFor(api, stream, &status);
  if (!queue)
    return status;
  uint64_t thread = 0;
  if (!Subscriptions::instance().threadOf(queue, &thread))
    return fail(ACL_ERROR_RT_STREAM_NO_CB_REG, api,
                "the stream is not bound to a thread (aclrtSubscribeReport)");
  auto report = std::make_shared<Report>();
  report->function = std::move(function);
  queue->enqueue([thread, report, block] {
    Subscriptions::instance().post(thread, report, block);
    return 0;
  });
  return ACL_SUCCESS;
}

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId,
                                                  aclrtStream stream) {
  return bindCallbackThread("aclrtSubscribeReport", threadId, stream,
                            /*bind=*/true);
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId,
                                                    aclrtStream stream) {
  return bindCallbackThread("aclrtUnSubscribeReport", threadId, stream,
                            /*bind=*/false);
}

ACL_FUNC_VISIBILITY aclError
aclrtLaunchCallback(aclrtCallback fn, void *userData,
                    aclrtCallbackBlockType blockType, aclrtStream stream) {
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback",
                "blockType is neither ACL_CALLBACK_BLOCK nor "
                "ACL_CALLBACK_NO_BLOCK");
  if (!fn)
    return fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtLaunchCallback",
                "the callback is null");
  return launchHostFunction(
      "aclrtLaunchCallback", [fn, userData] { fn(userData); },
      blockType == ACL_CALLBACK_BLOCK, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout) {
  if (timeout < -1 || timeout == 0)
    return fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtProcessReport",
                "timeout is " + std::to_string(timeout) +
                    "; -1 (for ever) or a number of milliseconds above 0");
  return Subscriptions::instance().process(
      static_cast<uint64_t>(pthread_self()), timeout);
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value) {
  return halfToFloat(value);
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value) {
  return floatToHalf(value);
}

} // extern "C"
