#pragma once
/// @file
/// Tasks run side by side on the cores this thread may run on: the report step's work on a
/// measurement of 10^5 launches (reading its tables, writing trace.json.gz and
/// measurements.json) in spans.
#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <future>
#include <system_error>
#include <thread>
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

/// Items [0, count) made in spans of `per_span` items side by side and handed on in order: a
/// round of at most side_by_side_width() spans at a time, so that what is held is a round's
/// (the text of 10^5 launches is tens of megabytes). `make(span, from, to)` fills a fresh Span
/// with items [from, to); `hand(span)` takes it, in order, once its round has ended.
template <typename Span, typename Make, typename Hand>
void in_ordered_spans(std::size_t count, std::size_t per_span, const Make& make, const Hand& hand) {
  const std::size_t width = side_by_side_width();
  std::vector<Span> round(width);
  for (std::size_t begin = 0; begin < count; begin += width * per_span) {
    const std::size_t spans = std::min(width, (count - begin + per_span - 1) / per_span);
    side_by_side(spans, [&](std::size_t s) {
      const std::size_t from = begin + s * per_span;
      round[s] = Span{};
      make(round[s], from, std::min(count, from + per_span));
    });
    for (std::size_t s = 0; s < spans; ++s) hand(round[s]);
  }
}

}  // namespace labbook
