// side_by_side (model/include/labbook/model/side_by_side.h): every task runs once, and a task's
// exception comes out only after every task has ended; as many at once as there are cores allowed.
#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "labbook/model/side_by_side.h"

using labbook::side_by_side;
using labbook::side_by_side_width;

namespace {
// The first `count` cores of `from`, as `taskset -c` or a Slurm job of that many CPUs allows.
cpu_set_t first_cores(const cpu_set_t& from, int count) {
  cpu_set_t some;
  CPU_ZERO(&some);
  for (int cpu = 0; cpu < CPU_SETSIZE && CPU_COUNT(&some) < count; ++cpu)
    if (CPU_ISSET(cpu, &from)) CPU_SET(cpu, &some);
  return some;
}
}  // namespace

// The width follows the cores this thread is allowed, never above 8, and comes back with them.
TEST(SideBySide, RunsNoWiderThanTheCoresThisThreadMayRunOn) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  const int allowed = CPU_COUNT(&before);
  const std::size_t width = side_by_side_width();
  EXPECT_GE(width, 1u);
  EXPECT_LE(width, 8u);
  for (int cores : {1, 2, 3, 9}) {
    if (cores > allowed) break;
    const cpu_set_t some = first_cores(before, cores);
    ASSERT_EQ(sched_setaffinity(0, sizeof some, &some), 0);
    EXPECT_EQ(side_by_side_width(), cores == 9 ? 8u : static_cast<std::size_t>(cores)) << cores << " cores allowed";
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(side_by_side_width(), width) << "the cores given back";
}

TEST(SideBySide, RunsEveryTaskOnce) {
  std::vector<std::atomic<int>> runs(20);
  side_by_side(runs.size(), [&](std::size_t i) { ++runs[i]; });
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  side_by_side(0, [](std::size_t) { FAIL() << "no task to run"; });
}

TEST(SideBySide, AThrownExceptionComesOutOnceEveryTaskHasEnded) {
  std::atomic<int> ended{0};
  for (std::size_t thrower : {0u, 3u}) {   // the task in this thread, and one on another
    ended = 0;
    try {
      side_by_side(6, [&](std::size_t i) {
        if (i == thrower) throw std::runtime_error("task " + std::to_string(i));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ++ended;
      });
      ADD_FAILURE() << "the exception was lost";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "task " + std::to_string(thrower));
      EXPECT_EQ(ended.load(), 5) << "the other tasks had all ended";
    }
  }
}

TEST(SideBySide, SpansAreHandedOnInOrderEachItemOnce) {
  for (std::size_t count : {0u, 1u, 7u, 100u, 1003u}) {
    std::vector<std::size_t> handed;
    std::size_t spans = 0;
    labbook::in_ordered_spans<std::vector<std::size_t>>(
        count, 7,
        [](std::vector<std::size_t>& span, std::size_t from, std::size_t to) {
          EXPECT_TRUE(span.empty()) << "each span starts fresh";
          for (std::size_t i = from; i < to; ++i) span.push_back(i);
        },
        [&](const std::vector<std::size_t>& span) {
          ++spans;
          handed.insert(handed.end(), span.begin(), span.end());
        });
    ASSERT_EQ(handed.size(), count);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(handed[i], i) << "count " << count;
    EXPECT_EQ(spans, (count + 6) / 7);
  }
}

// A span is handed on while later ones are made, but no more than twice the width are alive.
namespace {
struct Counted {   // counts spans, not the objects a span is moved through
  static std::atomic<long> alive, most;
  std::size_t from = 0;
  bool live = true;
  Counted() { seen(++alive); }
  Counted(Counted&& other) noexcept : from(other.from), live(std::exchange(other.live, false)) {}
  Counted& operator=(Counted&& other) noexcept {
    if (live) --alive;
    from = other.from;
    live = std::exchange(other.live, false);
    return *this;
  }
  ~Counted() {
    if (live) --alive;
  }
  static void seen(long now) {
    long before = most.load();
    while (now > before && !most.compare_exchange_weak(before, now)) {
    }
  }
};
std::atomic<long> Counted::alive{0}, Counted::most{0};
}  // namespace

TEST(SideBySide, SpansAliveAtOnceAreAtMostTwiceTheWidth) {
  Counted::most = 0;   // as often as the test is run
  std::size_t handed = 0;
  labbook::in_ordered_spans<Counted>(
      400, 1, [](Counted& span, std::size_t from, std::size_t) { span.from = from; },
      [&](const Counted& span) {
        EXPECT_EQ(span.from, handed++);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      });
  EXPECT_EQ(handed, 400u);
  EXPECT_EQ(Counted::alive.load(), 0);
  EXPECT_LE(Counted::most.load(), static_cast<long>(2 * side_by_side_width()));
  if (side_by_side_width() > 1) {
    EXPECT_GT(Counted::most.load(), 1) << "later spans were made while one was handed on";
  }
}

// A span that throws stops those not yet begun; its exception comes out, and no span from it
// on was handed on. The same for a hand that throws.
TEST(SideBySide, AThrowingSpanOrHandStopsTheSpansNotYetBegun) {
  for (const bool hand_throws : {false, true}) {
    std::atomic<std::size_t> made{0};
    std::vector<std::size_t> handed;
    try {
      labbook::in_ordered_spans<std::size_t>(
          100000, 1,
          [&](std::size_t& span, std::size_t from, std::size_t) {
            if (!hand_throws && from == 5) throw std::runtime_error("span 5");
            span = from;
            ++made;
          },
          [&](const std::size_t& span) {
            if (hand_throws && span == 5) throw std::runtime_error("span 5");
            handed.push_back(span);
          });
      ADD_FAILURE() << "the exception was lost";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "span 5");
    }
    if (hand_throws) ASSERT_EQ(handed.size(), 5u) << "the hand threw at span 5";
    else ASSERT_LE(handed.size(), 5u) << "span 5 threw";
    for (std::size_t i = 0; i < handed.size(); ++i) EXPECT_EQ(handed[i], i);
    EXPECT_LT(made.load(), 1000u) << "the spans after it were not all made";
  }
}
