#pragma once
/// @file
/// Tasks run side by side on the cores this thread may run on: the report step's work on a
/// measurement of 10^5 launches (reading its tables, writing trace.json.gz and
/// measurements.json) in spans.
#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <future>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace labbook {

/// How many tasks run at once: the cores this thread may run on, from 1 to 8. A Slurm job, a
/// cpuset or `taskset` may allow fewer than the host has, and the threads started here inherit
/// this thread's cores: more threads than those would only wait for each other.
inline std::size_t side_by_side_width() {
  constexpr std::size_t kMost = 8;
  cpu_set_t allowed;
  const bool known = ::sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  const std::size_t cores = known ? static_cast<std::size_t>(CPU_COUNT(&allowed)) : std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(cores, 1, kMost);
}

/// `task(i)` for each i below `count`: task 0 in this thread, the others each on a thread of
/// its own, or in this thread where none can be started. Returns once every task has ended;
/// then throws the exception of a task that threw, if any did.
template <typename Task>
void side_by_side(std::size_t count, const Task& task) {
  std::vector<std::future<void>> others;
  std::vector<std::size_t> here;   // those no thread could be started for
  for (std::size_t i = 1; i < count; ++i) {
    try {
      others.push_back(std::async(std::launch::async, [&task, i] { task(i); }));
    } catch (const std::system_error&) {
      here.push_back(i);
    }
  }
  std::exception_ptr thrown;
  const auto wait = [&thrown](auto&& run) {
    try {
      run();
    } catch (...) {
      if (!thrown) thrown = std::current_exception();
    }
  };
  if (count > 0) wait([&] { task(0); });
  for (std::size_t i : here) wait([&] { task(i); });
  for (auto& other : others) wait([&] { other.get(); });
  if (thrown) std::rethrow_exception(thrown);
}

/// Items [0, count) made in spans of `per_span` (> 0) items side by side and handed on in order.
/// `make(span, from, to)` fills a fresh Span with items [from, to), in this thread or one of
/// side_by_side_width() - 1 others, each taking the next span as it ends the last; `hand(span)`
/// takes each, in order and in this thread, once it and those before it are made, while later
/// ones are made. At most twice the width are held at once (the text of 10^5 launches is tens
/// of megabytes). A thrown exception stops the spans not yet begun, and comes out once the
/// others ended.
template <typename Span, typename Make, typename Hand>
void in_ordered_spans(std::size_t count, std::size_t per_span, const Make& make, const Hand& hand) {
  const std::size_t spans = count / per_span + (count % per_span != 0);
  const std::size_t width = std::max<std::size_t>(1, std::min(side_by_side_width(), spans));
  const std::size_t held = 2 * width;
  std::vector<std::optional<Span>> made(held);   // span s in made[s % held]
  std::mutex lock;
  std::condition_variable changed;
  std::size_t begun = 0, handed = 0;
  bool stopped = false;
  std::exception_ptr thrown;
  const auto stop = [&](std::unique_lock<std::mutex>& locked, std::exception_ptr e) {
    if (!locked) locked.lock();
    if (!thrown) thrown = e;
    stopped = true;
    changed.notify_all();
  };
  // Makes the next span, where one is left and there is room to hold it; `locked` is held
  // before and after. False where none was begun.
  const auto make_next = [&](std::unique_lock<std::mutex>& locked) {
    if (stopped || begun == spans || begun >= handed + held) return false;
    const std::size_t s = begun++;
    locked.unlock();
    std::optional<Span> span(std::in_place);
    try {
      make(*span, s * per_span, std::min(count, (s + 1) * per_span));
    } catch (...) {
      stop(locked, std::current_exception());
      return true;
    }
    locked.lock();
    made[s % held].swap(span);
    changed.notify_all();
    return true;
  };
  const auto work = [&] {
    std::unique_lock<std::mutex> locked(lock, std::defer_lock);
    try {
      locked.lock();
      do changed.wait(locked, [&] { return stopped || begun == spans || begun < handed + held; });
      while (make_next(locked));
    } catch (...) {
      stop(locked, std::current_exception());
    }
  };
  std::vector<std::future<void>> workers;
  workers.reserve(width);
  for (std::size_t w = 1; w < width; ++w) {
    try {
      workers.push_back(std::async(std::launch::async, work));
    } catch (...) {
      break;   // those started, and this thread, make every span
    }
  }
  std::unique_lock<std::mutex> locked(lock);
  for (std::size_t s = 0; s < spans; ++s) {
    while (!stopped && !made[s % held])   // this thread makes spans too while it waits
      if (!make_next(locked)) changed.wait(locked);
    if (stopped) break;
    std::exception_ptr failed;
    {
      Span next = std::move(*made[s % held]);
      made[s % held].reset();
      locked.unlock();
      try {
        hand(next);
      } catch (...) {
        failed = std::current_exception();
      }
    }   // gone before its place is given to another span
    if (failed) {
      stop(locked, failed);
      break;
    }
    locked.lock();
    handed = s + 1;
    changed.notify_all();
  }
  if (locked) locked.unlock();
  for (auto& w : workers) w.wait();
  if (thrown) std::rethrow_exception(thrown);
}

}  // namespace labbook
