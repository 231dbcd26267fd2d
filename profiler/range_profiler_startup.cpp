// CUPTI's profiler initialized on a thread of its own from the collector's start, so that a
// metrics run's first launch does not wait for it.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include <cupti_profiler_target.h>

#include "cupti_status.h"
#include "range_profiler.h"

namespace labbook::profiler {

void RangeProfiler::initialize_soon() {
  if (disabled_ || profiler_initialized_ || initializing_.joinable()) return;
  // No signal lands on the thread: a handler that ends the run there would wait for itself.
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &before);
  try {
    initializing_pid_ = ::getpid();
    initializing_ = std::thread([this] {
      auto init = LABBOOK_PARAMS(CUpti_Profiler_Initialize_Params);
      initialized_early_ = cuptiProfilerInitialize(&init);
    });
  } catch (const std::system_error&) {   // no thread to be had: the first launch initializes
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

// What initialize_soon()'s thread got, once it is done. A forked child holds a copy of the
// thread's handle but not the thread, nor CUPTI's state: it drops the handle untouched.
CUptiResult RangeProfiler::take_early_initialization() {
  std::lock_guard<std::mutex> lock(initializing_mutex_);
  const bool forked = initializing_pid_ != 0 && ::getpid() != initializing_pid_;
  if (initializing_.joinable()) {
    if (forked) new std::thread(std::move(initializing_));   // never joined nor freed
    else if (initializing_.get_id() != std::this_thread::get_id()) initializing_.join();
    else return CUPTI_ERROR_NOT_INITIALIZED;
  }
  return forked ? CUPTI_ERROR_NOT_INITIALIZED : initialized_early_;
}

}  // namespace labbook::profiler
