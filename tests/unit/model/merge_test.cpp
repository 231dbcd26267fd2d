#include <gtest/gtest.h>

#include <map>

#include "labbook/model/merge.h"

using namespace labbook;

namespace {
Kernel kernel(std::uint64_t launch, const std::string& mangled) {
  Kernel k;
  k.launch = launch;
  k.mangled = k.name = mangled;
  return k;
}
}  // namespace

TEST(MergeRuns, AttachesMetricsToTheSameLaunch) {
  Measurement trace, metrics;
  trace.kernels = {kernel(0, "a"), kernel(1, "b")};
  trace.kernels[0].start_ns = 1;
  trace.kernels[0].end_ns = 2;
  metrics.kernels = {kernel(0, "a"), kernel(1, "b")};
  metrics.kernels[1].metrics["m"] = 7;
  metrics.metrics_requested = {"m"};
  metrics.metric_passes = 2;
  metrics.metric_scope = "kernels 'b'";
  trace.program.stop_reason = metrics.program.stop_reason = "exit";
  const Measurement out = merge_runs(trace, metrics);
  EXPECT_EQ(out.kernels[1].metrics.at("m"), 7);
  EXPECT_EQ(out.metric_passes, 2);
  EXPECT_EQ(out.metric_scope, "kernels 'b'");
  EXPECT_EQ(out.program.stop_reason, "exit");
  EXPECT_EQ(out.kernels[0].start_ns, 1u);
  EXPECT_EQ(out.program.mode, "trace+metrics");
  EXPECT_TRUE(out.issues.empty());
}

TEST(MergeRuns, DifferentLaunchSequencesBecomeAnIssueNotAWrongAttribution) {
  Measurement trace, metrics;
  trace.kernels = {kernel(0, "a"), kernel(1, "b")};
  metrics.kernels = {kernel(0, "a"), kernel(1, "c"), kernel(2, "d")};
  metrics.kernels[1].metrics["m"] = 7;
  const Measurement out = merge_runs(trace, metrics);
  EXPECT_TRUE(out.kernels[1].metrics.empty());
  ASSERT_TRUE(out.has_issue("launch_mismatch"));
  EXPECT_NE(out.issues.back().message.find("1 kernels of the trace run and 2 of the metrics run"), std::string::npos)
      << out.issues.back().message;
}

TEST(MergeRuns, AMetricsRunThatCrashedSaysSo) {
  Measurement trace, metrics;
  trace.program.stop_reason = "exit";
  metrics.program.stop_reason = "signal SIGSEGV";
  EXPECT_EQ(merge_runs(trace, metrics).program.stop_reason, "signal SIGSEGV");
}

TEST(MergeRuns, MatchesByRangeAndNameWhateverOrderThreadsLaunchedIn) {
  Measurement trace, metrics;
  auto in = [](Kernel k, const char* range) {
    k.range = range;
    return k;
  };
  // Two workers launch "scale" twice each; the runs interleave them differently.
  trace.kernels = {in(kernel(0, "scale"), "w0"), in(kernel(1, "scale"), "w1"), in(kernel(2, "scale"), "w0"),
                   in(kernel(3, "scale"), "w1")};
  metrics.kernels = {in(kernel(0, "scale"), "w1"), in(kernel(1, "scale"), "w1"), in(kernel(2, "scale"), "w0"),
                     in(kernel(3, "scale"), "w0")};
  for (std::size_t i = 0; i < 4; ++i) metrics.kernels[i].metrics["id"] = static_cast<double>(i);
  const Measurement out = merge_runs(trace, metrics);
  EXPECT_EQ(out.kernels[0].metrics.at("id"), 2) << "first w0 launch";
  EXPECT_EQ(out.kernels[1].metrics.at("id"), 0) << "first w1 launch";
  EXPECT_EQ(out.kernels[2].metrics.at("id"), 3);
  EXPECT_EQ(out.kernels[3].metrics.at("id"), 1);
  EXPECT_FALSE(out.has_issue("launch_mismatch"));
}

namespace {
/// A metrics run that carries only `profiled` of `kernels` (their ordinals set), with the
/// tally of them all, as the collector writes it after a trace run.
Measurement profiled_only(const std::vector<Kernel>& kernels, const std::vector<std::size_t>& profiled) {
  Measurement m;
  m.launch_tally.emplace();
  std::map<std::pair<std::string, std::string>, std::uint64_t> seen;
  std::vector<std::uint64_t> ordinals;
  for (const auto& k : kernels) ordinals.push_back(seen[{k.range, k.mangled}]++);
  for (const auto& [key, n] : seen) m.launch_tally->push_back({key.first, key.second, n});
  for (std::size_t i : profiled) {
    m.kernels.push_back(kernels.at(i));
    m.kernels.back().ordinal = ordinals.at(i);
  }
  return m;
}
}  // namespace

TEST(MergeRuns, AMetricsRunOfItsProfiledKernelsAloneGivesThemTheirMetrics) {
  Measurement trace;
  trace.kernels = {kernel(0, "a"), kernel(1, "b"), kernel(2, "a"), kernel(3, "a"), kernel(4, "b")};
  std::vector<Kernel> launched = trace.kernels;
  launched[2].metrics["m"] = 3;
  launched[4].metrics["m"] = 5;
  const Measurement out = merge_runs(trace, profiled_only(launched, {2, 4}));
  EXPECT_EQ(out.kernels[2].metrics.at("m"), 3) << "the second launch of a";
  EXPECT_EQ(out.kernels[4].metrics.at("m"), 5) << "the second launch of b";
  EXPECT_TRUE(out.kernels[0].metrics.empty());
  EXPECT_TRUE(out.kernels[3].metrics.empty());
  EXPECT_FALSE(out.has_issue("launch_mismatch"));
  EXPECT_FALSE(out.launch_tally.has_value()) << "the merged measurement lists every launch";
  EXPECT_FALSE(out.kernels[2].ordinal.has_value());
}

TEST(MergeRuns, ATallyThatDiffersFromTheTraceIsAnIssueEvenWhereEveryProfiledKernelMatches) {
  Measurement trace;
  trace.kernels = {kernel(0, "a"), kernel(1, "b"), kernel(2, "a")};
  std::vector<Kernel> launched = {kernel(0, "a"), kernel(1, "b"), kernel(2, "a"), kernel(3, "c")};
  launched[0].metrics["m"] = 1;
  const Measurement out = merge_runs(trace, profiled_only(launched, {0}));
  ASSERT_TRUE(out.has_issue("launch_mismatch"));
  EXPECT_NE(out.issues.back().message.find("0 kernels of the trace run and 1 of the metrics run"), std::string::npos)
      << out.issues.back().message;
  const Measurement fewer = merge_runs(trace, profiled_only({kernel(0, "a"), kernel(1, "b")}, {0}));
  ASSERT_TRUE(fewer.has_issue("launch_mismatch"));
  EXPECT_NE(fewer.issues.back().message.find("1 kernels of the trace run and 0 of the metrics run"), std::string::npos)
      << fewer.issues.back().message;
}

TEST(MergeRuns, KeepsIssuesOfTheMetricsRun) {
  Measurement trace, metrics;
  metrics.issues.push_back({"counters_denied", "..."});
  EXPECT_TRUE(merge_runs(trace, metrics).has_issue("counters_denied"));
}

TEST(MergeRuns, KeepsEachRunsOwnWordsOnceWhateverTheirCode) {
  Measurement first, second;
  first.issues.push_back({"metrics_lost", "x: 9 launches after the first 512 have no value"});
  second.issues = first.issues;
  second.issues.push_back({"metrics_lost", "x: CUPTI's last pass gave 18 ranges to 9 launches"});
  const Measurement out = merge_runs(merge_runs(Measurement{}, first), second);
  ASSERT_EQ(out.issues.size(), 2u) << "the same words once, other words of the same code kept";
  EXPECT_EQ(out.issues[1].message, second.issues[1].message);
}

TEST(MergeSass, GivesEachKernelItsOwnInstructionsAndKeepsEverythingElse) {
  Measurement into;
  into.kernels = {kernel(0, "a"), kernel(1, "b"), kernel(2, "a")};
  into.kernels[0].metrics = {{"x", 1}};
  into.metrics_requested = {"x"};
  Measurement source;
  source.kernels = {kernel(0, "a"), kernel(1, "b"), kernel(2, "a"), kernel(3, "z")};
  source.kernels[2].sass = {{"a", 0x10, "a.cu", 3, {{"smsp__sass_inst_executed", 7}}}};
  source.kernels[3].sass = {{"z", 0x10, "z.cu", 1, {}}};
  source.issues.push_back({"source_lost", "cuptiSassMetricsFlushData: an example"});
  merge_sass(into, source);
  EXPECT_TRUE(into.kernels[0].sass.empty()) << "the first launch of a had none";
  ASSERT_EQ(into.kernels[2].sass.size(), 1u) << "the second launch of a, matched by count";
  EXPECT_EQ(into.kernels[2].sass[0].line, 3);
  EXPECT_EQ(into.kernels[0].metrics.at("x"), 1) << "metrics untouched";
  EXPECT_EQ(into.metrics_requested, std::vector<std::string>{"x"});
  ASSERT_EQ(into.issues.size(), 2u);
  EXPECT_EQ(into.issues[0].code, "launch_mismatch") << "z has no partner";
  EXPECT_EQ(into.issues[1].code, "source_lost") << "the source run's own issues come along";
}

TEST(LaunchTally, SumsAPairListedTwiceAndKeepsPairsApart) {
  const std::vector<LaunchTally> tally = {{"loop", "a", 3}, {"loop", "b", 1}, {"", "a", 2}, {"loop", "a", 4}};
  const auto counted = launches_by_range_and_kernel(tally);
  ASSERT_EQ(counted.size(), 3u);
  EXPECT_EQ(counted.at({"loop", "a"}), 7u);
  EXPECT_EQ(counted.at({"loop", "b"}), 1u);
  EXPECT_EQ(counted.at({"", "a"}), 2u);
}
