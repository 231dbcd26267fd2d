// `labbook profile --replay auto` (profiler/replay_choice.h): kernel replay only where the
// trace run shows it is safe (one host thread, no managed memory, no graph launches) and
// cheaper than running the program again per pass; and profile_program hands the choice to
// the metrics run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "collector_environment.h"
#include "labbook/model/measurement_json.h"
#include "cache_folder.h"
#include "pass_plan.h"
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

TEST(ReplayChoice, APlanKeptFromAnEarlierProfileCountsItsRuns) {
  // 20 launches of a 1.35 s program: three runs of application replay are taken to cost less
  // than replaying each; four (lab 4's set in groups) cost more.
  EXPECT_EQ(choose_replay(traced(20), 1.35, std::nullopt, std::nullopt).replay, "application");
  const ReplayChoice four = choose_replay(traced(20), 1.35, std::nullopt, std::nullopt, 4);
  EXPECT_EQ(four.replay, "kernel");
  EXPECT_NE(four.why.find("(4 runs by this metric set's plan, kept from an earlier profile on this GPU)"),
            std::string::npos)
      << four.why;
  // A metric set of one pass needs no replay: one run collects it all.
  EXPECT_EQ(choose_replay(traced(2), 0.3, std::nullopt, std::nullopt, 1).replay, "application");
}

TEST(ReplayChoice, ProfileProgramReadsThePlanAnEarlierProfileKept) {
  const std::string cache = testing::TempDir() + "/replay-cache";
  std::filesystem::remove_all(cache);
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = old_xdg ? old_xdg : "";
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  Measurement trace = traced(9);   // 9 launches at a quarter of a second against runs of a moment
  trace.devices.push_back({});
  trace.devices[0].chip = "GH100";
  trace.program.cupti_version = 130001;
  std::vector<std::string> replays;
  ProfileRequest r;
  r.command = {"./prog"};
  r.collector = "libcupti-collector.so";
  r.work_dir = testing::TempDir() + "/replay-cached-plan";
  r.cupti_metrics = {"dram__bytes_read.sum", "lts__t_sector_hit_rate.pct"};
  r.replay = "auto";
  r.kernels = {"k*"};   // a filter by name: the metrics are planned in groups
  r.runner = [&](const auto&, const auto& env, const std::string&) {
    if (env.at(env::kMode) == "metrics") replays.push_back(env.at(env::kReplay));
    write_measurement(trace, env.at(env::kOutput));
    return 0;
  };
  ASSERT_TRUE(profile_program(r).collected);
  ASSERT_FALSE(replays.empty());
  EXPECT_EQ(replays.front(), "application") << "no plan kept: three runs taken";

  const std::string folder = cache_folder(kPlanCacheKind);
  std::filesystem::create_directories(folder);
  PassPlan plan;
  plan.groups = {{{"dram__bytes_read.sum"}, 1}, {{"lts__t_sector_hit_rate.pct"}, 3}};
  write_plan(plan_cache_file(folder, "GH100", 130001, r.cupti_metrics, Carrying::AllInOneBatch), plan);
  replays.clear();
  ASSERT_TRUE(profile_program(r).collected);
  EXPECT_EQ(replays.front(), "application") << "a plan of the other carrying is not this run's";
  write_plan(plan_cache_file(folder, "GH100", 130001, r.cupti_metrics, Carrying::MultiPassMetricsOnly), plan);
  replays.clear();
  ASSERT_TRUE(profile_program(r).collected);
  EXPECT_EQ(replays, (std::vector<std::string>{"kernel"})) << "four runs kept: replaying 9 launches costs less";
  if (old_xdg) setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
}
