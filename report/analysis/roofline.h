#pragma once
/// @file
/// A roofline: each kernel's arithmetic intensity (FLOPs per byte of DRAM traffic) against
/// the FLOP rate it reached, under this GPU's DRAM bandwidth roof and its FMA peaks. Values
/// come from counters the collector gathered; a kernel whose FLOPs, DRAM bytes or time were
/// not measured, or that did no floating-point work, is not a point on the chart and says
/// why, with its DRAM bandwidth where that was measured. roofline_chart.h draws it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "memory_flow.h"

namespace labbook::report {

/// What one kernel (or one experiment's kernels, medians) did.
struct RooflineKernel {
  std::string label;
  std::optional<double> flops_sp, flops_dp;   ///< FMA lanes plus tensor path, where collected
  std::optional<double> dram_bytes;           ///< read plus written
  std::optional<double> seconds;
  std::optional<double> l2_bytes;             ///< every byte L2 served or took in (l2_bytes)
  std::optional<double> l2_peak;              ///< L2's peak bytes/s at the clock it ran at (l2_peak_bandwidth)
};

/// A horizontal roof: a precision's arithmetic peak on this GPU.
struct RooflineCeiling {
  std::string label;         ///< "FP32 FMA peak"
  std::string precision;     ///< "sp" or "dp": the points it caps
  double flops_per_second = 0;
};

struct Roofline {
  std::string gpu;                     ///< "NVIDIA H100 80GB HBM3"
  double dram_bytes_per_second = 0;    ///< the theoretical DRAM peak (0: unknown)
  std::vector<RooflineCeiling> ceilings;
  std::vector<RooflineKernel> kernels;
};

/// One point of the chart: a kernel at one precision.
struct RooflinePoint {
  std::string label, precision;        ///< precision: "sp" or "dp"
  double intensity = 0;                ///< FLOP per DRAM byte
  double flops_per_second = 0;
  std::optional<double> roof;          ///< the attainable rate at this intensity, when the ceiling is known
  bool memory_bound = true;            ///< under the bandwidth roof's slope rather than the ceiling
  std::optional<double> l2_intensity;  ///< FLOP per L2 byte, where the kernel's L2 bytes were measured
};

/// A kernel that is not a point, and why; its DRAM bandwidth when that was measured.
struct RooflineAside {
  std::string label, reason;
  std::string short_reason;            ///< a few words for the picture: "no FLOPs"
  std::optional<double> dram_bytes_per_second;
};

/// The kernel from catalog quantities: flop_count_sp/dp (+ tensor_flop_count_tf32/dp),
/// dram_read_bytes + dram_write_bytes, "time" in ns, and l2_bytes and l2_peak_bandwidth.
RooflineKernel roofline_kernel(const std::string& label, const MeasuredQuantity& measured);

/// The experiment `range`'s kernels, each value the median over them (range_quantity).
RooflineKernel range_roofline_kernel(const Measurement&, const std::string& range);

/// This GPU's roofs: the DRAM peak of the measurement's first device, and a ceiling for each
/// of `peaks` (flop_rate_sp, flop_rate_dp) known for its compute capability.
Roofline roofline_for(const Measurement&, const std::vector<ArithmeticPeak>& peaks);

std::vector<RooflinePoint> roofline_points(const Roofline&);

/// L2's roof: the median of the kernels' measured l2_peak_bandwidth (it follows the L2 clock,
/// which no tool here locks); 0 where none was measured, and no L2 roof is drawn.
double l2_roof(const Roofline&);
std::vector<RooflineAside> roofline_asides(const Roofline&);

/// The chart in sentences: roofs, every point with its share of the roof, every aside.
std::string roofline_description(const Roofline&);

/// What the L2 roof and the hollow points mean, for a sheet's text; "" when no L2 roof is drawn.
std::string l2_roof_note(const Roofline&);

/// The points and asides for a sheet's data.
nlohmann::json roofline_json(const Roofline&);

}  // namespace labbook::report
