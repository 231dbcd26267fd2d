// The audit of a harness's calls against what the collector saw: sums over every kernel of a
// call, and each way a measurement can be gamed found with its reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "call_audit.h"
#include "combined_counters.h"
#include "named_quantity.h"

using namespace labbook;
using namespace labbook::grading;

namespace {

constexpr double kMB = 1e6;
const char* kLd = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
const char* kLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";

Kernel kernel(const std::string& range, double ns, double dram_read, double dram_write, double efficiency = 100,
              double sectors = 1000) {
  static std::uint64_t launch = 0;
  Kernel k;
  k.launch = launch++;
  k.name = "transpose_kernel(float const*, float*, unsigned int, unsigned int)";
  k.range = range;
  k.start_ns = 1000;
  k.end_ns = 1000 + static_cast<std::uint64_t>(ns);
  k.metrics = {{"dram__bytes_read.sum", dram_read}, {"dram__bytes_write.sum", dram_write}, {kLd, efficiency}, {kLdSectors, sectors}};
  return k;
}

/// An honest run: three timed calls of 64 MB in and out taking 0.1 ms of kernel each, and a
/// reference twice as fast.
struct HonestRun {
  Measurement m;
  HarnessResult h;
  HonestRun() {
    DeviceFacts d;
    d.l2_bytes = 50 * 1000 * 1000;
    d.memory_clock_khz = 2619000;
    d.memory_bus_width_bits = 5120;   // 3.35 TB/s
    m.devices.push_back(d);
    h.correct = true;
    h.calls.push_back({"student/n=1000", 0.020, 4e6, 4e6});   // first call: module loading in its time
    m.kernels.push_back(kernel("student/n=1000", 1e4, 4e6, 4e6));
    for (int i = 1; i <= 3; ++i) {
      const std::string mine = "student/n=8192/" + std::to_string(i), ref = "reference/n=8192/" + std::to_string(i);
      h.calls.push_back({mine, 0.0003, 64 * kMB, 64 * kMB});
      h.calls.push_back({ref, 0.0002, 0, 0});
      m.kernels.push_back(kernel(mine, 1e5, 64 * kMB, 64 * kMB));
      m.kernels.push_back(kernel(ref, 5e4, 64 * kMB, 64 * kMB));
    }
  }
  CallAudit audit(std::vector<std::string> names = {"time", "gld_efficiency", "speed_pct_of_reference"}) const {
    std::vector<labbook::Quantity> quantities;
    for (const auto& n : names) quantities.push_back(named_quantity(n));
    return audit_calls(m, h, "student/n=8192", "reference/n=8192", quantities);
  }
};

}  // namespace

TEST(CallAudit, AnHonestRunHasNoFindingAndIsMeasuredOverItsTimedCalls) {
  const CallAudit a = HonestRun().audit();
  EXPECT_TRUE(a.findings.empty()) << a.findings.front();
  EXPECT_DOUBLE_EQ(a.measured.at("time"), 1e5);
  EXPECT_DOUBLE_EQ(a.measured.at("speed_pct_of_reference"), 50);
  EXPECT_DOUBLE_EQ(a.measured.at("gld_efficiency"), 100);
  EXPECT_TRUE(within("student/n=8192/1", "student/n=8192"));
  EXPECT_FALSE(within("student/n=81920", "student/n=8192"));
}

TEST(CallAudit, ACallsTimeAndCountersAddUpOverAllItsKernels) {
  HonestRun r;
  // Each timed call also launches nine empty kernels: a median of its kernels would be ~0.
  for (int i = 1; i <= 3; ++i)
    for (int j = 0; j < 9; ++j) r.m.kernels.push_back(kernel("student/n=8192/" + std::to_string(i) + "/warm", 2e3, 0, 0, 25, 3000));
  const CallAudit a = r.audit();
  EXPECT_DOUBLE_EQ(a.measured.at("time"), 1e5 + 9 * 2e3);
  // Sector-weighted: (100 x 1000 + 9 x 25 x 3000) / 28000.
  EXPECT_NEAR(a.measured.at("gld_efficiency"), (100.0 * 1000 + 9 * 25.0 * 3000) / 28000, 1e-9);
  EXPECT_DOUBLE_EQ(a.calls[1].counters.at("dram__bytes_read.sum"), 64 * kMB);
}

TEST(CallAudit, KernelsOutsideTheCallsAreFound) {
  HonestRun r;
  r.m.kernels.push_back(kernel("", 1e5, 64 * kMB, 64 * kMB));   // from a thread with no NVTX range
  const CallAudit a = r.audit();
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_NE(a.findings[0].find("1 kernel launch (the first: transpose_kernel) ran outside the harness's calls"), std::string::npos);
}

TEST(CallAudit, WorkWithoutKernelsIsFound) {
  HonestRun r;
  r.m.kernels.erase(r.m.kernels.begin() + 3);   // timed call 2 launched nothing...
  Copy c;
  c.kind = CopyKind::HostToDevice;
  c.bytes = 64000000;
  c.range = "student/n=8192/3";                 // ... and call 3 uploaded a host-made answer
  r.m.copies.push_back(c);
  const CallAudit a = r.audit();
  ASSERT_GE(a.findings.size(), 2u);
  EXPECT_EQ(a.findings[0], "call student/n=8192/2 ran no kernel: its results were made elsewhere (host code or copies)");
  EXPECT_NE(a.findings[1].find("call student/n=8192/3 copied 64.0 MB between host and device"), std::string::npos);
  EXPECT_EQ(a.measured.count("time"), 0u) << "a call without a kernel has no time to score";
}

TEST(CallAudit, TimeBetweenSynchronisationsFarAboveTheKernelsIsFound) {
  HonestRun r;
  r.h.calls[1].seconds = 0.030;   // 30 ms of wall time for 0.1 ms of kernels
  const CallAudit a = r.audit();
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0], "call student/n=8192/1 took 30.000 ms between device synchronisations, but its kernels only "
                           "0.100 ms: work outside its kernels (host code, copies, or kernels launched elsewhere)");
  HonestRun slow;
  slow.h.calls[0].seconds = 0.5;   // a check call's time (module loading) is not judged
  EXPECT_TRUE(slow.audit().findings.empty());
}

TEST(CallAudit, ALaterCallMuchFasterThanTheFirstIsFoundAsCached) {
  HonestRun r;
  r.m.kernels[5].end_ns = *r.m.kernels[5].start_ns + 3000;   // timed call 3: 3 us
  const CallAudit a = r.audit();
  ASSERT_FALSE(a.findings.empty());
  EXPECT_NE(a.findings[0].find("call student/n=8192/3 took 0.003 ms against 0.100 ms for call student/n=8192/1"),
            std::string::npos);
}

TEST(CallAudit, TrafficBelowTheCompulsoryBytesIsFound) {
  HonestRun r;
  r.m.kernels[1].metrics["dram__bytes_read.sum"] = 20 * kMB;     // read from a persisting L2
  r.m.kernels[3].metrics["dram__bytes_write.sum"] = 10 * kMB;    // 64 MB out, 50 MB L2: 14 MB must reach DRAM
  const CallAudit a = r.audit();
  ASSERT_EQ(a.findings.size(), 2u);
  EXPECT_EQ(a.findings[0], "call student/n=8192/1 read 20.0 MB from DRAM, less than the 64.0 MB a correct answer must "
                           "read once (L2 was flushed before each kernel): data kept in L2");
  EXPECT_EQ(a.findings[1], "call student/n=8192/2 wrote 10.0 MB to DRAM, less than the 14.0 MB its output cannot avoid");
}

TEST(CallAudit, BandwidthAboveThePeakIsImpossible) {
  HonestRun r;
  r.m.kernels[1].end_ns = *r.m.kernels[1].start_ns + 20000;   // 128 MB in 20 us: 6.4 TB/s
  const CallAudit a = r.audit();
  ASSERT_FALSE(a.findings.empty());
  EXPECT_NE(a.findings.back().find("6400 GB/s, beyond the GPU's DRAM peak of 3352 GB/s: impossible, so not scored"),
            std::string::npos)
      << a.findings.back();
}

TEST(CallAudit, TheHarnesssFlagsAreFindings) {
  HonestRun r;
  r.h.flags.push_back({"persisting_l2", "call 3 (8192 x 8192) set aside 36864 KiB of L2 for persisting accesses"});
  EXPECT_EQ(r.audit().findings, std::vector<std::string>{r.h.flags[0].message});
}

TEST(CallAudit, AnEfficiencyIsCollectedWithTheSectorsThatWeightIt) {
  const std::string st_eff = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
  const std::string st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
  const auto metrics = with_combining_weights({st_eff, "dram__bytes_read.sum"});
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), st_sectors), 1) << "without it the efficiency is never measured";
  EXPECT_EQ(with_combining_weights({st_eff, st_sectors}).size(), 2u) << "not added twice";
  EXPECT_EQ(with_combining_weights({"dram__bytes_read.sum"}).size(), 1u);
}

TEST(CallAudit, ExtraWholeSectorLoadsDoNotRaiseTheLoadEfficiency) {
  HonestRun r;
  const double needed = 64 * kMB / 32;   // the sectors a timed call's input fills
  for (auto& k : r.m.kernels)
    if (k.range.rfind("student/n=8192/", 0) == 0) k.metrics[kLd] = 50, k.metrics[kLdSectors] = 2 * needed;
  const double honest = r.audit().measured.at("gld_efficiency");
  EXPECT_DOUBLE_EQ(honest, 50);
  // The same kernel, plus a kernel that reads a buffer of its own with every byte used.
  for (int i = 1; i <= 3; ++i) r.m.kernels.push_back(kernel("student/n=8192/" + std::to_string(i) + "/pad", 1e3, 0, 0, 100, 2 * needed));
  const CallAudit a = r.audit();
  // The hardware's average rises to 75 %; what the problem needed is a quarter of what moved.
  EXPECT_DOUBLE_EQ(a.measured.at("gld_efficiency"), 25);
}

namespace {

/// A host-code exercise's run (labs 2 and 8): a link call of pinned copies (64 MB each way,
/// 4 ms up, 5 ms down), then per timed call an upload, a kernel and a download of 64 MB, and
/// the reference pipeline taking twice the student's wall time.
struct PipelineRun {
  Measurement m;
  HarnessResult h;
  std::uint32_t correlation = 0;
  void copy(const std::string& range, CopyKind kind, std::uint64_t start, std::uint64_t ns, HostMemoryKind host,
            const std::string& api, std::uint32_t stream = 7) {
    Copy c;
    c.kind = kind;
    (kind == CopyKind::HostToDevice ? c.src : c.dst) = host;
    c.bytes = 64'000'000;
    c.start_ns = start;
    c.end_ns = start + ns;
    c.stream = stream;
    c.correlation = ++correlation;
    c.range = range;
    m.copies.push_back(c);
    m.api_calls.push_back({api, 1, correlation, start, start + 10});
  }
  void range(const std::string& path, std::uint64_t start, std::uint64_t ns) {
    Range r;
    r.path = r.name = path;
    r.start_ns = start;
    r.end_ns = start + ns;
    m.ranges.push_back(r);
  }
  PipelineRun(HostMemoryKind host = HostMemoryKind::Pinned, const std::string& api = "cudaMemcpyAsync") {
    m.devices.push_back(DeviceFacts{});
    h.correct = true;
    h.calls.push_back({"link", 0.01, 0, 0});
    range("link", 0, 10'000'000);
    copy("link", CopyKind::HostToDevice, 0, 4'000'000, HostMemoryKind::Pinned, "cudaMemcpy");
    copy("link", CopyKind::DeviceToHost, 5'000'000, 5'000'000, HostMemoryKind::Pinned, "cudaMemcpy");
    for (int i = 1; i <= 3; ++i) {
      const std::uint64_t t = 100'000'000ull * i;
      const std::string mine = "student/n=16000000/" + std::to_string(i), ref = "reference/n=16000000/" + std::to_string(i);
      h.calls.push_back({mine, 0.0, 64 * kMB, 64 * kMB});
      h.calls.push_back({ref, 0.0, 0, 0});
      range(mine, t, 6'000'000);   // the kernel ran during 2 of the copies' 8 ms
      copy(mine, CopyKind::HostToDevice, t, 4'000'000, host, api);
      Kernel k = kernel(mine, 3e6, 0, 0);
      k.start_ns = t + 2'000'000;
      k.end_ns = t + 5'000'000;
      k.stream = 8;
      m.kernels.push_back(k);
      copy(mine, CopyKind::DeviceToHost, t + 2'000'000, 4'000'000, host, api);
      range(ref, t + 50'000'000, 12'000'000);
      Kernel r = kernel(ref, 3e6, 0, 0);
      r.start_ns = t + 50'000'000;
      r.end_ns = t + 53'000'000;
      m.kernels.push_back(r);
    }
  }
  CallAudit audit(const std::vector<std::string>& names) const {
    std::vector<labbook::Quantity> quantities;
    for (const auto& n : names) quantities.push_back(named_quantity(n));
    return audit_calls(m, h, "student/n=16000000", "reference/n=16000000", quantities,
                       HostCodeRules{true, "link", "transpose_kernel"});
  }
};

}  // namespace

TEST(CallAudit, AHostCodeCallIsMeasuredFromTheTraceItsCopiesAndItsWallTime) {
  const CallAudit a = PipelineRun().audit({"wall_time", "wall_speed_pct_of_reference", "pageable_copy_bytes",
                                           "synchronous_copies", "copy_overlap_pct", "link_pct", "max_concurrent_kernels"});
  EXPECT_TRUE(a.findings.empty()) << a.findings.front();
  EXPECT_DOUBLE_EQ(a.measured.at("wall_time"), 6e6);   // the NVTX range, not the harness's seconds (0)
  EXPECT_DOUBLE_EQ(a.measured.at("wall_speed_pct_of_reference"), 200);
  EXPECT_DOUBLE_EQ(a.measured.at("pageable_copy_bytes"), 0);
  EXPECT_DOUBLE_EQ(a.measured.at("synchronous_copies"), 0);
  // The kernel ran 2 ms into the upload's 4 ms and 3 ms into the download's: 5 of 8 ms.
  EXPECT_DOUBLE_EQ(a.measured.at("copy_overlap_pct"), 62.5);
  // 64 MB at the link's 16 GB/s up (4 ms) and 12.8 GB/s down (5 ms): 9 ms of link time in 6 ms.
  EXPECT_DOUBLE_EQ(a.measured.at("link_pct"), 150);
  EXPECT_DOUBLE_EQ(a.measured.at("max_concurrent_kernels"), 1);
  // What the trace saw, for the student: copies, streams, overlap, time; nothing pageable.
  ASSERT_EQ(a.observations.size(), 1u);
  EXPECT_NE(a.observations[0].find("2 copies between host and GPU (128.0 MB) on 2 streams"), std::string::npos) << a.observations[0];
  EXPECT_NE(a.observations[0].find("62.5 %"), std::string::npos);
  EXPECT_NE(a.observations[0].find("uploads and downloads ran at the same time for 2.000 ms"), std::string::npos)
      << a.observations[0];
}

TEST(CallAudit, PageableAndSynchronousCopiesAreMeasuredAndNamedWithoutVoidingTheScore) {
  const CallAudit a = PipelineRun(HostMemoryKind::Pageable, "cudaMemcpy").audit({"pageable_copy_bytes", "synchronous_copies"});
  EXPECT_TRUE(a.findings.empty()) << a.findings.front();
  EXPECT_DOUBLE_EQ(a.measured.at("pageable_copy_bytes"), 128 * kMB);
  EXPECT_DOUBLE_EQ(a.measured.at("synchronous_copies"), 2);
  ASSERT_EQ(a.observations.size(), 3u);
  EXPECT_NE(a.observations[1].find("pageable host memory"), std::string::npos);
  EXPECT_NE(a.observations[2].find("2 of its 2 copies with a call that waits"), std::string::npos);
  // cudaMemcpyAsync from pageable memory is still pageable: the copy's memory kind decides.
  const CallAudit b = PipelineRun(HostMemoryKind::Pageable, "cudaMemcpyAsync").audit({"pageable_copy_bytes", "synchronous_copies"});
  EXPECT_DOUBLE_EQ(b.measured.at("pageable_copy_bytes"), 128 * kMB);
  EXPECT_DOUBLE_EQ(b.measured.at("synchronous_copies"), 0);
}

TEST(CallAudit, AHostCodeCallMustCarryItsInputToTheGpuAndItsOutputBack) {
  PipelineRun r;
  // The second timed call brings back only a quarter of its output (the rest made on the host?).
  for (auto& c : r.m.copies)
    if (c.range == "student/n=16000000/2" && c.kind == CopyKind::DeviceToHost) c.bytes = 16'000'000;
  const CallAudit a = r.audit({"wall_time"});
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_NE(a.findings[0].find("copied 16.0 MB back from the GPU, less than its 64.0 MB of output"), std::string::npos) << a.findings[0];
  // Without the host-code rules, copies in a call are a finding of their own.
  const CallAudit kernels_only = audit_calls(r.m, r.h, "student/n=16000000", "reference/n=16000000", {named_quantity("time")});
  EXPECT_TRUE(std::any_of(kernels_only.findings.begin(), kernels_only.findings.end(), [](const std::string& f) {
    return f.find("between host and device: the work must be done by kernels") != std::string::npos;
  }));
  EXPECT_TRUE(kernels_only.observations.empty());
}

TEST(CallAudit, AHostCodeCallMayCopyLittleMoreThanItsTaskNeeds) {
  PipelineRun r;
  // The second timed call uploads its input twice, the copy beside the kernel: "hidden" time.
  r.copy("student/n=16000000/2", CopyKind::HostToDevice, 200'000'000ull + 2'000'000, 3'000'000, HostMemoryKind::Pinned,
         "cudaMemcpyAsync", 9);
  const CallAudit a = r.audit({"copy_overlap_pct"});
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_NE(a.findings[0].find("copied 128.0 MB to the GPU where its input is 64.0 MB: copies beyond the task's"),
            std::string::npos) << a.findings[0];
  // A few bytes more (a parameter block, say) are no finding.
  PipelineRun small;
  small.copy("student/n=16000000/2", CopyKind::HostToDevice, 200'000'000ull, 1000, HostMemoryKind::Pinned, "cudaMemcpyAsync");
  small.m.copies.back().bytes = 4096;
  EXPECT_TRUE(small.audit({"copy_overlap_pct"}).findings.empty());
}

TEST(CallAudit, AHostCodeCallMayRunTheHarnesssWorkKernelOnlyAndNoMoreOfItThanTheReference) {
  {
    // A kernel of the student's own (one multiply-add for all the rounds, say) in a check call.
    PipelineRun r;
    r.m.kernels.push_back(kernel("student/n=16000000/2", 1e4, 0, 0));
    r.m.kernels.back().name = "shortcut(unsigned int const*, unsigned int*)";
    const CallAudit a = r.audit({"wall_time"});
    ASSERT_EQ(a.findings.size(), 1u);
    EXPECT_NE(a.findings[0].find("ran the kernel shortcut: the exercise's work is the harness's (transpose_kernel)"),
              std::string::npos) << a.findings[0];
  }
  {
    // Extra work kernels beside the copies, so that copies look hidden: 4 ms where the reference ran 3.
    PipelineRun r;
    Kernel extra = kernel("student/n=16000000/3", 4e6, 0, 0);
    extra.start_ns = 300'000'000;
    extra.end_ns = 304'000'000;
    r.m.kernels.push_back(extra);
    const CallAudit a = r.audit({"wall_time"});
    ASSERT_EQ(a.findings.size(), 1u);
    EXPECT_NE(a.findings[0].find("ran 7.000 ms of transpose_kernel where the reference ran 3.000 ms"), std::string::npos)
        << a.findings[0];
  }
}

// The time a schedule saved against the task's copies and kernels run one after another:
// filler work or extra copies beside the rest raise the overlap but save no time.
TEST(CallAudit, CopyTimeHiddenCountsOnlyTheCopiesAndKernelsTheTaskNeeds) {
  PipelineRun r;
  // 8 ms of copies and 3 ms of kernel in 6 ms: 5 of the 8 ms hidden.
  EXPECT_DOUBLE_EQ(r.audit({"copy_hidden_pct"}).measured.at("copy_hidden_pct"), 62.5);
  for (int i = 1; i <= 3; ++i) {
    const std::uint64_t t = 100'000'000ull * i;
    const std::string call = "student/n=16000000/" + std::to_string(i);
    // 1 ms more of the work kernel beside the upload (within the allowance: no finding) ...
    Kernel filler = kernel(call, 1e6, 0, 0);
    filler.start_ns = t;
    filler.end_ns = t + 1'000'000;
    r.m.kernels.push_back(filler);
    // ... and 8 MB more uploaded beside the kernel (within the copy bound).
    r.copy(call, CopyKind::HostToDevice, t + 2'000'000, 500'000, HostMemoryKind::Pinned, "cudaMemcpyAsync", 9);
    r.m.copies.back().bytes = 8'000'000;
  }
  const CallAudit a = r.audit({"copy_overlap_pct", "copy_hidden_pct"});
  EXPECT_TRUE(a.findings.empty()) << a.findings.front();
  EXPECT_GT(a.measured.at("copy_overlap_pct"), 62.5) << "kernels ran beside more of the copy time";
  // The upload's 4.5 ms scaled to its 64 of 72 MB: 4 ms; the kernels at the reference's 3 ms.
  EXPECT_DOUBLE_EQ(a.measured.at("copy_hidden_pct"), 62.5);

  // An upload beside a download saves time, but hides no copy behind a kernel.
  PipelineRun both;
  for (auto& k : both.m.kernels)
    if (k.range.rfind("student/", 0) == 0) k.start_ns = *k.start_ns + 4'000'000, k.end_ns = *k.end_ns + 4'000'000;
  for (auto& c : both.m.copies)
    if (c.range.rfind("student/", 0) == 0 && c.kind == CopyKind::DeviceToHost) c.start_ns -= 2'000'000, c.end_ns -= 2'000'000;
  for (auto& range : both.m.ranges)
    if (range.path.rfind("student/", 0) == 0) range.end_ns = range.start_ns + 7'000'000;
  EXPECT_DOUBLE_EQ(both.audit({"copy_hidden_pct"}).measured.at("copy_hidden_pct"), 0.0);
}

TEST(CallAudit, LinkShareIsNotMeasuredWithoutALinkCall) {
  PipelineRun r;
  const CallAudit a = audit_calls(r.m, r.h, "student/n=16000000", "reference/n=16000000", {named_quantity("link_pct")}, HostCodeRules{true, "", ""});
  EXPECT_EQ(a.measured.count("link_pct"), 0u);
}
