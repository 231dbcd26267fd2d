// The profiling session's source run (profiler/profile_session.h, `labbook profile
// --source`), driven by a fake runner that plays the collector: the run comes after the
// trace run with LABBOOK_MODE=source, its per-instruction counts join the trace's kernels,
// one source run per kernel the filter chooses (CUPTI counts one per run), and a source run
// that leaves nothing is an issue, never a lost profile.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "collector_environment.h"
#include "labbook/model/measurement_json.h"
#include "profile_session.h"

using namespace labbook;
using namespace labbook::profiler;

namespace {

/// A program of `kernels` kernels, one launch each. A source run counts the kernel named
/// (LABBOOK_SOURCE_KERNEL), or unnamed the kernel `first_choice` (none: a first run that
/// found no kernel at its first execution), and lists them all, as the collector does.
Measurement kernels_of(std::size_t kernels, bool source, const std::string& named = "",
                       std::optional<std::size_t> first_choice = 0) {
  Measurement m;
  m.program.mode = source ? "source" : "trace";
  for (std::size_t i = 0; i < kernels; ++i) {
    Kernel k;
    k.launch = i;
    k.name = "k" + std::to_string(i) + "()";
    k.mangled = "_Z2k" + std::to_string(i) + "v";
    k.range = "work";
    if (source) m.program.source_kernels.push_back(k.mangled);
    const bool counted = named.empty() ? first_choice == i : named == k.mangled;
    if (source && counted) k.sass = {{k.mangled, 0x40, "/src/k.cu", static_cast<int>(7 + i), {{"smsp__sass_inst_executed", 32}}}};
    m.kernels.push_back(k);
  }
  if (source) m.issues.push_back({"source_metric_missing", "this GPU offers no smsp__sass_sectors_mem_global_ideal"});
  return m;
}

Measurement one_kernel(bool with_sass) {
  Measurement m;
  m.program.mode = "trace";
  Kernel k;
  k.name = "k()";
  k.mangled = "_Z1kv";
  k.range = "work";
  if (with_sass) {
    m.program.source_kernels = {"_Z1kv"};   // as the collector says in a source run
    k.sass = {{"_Z1kv", 0x40, "/src/k.cu", 7, {{"smsp__sass_inst_executed", 32}}}};
  }
  m.kernels.push_back(k);
  return m;
}

struct FakeCollector {
  std::vector<std::string> modes;
  std::vector<std::string> stdout_paths;   ///< "" where the program's stdout is the user's
  std::string metrics;   ///< what the source run was asked to count
  bool source_writes = true;
  int operator()(const std::vector<std::string>&, const std::map<std::string, std::string>& env,
                 const std::string& stdout_path) {
    const std::string mode = env.at(env::kMode);
    modes.push_back(mode);
    stdout_paths.push_back(stdout_path);
    if (mode == "source") metrics = env.at(env::kMetrics);
    if (mode != "source" || source_writes) write_measurement(one_kernel(mode == "source"), env.at(env::kOutput));
    return 0;
  }
};

ProfileRequest request(FakeCollector& fake, const std::string& dir) {
  ProfileRequest r;
  r.command = {"./prog"};
  r.collector = "libcupti-collector.so";
  r.work_dir = dir;
  r.source_metrics = {"smsp__sass_inst_executed", "smsp__sass_sectors_mem_global"};
  r.runner = [&fake](const auto& c, const auto& e, const auto& o) { return fake(c, e, o); };
  return r;
}

/// A request for source runs alone into `dir` (its runner still to set).
ProfileRequest source_request(const std::string& dir) {
  ProfileRequest r;
  r.command = {"./prog"};
  r.collector = "libcupti-collector.so";
  r.work_dir = testing::TempDir() + "/" + dir;
  r.source_metrics = {"smsp__sass_inst_executed"};
  return r;
}

}  // namespace

TEST(ProfileSession, SourceRunComesLastAndItsLinesJoinTheKernels) {
  FakeCollector fake;
  const std::string dir = testing::TempDir() + "/session-source";
  const ProfileOutcome o = profile_program(request(fake, dir));
  EXPECT_EQ(fake.modes, (std::vector<std::string>{"trace", "source"}));
  EXPECT_EQ(fake.metrics, "smsp__sass_inst_executed,smsp__sass_sectors_mem_global") << "the SASS metrics, through LABBOOK_METRICS";
  ASSERT_TRUE(o.collected);
  ASSERT_EQ(o.measurement.kernels.size(), 1u);
  ASSERT_EQ(o.measurement.kernels[0].sass.size(), 1u);
  EXPECT_EQ(o.measurement.kernels[0].sass[0].file, "/src/k.cu");
  EXPECT_TRUE(o.measurement.issues.empty());
}

TEST(ProfileSession, VerboseSaysHowLongEachRunsMeasurementTookToRead) {
  for (const bool verbose : {false, true}) {
    FakeCollector fake;
    ProfileRequest r = request(fake, testing::TempDir() + "/session-verbose-" + std::to_string(verbose));
    r.verbose = verbose;
    testing::internal::CaptureStderr();
    const bool collected = profile_program(r).collected;
    const std::string said = testing::internal::GetCapturedStderr();   // before any assertion ends the test
    ASSERT_TRUE(collected);
    for (const char* run : {"trace-run.json read in ", "source-run-1.json read in "})
      EXPECT_EQ(said.find(run) != std::string::npos, verbose) << run << " in: " << said;
    EXPECT_EQ(said.find(" s after the collector wrote it") != std::string::npos, verbose) << said;
  }
}

TEST(ProfileSession, ASourceRunThatLeavesNothingIsAnIssue) {
  FakeCollector fake;
  fake.source_writes = false;
  const ProfileOutcome o = profile_program(request(fake, testing::TempDir() + "/session-source-lost"));
  ASSERT_TRUE(o.collected) << "the trace is kept";
  ASSERT_EQ(o.measurement.issues.size(), 1u);
  EXPECT_EQ(o.measurement.issues[0].code, "source_lost");
  EXPECT_TRUE(o.measurement.kernels[0].sass.empty());
}

TEST(ProfileSession, WithoutTraceTheSourceRunIsTheProgramsOwnRun) {
  // --source --no-trace: one run, its stdout the user's and its exit code the one passed on.
  FakeCollector fake;
  ProfileRequest r = request(fake, testing::TempDir() + "/session-source-alone");
  r.trace = false;
  const ProfileOutcome o = profile_program(r);
  EXPECT_EQ(fake.modes, std::vector<std::string>{"source"});
  EXPECT_EQ(fake.stdout_paths, std::vector<std::string>{""}) << "the program's output goes to the user";
  ASSERT_TRUE(o.collected);
  EXPECT_EQ(o.measurement.program.mode, "source");
  ASSERT_EQ(o.measurement.kernels.at(0).sass.size(), 1u);
}

TEST(ProfileSession, OneSourceRunPerKernelNamingThoseStillUncounted) {
  std::vector<std::string> named, stdout_paths;
  std::optional<std::size_t> first_choice = 0;
  ProfileRequest r = source_request("");
  r.runner = [&](const auto&, const auto& env, const std::string& stdout_path) {
    const bool source = env.at(env::kMode) == "source";
    if (source) named.push_back(env.at(env::kSourceKernel));
    stdout_paths.push_back(stdout_path);
    write_measurement(kernels_of(3, source, source ? env.at(env::kSourceKernel) : "", first_choice), env.at(env::kOutput));
    return 0;
  };
  for (const bool trace : {true, false}) {
    for (const auto choice : {std::optional<std::size_t>(0), std::optional<std::size_t>(1), std::optional<std::size_t>()}) {
      named.clear();
      stdout_paths.clear();
      first_choice = choice;
      r.trace = trace;
      r.work_dir = testing::TempDir() + "/session-source-per-kernel-" + std::to_string(trace);
      const ProfileOutcome o = profile_program(r);
      // The first run chooses; then each kernel still without counts is named, once.
      std::vector<std::string> want = {""};
      for (std::size_t i = 0; i < 3; ++i)
        if (choice != i) want.push_back("_Z2k" + std::to_string(i) + "v");
      EXPECT_EQ(named, want) << "trace " << trace;
      EXPECT_EQ(stdout_paths.front(), "") << "the first run's output is the user's";
      for (std::size_t i = 1; i < stdout_paths.size(); ++i) EXPECT_NE(stdout_paths[i], "") << "later runs' is not";
      ASSERT_EQ(o.measurement.kernels.size(), 3u);
      for (std::size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(o.measurement.kernels[i].sass.size(), 1u) << "kernel " << i << ", trace " << trace;
        EXPECT_EQ(o.measurement.kernels[i].sass[0].line, static_cast<int>(7 + i)) << "each from its own run";
      }
      ASSERT_EQ(o.measurement.issues.size(), 1u) << "what every run says, said once";
      EXPECT_EQ(o.measurement.issues[0].code, "source_metric_missing");
    }
  }
}

TEST(ProfileSession, SourceRunsMayChooseKernelsByRangeApart) {
  // A lab counts its memory charts' kernels; its metrics runs still profile every launch.
  std::map<std::string, std::string> nvtx_by_mode;
  ProfileRequest r = source_request("session-source-nvtx");
  r.cupti_metrics = {"dram__bytes_read.sum"};
  r.source_nvtx = {"tile/unpadded", "tile/padded"};
  r.runner = [&](const auto&, const auto& env, const std::string&) {
    nvtx_by_mode[env.at(env::kMode)] = env.at(env::kNvtx);
    write_measurement(kernels_of(1, env.at(env::kMode) == "source"), env.at(env::kOutput));
    return 0;
  };
  profile_program(r);
  EXPECT_EQ(nvtx_by_mode["source"], "tile/unpadded,tile/padded");
  EXPECT_EQ(nvtx_by_mode["metrics"], "");
}

TEST(ProfileSession, SourceRunsAloneTakeTheirOwnArguments) {
  // A lab narrows its source runs to one experiment; its own run and metrics runs stay whole.
  std::map<std::string, std::vector<std::string>> command_by_mode;
  ProfileRequest r = source_request("session-source-args");
  r.cupti_metrics = {"dram__bytes_read.sum"};
  r.source_args = {"--only", "readSegment/offset=11"};
  r.runner = [&](const auto& command, const auto& env, const std::string&) {
    command_by_mode[env.at(env::kMode)] = command;
    write_measurement(kernels_of(1, env.at(env::kMode) == "source"), env.at(env::kOutput));
    return 0;
  };
  profile_program(r);
  EXPECT_EQ(command_by_mode["source"], (std::vector<std::string>{"./prog", "--only", "readSegment/offset=11"}));
  EXPECT_EQ(command_by_mode["trace"], std::vector<std::string>{"./prog"});
  EXPECT_EQ(command_by_mode["metrics"], std::vector<std::string>{"./prog"});
}

TEST(ProfileSession, ASourceRunThatFindsNoKernelSaysSo) {
  ProfileRequest r = source_request("session-source-none");
  r.kernels = {"noSuchKernel"};
  r.runner = [](const auto&, const auto& env, const std::string&) {
    write_measurement(kernels_of(2, false), env.at(env::kOutput));   // the filter chose none: no list
    return 0;
  };
  const ProfileOutcome o = profile_program(r);
  ASSERT_EQ(o.measurement.issues.size(), 1u);
  EXPECT_NE(o.measurement.issues[0].message.find("launched no kernel the filter chooses"), std::string::npos);
}

TEST(ProfileSession, NoSourceRunUnlessAskedFor) {
  FakeCollector fake;
  ProfileRequest r = request(fake, testing::TempDir() + "/session-no-source");
  r.source_metrics.clear();
  profile_program(r);
  EXPECT_EQ(fake.modes, std::vector<std::string>{"trace"});
}

TEST(ProfileSession, DiscardingTheRunsRemovesTheirFilesAndAnEmptyFolderOnly) {
  const auto dir = std::filesystem::temp_directory_path() / "labbook-discard-runs-test";
  std::filesystem::remove_all(dir);
  ProfileRequest request;
  request.work_dir = (dir / "runs").string();
  const auto touch = [](const std::filesystem::path& p) { std::ofstream(p) << "{}"; };
  std::filesystem::create_directories(request.work_dir);
  for (const char* f : {"trace-run.json", "metrics-run-1.json", "source-run-2.json", "pass-plan.json"})
    touch(std::filesystem::path(request.work_dir) / f);
  EXPECT_EQ(discard_run_measurements(request), 3);
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(request.work_dir) / "pass-plan.json"));
  std::filesystem::remove(std::filesystem::path(request.work_dir) / "pass-plan.json");
  touch(std::filesystem::path(request.work_dir) / "trace-run.json");
  EXPECT_EQ(discard_run_measurements(request), 1);
  EXPECT_FALSE(std::filesystem::exists(request.work_dir)) << "an empty runs/ folder is not left behind";
  std::filesystem::remove_all(dir);
}

// A metrics run that joins a measurement of every launch carries only the kernels it
// profiles: every one after the trace run; without one, each after the program's own run.
TEST(ProfileSession, MetricsRunsThatJoinAnotherCarryOnlyTheirProfiledKernels) {
  for (const bool trace : {true, false}) {
    ProfileRequest r;
    r.command = {"./prog"};
    r.collector = "libcupti-collector.so";
    r.work_dir = testing::TempDir() + "/profiled-only-" + std::to_string(trace);
    r.trace = trace;
    r.cupti_metrics = {"dram__bytes_read.sum"};
    r.replay = "application";
    std::vector<std::string> told;
    r.runner = [&told](const auto&, const auto& env, const auto&) {
      Measurement m = one_kernel(false);
      if (env.at(env::kMode) == "metrics") {
        told.push_back(env.at(env::kProfiledOnly));
        m.metric_passes = 2;   // the plan: two runs
      }
      write_measurement(m, env.at(env::kOutput));
      return 0;
    };
    EXPECT_TRUE(profile_program(r).collected);
    const std::vector<std::string> expected = trace ? std::vector<std::string>{"1", "1"} : std::vector<std::string>{"", "1"};
    EXPECT_EQ(told, expected) << (trace ? "after a trace run" : "no trace run");
  }
}

namespace {

/// Waits up to 10 s for `path` to be opened (labbook's watch reading it), through `inotify`,
/// which watches its folder for IN_OPEN.
void wait_for_a_reader(int inotify, const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  alignas(inotify_event) char events[4096];
  for (int waited = 0; waited < 100; ++waited) {
    pollfd ready{inotify, POLLIN, 0};
    if (::poll(&ready, 1, 100) <= 0) continue;
    const ssize_t size = ::read(inotify, events, sizeof events);
    for (ssize_t at = 0; at < size;) {
      const auto* event = reinterpret_cast<const inotify_event*>(events + at);
      if (event->len > 0 && name == event->name) return;
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
}

}  // namespace

TEST(ProfileSession, TheMeasurementIsReadWhileTheProgramEnds) {
  // The fake program goes on after its collector wrote (CUDA's teardown) until labbook reads.
  ProfileRequest r;
  r.command = {"./prog"};
  r.collector = "libcupti-collector.so";
  r.work_dir = testing::TempDir() + "/session-early";
  r.verbose = true;
  r.runner = [&r](const auto&, const auto& env, const auto&) {
    const int inotify = inotify_init1(IN_CLOEXEC);
    inotify_add_watch(inotify, r.work_dir.c_str(), IN_OPEN);
    write_measurement(one_kernel(false), env.at(env::kOutput));
    wait_for_a_reader(inotify, env.at(env::kOutput));
    ::close(inotify);
    return 3;
  };
  testing::internal::CaptureStderr();
  const ProfileOutcome o = profile_program(r);
  const std::string said = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(o.collected);
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_EQ(o.measurement.program.exit_code, 3);
  ASSERT_EQ(o.measurement.kernels.size(), 1u);
  EXPECT_NE(said.find("trace-run.json read in "), std::string::npos) << said;
  EXPECT_NE(said.find(" while the program ended (1 kernels); it exited "), std::string::npos) << said;
}

TEST(ProfileSession, ATraceRunThatNoRunJoinsIsGivenOnWhileTheProgramEnds) {
  for (const bool source : {false, true}) {
    ProfileRequest r;
    r.command = {"./prog"};
    r.collector = "libcupti-collector.so";
    r.work_dir = testing::TempDir() + "/session-while-ending";
    if (source) r.source_metrics = {"smsp__sass_inst_executed"};
    std::atomic<int> given{0};
    std::vector<std::string> command_given;   // written on the watch's thread, read after the run
    r.while_ending = [&given, &command_given](Measurement& m) {
      command_given = m.program.command;
      m.program.exit_code = 0;   // what the hook expects; the program's own replaces it
      given += static_cast<int>(m.kernels.size());
    };
    // The fake program ends only once its measurement was given on (or, with a source run
    // to follow, once it was read).
    r.runner = [&r, &given, source](const auto&, const auto& env, const auto&) {
      const int inotify = inotify_init1(IN_CLOEXEC);
      inotify_add_watch(inotify, r.work_dir.c_str(), IN_OPEN);
      write_measurement(one_kernel(env.at(env::kMode) == "source"), env.at(env::kOutput));
      wait_for_a_reader(inotify, env.at(env::kOutput));
      ::close(inotify);
      for (int i = 0; i < 500 && !source && given == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      return 3;
    };
    const ProfileOutcome o = profile_program(r);
    ASSERT_TRUE(o.collected);
    EXPECT_EQ(given, source ? 0 : 1) << (source ? "a source run follows" : "trace alone");
    EXPECT_EQ(o.given_while_ending, !source);
    EXPECT_EQ(command_given, source ? std::vector<std::string>{} : r.command);
    EXPECT_EQ(o.measurement.program.exit_code, 3);
  }
}
