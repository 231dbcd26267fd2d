// A lab's [[peak]]s (published FLOPs per clock per SM) and the rates measured against them:
// flop_rate_sp / flop_rate_dp (FLOPs the counters saw over kernel time) and
// <rate>_pct_of_peak (the rate over per-clock figure x SMs x maximum SM clock).
#include <gtest/gtest.h>

#include "lab_data.h"
#include "labbook/model/error.h"
#include "quantities.h"
#include "lab_toml_fixture.h"
#include "named_quantity.h"

using namespace labbook::report;

namespace {

const std::string kHead = fixture::lab_toml_head(R"(["flop_count_sp"])");

/// A [[peak]] on compute capability 9.0; `extra` adds keys (a counter).
std::string peak_toml(const std::string& quantity, int per_sm_per_clock, const std::string& text,
                      const std::string& extra = "") {
  return "\n[[peak]]\nquantity = \"" + quantity + "\"\n" + extra + "compute_capability = \"9.0\"\nper_sm_per_clock = " +
         std::to_string(per_sm_per_clock) + "\ntext = \"" + text +
         "\"\ncitation = \"NVIDIA CUDA C++ Programming Guide, Arithmetic Instructions\"\n";
}

const std::string kPeak = peak_toml("flop_rate_sp", 256, "128 FP32 FMA lanes x 2");

const std::string kSection = R"(
[[section]]
title = "S"
experiments = ["gemm"]
quantities = ["flop_rate_sp", "flop_rate_sp_pct_of_peak"]
)";

/// An H100-like device: 132 SMs, 1980 MHz.
labbook::DeviceFacts device(int major, int minor) {
  labbook::DeviceFacts d;
  d.cc_major = major, d.cc_minor = minor;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  return d;
}

/// One kernel in range "gemm": 1e9 FFMA thread instructions and 1e6 FADD in 1 ms.
labbook::Measurement gemm(int major, int minor) {
  labbook::Measurement m;
  m.devices.push_back(device(major, minor));
  labbook::Kernel k;
  k.range = "gemm";
  k.start_ns = 0, k.end_ns = 1000000;
  k.metrics = {{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1e6},
               {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1e9}};
  m.kernels.push_back(k);
  return m;
}

}  // namespace

TEST(ArithmeticPeak, ParsedWithItsCitationAndComputedFromTheDeviceFacts) {
  const LabData lab = parse_lab_data(kHead + kPeak + kSection, "lab.toml");
  ASSERT_EQ(lab.peaks.size(), 1u);
  const ArithmeticPeak& p = lab.peaks[0];
  EXPECT_EQ(p.quantity.name(), "flop_rate_sp");
  EXPECT_EQ(p.cc_major, 9);
  EXPECT_EQ(p.cc_minor, 0);
  EXPECT_DOUBLE_EQ(*p.on(device(9, 0)), 256.0 * 132 * 1.98e9);
  EXPECT_FALSE(p.on(device(8, 0))) << "a figure holds for its compute capability only";
  EXPECT_EQ(peak_for(lab.peaks, named_quantity("flop_rate_dp"), device(9, 0)), nullptr);
}

TEST(ArithmeticPeak, AShareOfAPeakNeedsTheLabsPeakAndARate) {
  EXPECT_EQ(fixture::lab_toml_error(kHead + kSection),
            "lab.toml:17: [[section]]: 'quantities' names 'flop_rate_sp_pct_of_peak', which needs a [[peak]] with "
            "quantity = \"flop_rate_sp\"");
  std::string not_a_rate = kPeak;
  not_a_rate.replace(not_a_rate.find("flop_rate_sp"), 12, "flop_count_sp");
  EXPECT_NE(fixture::lab_toml_error(kHead + not_a_rate).find("'quantity' must be a rate"), std::string::npos) << fixture::lab_toml_error(kHead + not_a_rate);
  std::string bad_cc = kPeak;
  bad_cc.replace(bad_cc.find("\"9.0\""), 5, "\"sm_90\"");
  EXPECT_NE(fixture::lab_toml_error(kHead + bad_cc).find("'compute_capability' must be a compute capability"), std::string::npos)
      << fixture::lab_toml_error(kHead + bad_cc);
  EXPECT_FALSE(labbook::Quantity::find("time_pct_of_peaks").has_value());
  EXPECT_EQ(named_quantity("flop_rate_dp_pct_of_peak").rate().name(), "flop_rate_dp");
  EXPECT_EQ(named_quantity("effective_bandwidth_pct_of_peak").id(), labbook::QuantityId::kEffectiveBandwidthPctOfPeak)
      << "that one divides by the device's DRAM peak";
}

TEST(ArithmeticPeak, FlopRateAndItsShareOfThePeak) {
  const LabData lab = parse_lab_data(kHead + kPeak + kSection, "lab.toml");
  const labbook::Measurement m = gemm(9, 0);
  const double flops = 1e6 + 2 * 1e9;
  EXPECT_DOUBLE_EQ(*range_quantity(m, "gemm", named_quantity("flop_rate_sp")).value, flops / 1e-3);
  EXPECT_DOUBLE_EQ(*range_quantity(m, "gemm", named_quantity("flop_rate_sp_pct_of_peak"), lab.peaks).value,
                   100.0 * flops / 1e-3 / (256.0 * 132 * 1.98e9));
  EXPECT_EQ(named_quantity("flop_rate_sp_pct_of_peak").unit(), "%");
  EXPECT_EQ(named_quantity("flop_rate_dp").unit(), "FLOP/s");

  const QuantityValue other_gpu = range_quantity(gemm(8, 0), "gemm", named_quantity("flop_rate_sp_pct_of_peak"), lab.peaks);
  EXPECT_FALSE(other_gpu.value);
  EXPECT_EQ(other_gpu.missing, "not known: the lab data gives no [[peak]] for flop_rate_sp on compute capability 8.0");
}

TEST(ArithmeticPeak, TensorCoreWorkCountsTowardsItsPrecisionsRate) {
  labbook::Measurement m = gemm(9, 0);
  m.kernels[0].metrics = {{"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 0},
                          {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 1000},
                          {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 0},
                          {"sm__ops_path_tensor_src_fp64.sum", 2e9}};
  EXPECT_DOUBLE_EQ(*range_quantity(m, "gemm", named_quantity("flop_rate_dp")).value, (1000 + 2e9) / 1e-3);
  m.kernels[0].metrics.erase("smsp__sass_thread_inst_executed_op_dfma_pred_on.sum");
  EXPECT_FALSE(range_quantity(m, "gemm", named_quantity("flop_rate_dp")).value) << "no rate without the FMA lanes' count";
}

TEST(ArithmeticPeak, ARangeThatRanOnTensorCoresIsAShareOfTheirPeak) {
  const std::string fp64 = peak_toml("flop_rate_dp", 128, "64 FP64 FMA lanes x 2") +
                           peak_toml("flop_rate_dp", 256, "FP64 tensor cores", "counter = \"tensor_flop_count_dp\"\n");
  const LabData lab = parse_lab_data(fixture::lab_toml_head(R"(["flop_count_dp", "tensor_flop_count_dp"])") + fp64 +
                                         "[[section]]\ntitle = \"S\"\nexperiments = [\"gemm\"]\n"
                                         "quantities = [\"flop_rate_dp_pct_of_peak\"]\n",
                                     "lab.toml");
  ASSERT_EQ(lab.peaks.size(), 2u);
  EXPECT_EQ(peak_for(lab.peaks, named_quantity("flop_rate_dp"), device(9, 0)), &lab.peaks[0]) << "the general peak";
  labbook::Measurement m = gemm(9, 0);
  m.kernels[0].metrics = {{"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 0},
                          {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 0},
                          {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 1e9},
                          {"sm__ops_path_tensor_src_fp64.sum", 0}};
  const auto share = [&] { return *range_quantity(m, "gemm", named_quantity("flop_rate_dp_pct_of_peak"), lab.peaks).value; };
  EXPECT_DOUBLE_EQ(share(), 100.0 * 2e9 / 1e-3 / (128.0 * 132 * 1.98e9)) << "FMA lanes only: their peak";
  m.kernels[0].metrics["sm__ops_path_tensor_src_fp64.sum"] = 2e9;
  EXPECT_DOUBLE_EQ(share(), 100.0 * 4e9 / 1e-3 / (256.0 * 132 * 1.98e9)) << "tensor work: the tensor cores' peak";
}

TEST(ArithmeticPeak, ABandwidthAboveDramPeakHasNoShareOfIt) {
  labbook::Measurement m;
  labbook::DeviceFacts d = device(9, 0);
  d.memory_clock_khz = 2619000, d.memory_bus_width_bits = 5120;   // 3352 GB/s
  m.devices.push_back(d);
  labbook::Copy copy;
  copy.kind = labbook::CopyKind::DeviceToDevice;
  copy.bytes = 1'000'000'000, copy.start_ns = 0, copy.end_ns = 1'000'000;   // read and written in 1 ms: 2000 GB/s
  copy.range = "copy";
  m.copies.push_back(copy);
  const auto share = [&] { return range_quantity(m, "copy", named_quantity("effective_bandwidth_pct_of_peak")); };
  ASSERT_TRUE(share().value);
  EXPECT_NEAR(*share().value, 100.0 * 2e12 / d.peak_dram_bytes_per_second(), 1e-6);
  m.copies[0].end_ns = 500'000;   // 4000 GB/s: from L2, not DRAM
  EXPECT_FALSE(share().value);
  EXPECT_EQ(share().missing, "none: above DRAM peak, the bytes came from L2");
}
