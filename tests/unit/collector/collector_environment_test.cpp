// The contract between the profiling session and the collector (collector_environment.h): what
// the parent writes as a CollectorRun's variables, the collector reads back as its config.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "collector.h"
#include "collector_environment.h"
#include "labbook/model/error.h"

using labbook::profiler::CollectorConfig;
using labbook::profiler::CollectorRun;
namespace env = labbook::profiler::env;

namespace {

/// Sets a run's variables for the test's length, an empty value as unset (the program's view).
class RunEnvironment {
 public:
  explicit RunEnvironment(const std::map<std::string, std::string>& variables) {
    for (const auto& [name, value] : variables) set(name, value);
  }
  void set(const std::string& name, const std::string& value) {
    names_.push_back(name);
    if (value.empty()) ::unsetenv(name.c_str());
    else ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~RunEnvironment() {
    for (const auto& name : names_) ::unsetenv(name.c_str());
  }

 private:
  std::vector<std::string> names_;
};

/// A run of `mode` that writes its measurement to `output`.
CollectorRun run_of(const std::string& mode, const std::string& output) {
  CollectorRun run;
  run.mode = mode;
  run.output = output;
  return run;
}

/// A run's variables as the session writes them, read back as the collector reads them.
CollectorConfig read_back(const CollectorRun& run) {
  const RunEnvironment variables(run.environment());
  return CollectorConfig::from_environment();
}

}  // namespace

TEST(CollectorEnvironment, AMetricsRunReadsBackAsWritten) {
  CollectorRun run = run_of("metrics", "/tmp/m.json");
  run.metrics = {"dram__bytes_read.sum", "smsp__inst_executed.sum"};
  run.replay = "kernel";
  run.cache_control = "none";
  run.pass = 2;
  run.nvtx = {"transpose/*", "copy"};
  run.kernels = {"transposeNaive"};
  run.launch_skip = 1000;
  run.launch_count = 20;
  run.expected_launches = 88;
  run.without_stops = true;
  run.profiled_only = true;
  const CollectorConfig c = read_back(run);
  EXPECT_FALSE(c.trace);
  EXPECT_EQ(c.output, run.output);
  EXPECT_EQ(c.metrics, run.metrics);
  EXPECT_TRUE(c.source_metrics.empty());
  EXPECT_FALSE(c.application_replay);
  EXPECT_FALSE(c.flush_l2);
  EXPECT_EQ(c.pass, 2);
  EXPECT_EQ(c.filter.nvtx, run.nvtx);
  EXPECT_EQ(c.filter.kernels, run.kernels);
  EXPECT_EQ(c.filter.skip, 1000u);
  EXPECT_EQ(c.filter.count, std::optional<std::uint64_t>(20));
  EXPECT_EQ(c.expected_launches, std::optional<std::uint64_t>(88));
  EXPECT_TRUE(c.without_stops);
  EXPECT_TRUE(c.profiled_only);
  EXPECT_TRUE(c.pass_plan.empty()) << "kernel replay plans no passes across runs";
}

TEST(CollectorEnvironment, ASourceRunCountsItsMetricsAsSassAndApplicationReplayPlansBesideItsOutput) {
  CollectorRun run = run_of("source", "/tmp/s.json");
  run.metrics = {"smsp__sass_inst_executed"};
  run.source_kernel = "_Z9transposePfS_";
  const CollectorConfig c = read_back(run);
  EXPECT_TRUE(c.metrics.empty());
  EXPECT_EQ(c.source_metrics, run.metrics);
  EXPECT_EQ(c.source_kernel, run.source_kernel);
  EXPECT_TRUE(c.application_replay);
  EXPECT_TRUE(c.flush_l2);
  EXPECT_EQ(c.pass_plan, "/tmp/s.json.pass-plan");
  EXPECT_FALSE(c.filter.count.has_value());
  EXPECT_FALSE(c.profiled_only) << "a source run carries every launch";
}

TEST(CollectorEnvironment, ARunThatNamesNoModeTraces) {
  CollectorRun run = run_of("trace", "/tmp/t.json");
  run.metrics = {"dram__bytes_read.sum"};
  const CollectorConfig traced = read_back(run);
  EXPECT_TRUE(traced.trace);
  EXPECT_TRUE(traced.metrics.empty()) << "a trace run's metrics are not passed";
  EXPECT_TRUE(read_back(run_of("", "/tmp/t.json")).trace);
  EXPECT_FALSE(read_back(run_of("metrics", "/tmp/t.json")).trace);
}

TEST(CollectorEnvironment, RefusesWhatItCannotRead) {
  const CollectorRun run = run_of("metrics", "/tmp/m.json");
  for (const auto& [name, value, said] : std::vector<std::tuple<const char*, const char*, const char*>>{
           {env::kLaunchSkip, "-3", "LABBOOK_LAUNCH_SKIP='-3': expected a whole number"},
           {env::kLaunchCount, "20x", "LABBOOK_LAUNCH_COUNT='20x': expected a whole number"},
           {env::kReplay, "fast", "LABBOOK_REPLAY='fast': expected kernel or application"},
           {env::kCacheControl, "some", "LABBOOK_CACHE_CONTROL='some': expected all or none"},
           {env::kL2Flush, "write,scrub", "LABBOOK_L2_FLUSH='write,scrub': "}}) {
    RunEnvironment variables(run.environment());
    variables.set(name, value);
    try {
      CollectorConfig::from_environment();
      ADD_FAILURE() << name << "=" << value << " was read";
    } catch (const labbook::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(said, 0), 0u) << e.what();
    }
  }
}
