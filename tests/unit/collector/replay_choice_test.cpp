// `labbook profile --replay auto` (profiler/replay_choice.h): kernel replay only where the
// trace run shows it is safe (one host thread, no managed memory, no graph launches) and
// cheaper than running the program again per pass; and profile_program hands the choice to
// the metrics run.
#include <gtest/gtest.h>

#include "collector_environment.h"
#include "labbook/model/measurement_json.h"
#include "profile_session.h"
#include "replay_choice.h"

using namespace labbook;
using namespace labbook::profiler;

namespace {

/// A trace of `launches` kernel launches and one API call each, all from thread 1.
Measurement traced(std::size_t launches) {
  Measurement m;
  m.program.mode = "trace";
  for (std::size_t i = 0; i < launches; ++i) {
    Kernel k;
    k.launch = i;
    k.name = "k()";
    k.mangled = "_Z1kv";
    k.thread = 1;
    k.correlation = static_cast<std::uint32_t>(i);
    m.kernels.push_back(k);
    m.api_calls.push_back({"cudaLaunchKernel", 1, static_cast<std::uint32_t>(i), 0, 0});
  }
  return m;
}

}  // namespace

TEST(ReplayChoice, FewLaunchesOfOneThreadTakeKernelReplay) {
  const ReplayChoice c = choose_replay(traced(2), 0.3, std::nullopt, std::nullopt);
  EXPECT_EQ(c.replay, "kernel");
  EXPECT_NE(c.why.find("2 launches"), std::string::npos) << c.why;
}

TEST(ReplayChoice, ManyLaunchesOfAShortProgramTakeApplicationReplay) {
  // 88 launches (lab 4) at about a quarter of a second each against a 2 s program run again
  // per pass; 521 against a 0.5 s one.
  EXPECT_EQ(choose_replay(traced(88), 2.0, std::nullopt, std::nullopt).replay, "application");
  EXPECT_EQ(choose_replay(traced(521), 0.5, std::nullopt, std::nullopt).replay, "application");
  // The same launches in a long program: a run per pass costs more.
  EXPECT_EQ(choose_replay(traced(88), 60.0, std::nullopt, std::nullopt).replay, "kernel");
  // A few launches of a short program (tests/programs/templates: 8 launches, 0.7 s).
  EXPECT_EQ(choose_replay(traced(8), 0.7, std::nullopt, std::nullopt).replay, "kernel");
}

TEST(ReplayChoice, ApplicationReplayOfMoreLaunchesThanAnImageSaysWhatGoesWithoutValues) {
  const auto within = choose_replay(traced(512), 0.5, std::nullopt, std::nullopt);
  EXPECT_EQ(within.why.find("only"), std::string::npos) << within.why;
  const auto beyond = choose_replay(traced(521), 0.5, std::nullopt, std::nullopt);
  EXPECT_NE(beyond.why.find("gets values for the first 512 only (--replay kernel for all)"), std::string::npos)
      << beyond.why;
}

TEST(ReplayChoice, TheLaunchWindowCountsNotAllLaunches) {
  EXPECT_EQ(choose_replay(traced(100000), 1.5, std::nullopt, 10).replay, "kernel");
  EXPECT_EQ(choose_replay(traced(100000), 1.5, 99990, std::nullopt).replay, "kernel");
  EXPECT_EQ(choose_replay(traced(100000), 1.5, 10, std::nullopt).replay, "application");
}

TEST(ReplayChoice, UnsafeProgramsTakeApplicationReplay) {
  Measurement threads = traced(2);
  threads.api_calls.push_back({"cudaMemcpy", 2, 9, 0, 0});
  const ReplayChoice t = choose_replay(threads, 0.3, std::nullopt, std::nullopt);
  EXPECT_EQ(t.replay, "application");
  EXPECT_NE(t.why.find("2 host threads"), std::string::npos) << t.why;

  Measurement managed = traced(2);
  managed.memory_events.push_back({});
  EXPECT_EQ(choose_replay(managed, 0.3, std::nullopt, std::nullopt).replay, "application");

  Measurement graphs = traced(2);
  graphs.api_calls.push_back({"cudaGraphLaunch", 1, 9, 0, 0});
  EXPECT_EQ(choose_replay(graphs, 0.3, std::nullopt, std::nullopt).replay, "application");
}

TEST(ReplayChoice, AllMetricsMayBeCarriedOnlyWhereNothingStopsTheFirstBatch) {
  EXPECT_TRUE(profiles_without_stops(traced(88), false));
  EXPECT_FALSE(profiles_without_stops(traced(88), true)) << "a filter by name may leave launches out between";
  for (const char* stop : {"cudaGraphLaunch", "cudaStreamBeginCapture", "cudaStreamBeginCaptureToGraph",
                           "cudaCtxResetPersistingL2Cache"}) {
    Measurement m = traced(88);
    m.api_calls.push_back({stop, 1, 99, 0, 0});
    EXPECT_FALSE(profiles_without_stops(m, false)) << stop;
  }
  Measurement driver = traced(88);
  driver.kernels.back().correlation = 1000;   // launched by a driver call: cuGraphLaunch, perhaps
  EXPECT_FALSE(profiles_without_stops(driver, false)) << "the driver API's graph launches and captures are not traced";
}

TEST(ReplayChoice, ProfileProgramPassesTheChoiceToTheMetricsRun) {
  std::vector<std::string> modes, replays, expected, without_stops;
  ProfileRequest r;
  r.command = {"./prog"};
  r.collector = "libcupti-collector.so";
  r.work_dir = testing::TempDir() + "/replay-auto";
  r.cupti_metrics = {"dram__bytes_read.sum"};
  r.replay = "auto";
  r.runner = [&](const auto&, const auto& env, const std::string&) {
    modes.push_back(env.at(env::kMode));
    replays.push_back(env.at(env::kReplay));
    expected.push_back(env.at(env::kExpectedLaunches));
    without_stops.push_back(env.at(env::kWithoutStops));
    write_measurement(traced(1), env.at(env::kOutput));
    return 0;
  };
  const ProfileOutcome o = profile_program(r);
  ASSERT_TRUE(o.collected);
  EXPECT_EQ(modes, (std::vector<std::string>{"trace", "metrics"})) << "kernel replay: one metrics run";
  EXPECT_EQ(replays.back(), "kernel");
  EXPECT_EQ(expected, (std::vector<std::string>{"", "1"})) << "the metrics run knows the trace run's launches";
  EXPECT_EQ(without_stops, (std::vector<std::string>{"", "1"})) << "... and that nothing stops them";

  without_stops.clear();
  r.kernels = {"k*"};
  profile_program(r);
  EXPECT_EQ(without_stops, (std::vector<std::string>{"", ""})) << "a filter by kernel name may leave launches out";
  r.kernels.clear();
  without_stops.clear();
  r.program_writes_plan_dir = false;   // labbook grade: no counters carried, so no one carried group
  profile_program(r);
  EXPECT_EQ(without_stops, (std::vector<std::string>{"", ""})) << "a program that cannot write the carried counters";
  r.program_writes_plan_dir = true;

  modes.clear();
  replays.clear();
  r.trace = false;   // no trace run to choose from
  profile_program(r);
  ASSERT_FALSE(replays.empty());
  EXPECT_EQ(replays.front(), "application");
}
