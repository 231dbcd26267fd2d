#include "roofline.h"

#include <algorithm>

#include "format.h"
#include "quantities.h"

namespace labbook::report {

namespace {

const char* precision_name(const std::string& precision) { return precision == "sp" ? "FP32" : "FP64"; }

const RooflineCeiling* ceiling_for(const Roofline& r, const std::string& precision) {
  for (const auto& c : r.ceilings)
    if (c.precision == precision) return &c;
  return nullptr;
}

std::string percent(double share) { return format_value(100.0 * share, "%"); }

}  // namespace

RooflineKernel roofline_kernel(const std::string& label, const MeasuredQuantity& measured) {
  RooflineKernel k;
  k.label = label;
  k.flops_sp = flop_count(measured, "sp");
  k.flops_dp = flop_count(measured, "dp");
  const auto read = measured("dram_read_bytes"), written = measured("dram_write_bytes");
  if (read && written) k.dram_bytes = *read + *written;
  if (const auto ns = measured("time")) k.seconds = *ns * 1e-9;
  k.l2_bytes = measured("l2_bytes");
  k.l2_peak = measured("l2_peak_bandwidth");
  return k;
}

RooflineKernel range_roofline_kernel(const Measurement& m, const std::string& range) {
  return roofline_kernel(range, [&](const std::string& q) { return range_quantity(m, range, Quantity::named(q)).value; });
}

Roofline roofline_for(const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  Roofline r;
  if (m.devices.empty()) return r;
  const DeviceFacts& device = m.devices.front();
  r.gpu = device.name;
  r.dram_bytes_per_second = device.peak_dram_bytes_per_second();
  for (const char* precision : {"sp", "dp"}) {
    const std::string rate = std::string("flop_rate_") + precision;
    if (const ArithmeticPeak* p = peak_for(peaks, Quantity::named(rate), device))
      if (const auto value = p->on(device))
        r.ceilings.push_back({std::string(precision_name(precision)) + " FMA peak", precision, *value});
  }
  return r;
}

std::vector<RooflinePoint> roofline_points(const Roofline& r) {
  std::vector<RooflinePoint> out;
  for (const auto& k : r.kernels)
    for (const std::string precision : {"sp", "dp"}) {
      const auto& f = precision == "sp" ? k.flops_sp : k.flops_dp;
      if (!f || *f <= 0 || !k.dram_bytes || *k.dram_bytes <= 0 || !k.seconds || *k.seconds <= 0) continue;
      RooflinePoint p{k.label, precision, *f / *k.dram_bytes, *f / *k.seconds, std::nullopt, true, std::nullopt};
      if (k.l2_bytes && *k.l2_bytes > 0) p.l2_intensity = *f / *k.l2_bytes;
      if (const RooflineCeiling* c = ceiling_for(r, precision); c && r.dram_bytes_per_second > 0) {
        const double slope = r.dram_bytes_per_second * p.intensity;
        p.memory_bound = slope < c->flops_per_second;
        p.roof = std::min(slope, c->flops_per_second);
      }
      out.push_back(std::move(p));
    }
  return out;
}

double l2_roof(const Roofline& r) {
  std::vector<double> peaks;
  for (const auto& k : r.kernels)
    if (k.l2_peak && *k.l2_peak > 0) peaks.push_back(*k.l2_peak);
  if (peaks.empty()) return 0;
  std::sort(peaks.begin(), peaks.end());
  return peaks[peaks.size() / 2];
}

std::vector<RooflineAside> roofline_asides(const Roofline& r) {
  std::vector<RooflineAside> out;
  for (const auto& k : r.kernels) {
    const bool sp = k.flops_sp && *k.flops_sp > 0, dp = k.flops_dp && *k.flops_dp > 0;
    RooflineAside a{k.label, "", "", std::nullopt};
    if (k.dram_bytes && k.seconds && *k.seconds > 0) a.dram_bytes_per_second = *k.dram_bytes / *k.seconds;
    if (!k.flops_sp && !k.flops_dp)
      a.reason = "its FLOPs were not collected (flop_count_sp, flop_count_dp)", a.short_reason = "FLOPs not collected";
    else if (!sp && !dp)
      a.reason = "it executed no floating-point add, multiply or multiply-add: its only roof is bandwidth",
      a.short_reason = "no FLOPs";
    else if (!k.dram_bytes)
      a.reason = "its DRAM bytes were not collected (dram_read_bytes, dram_write_bytes)",
      a.short_reason = "DRAM bytes not collected";
    else if (*k.dram_bytes <= 0)
      a.reason = "it moved no DRAM bytes (its data stayed in L2), so its intensity has no bound",
      a.short_reason = "no DRAM bytes";
    else if (!k.seconds || *k.seconds <= 0)
      a.reason = "its time was not measured", a.short_reason = "no time";
    else
      continue;
    out.push_back(std::move(a));
  }
  return out;
}

std::string roofline_description(const Roofline& r) {
  std::string out = "Roofline of the " + (r.gpu.empty() ? std::string("GPU") : r.gpu) + ". ";
  if (r.dram_bytes_per_second > 0)
    out += "DRAM roof: " + format_value(r.dram_bytes_per_second, "bytes/s") + " (theoretical). ";
  if (const double l2 = l2_roof(r); l2 > 0) out += "L2 roof: " + format_value(l2, "bytes/s") + " (at the L2 clock measured). ";
  for (const auto& c : r.ceilings) {
    out += c.label + ": " + format_value(c.flops_per_second, "FLOP/s");
    if (r.dram_bytes_per_second > 0)
      out += ", reached from " + two_decimals(c.flops_per_second / r.dram_bytes_per_second) + " FLOP per byte";
    out += ". ";
  }
  for (const auto& p : roofline_points(r)) {
    out += p.label + " (" + precision_name(p.precision) + "): " + two_decimals(p.intensity) + " FLOP per DRAM byte, " +
           format_value(p.flops_per_second, "FLOP/s");
    if (p.l2_intensity) out += " (" + two_decimals(*p.l2_intensity) + " FLOP per L2 byte)";
    if (p.roof) {
      const bool above = p.flops_per_second > *p.roof;
      out += ", " + percent(p.flops_per_second / *p.roof) + " of its roof, " + (above ? "above " : "under ") +
             (p.memory_bound ? "the bandwidth slope" : "the arithmetic ceiling");
      // Only work the roof leaves out passes it: bytes from a cache, or FLOPs on other units.
      if (above)
        out += p.memory_bound ? " (some of its bytes came from L2, not DRAM)"
                              : " (it ran on units the ceiling leaves out, such as tensor cores)";
    }
    out += ". ";
  }
  for (const auto& a : roofline_asides(r)) {
    out += "Not on the chart: " + a.label + ", because " + a.reason;
    if (a.dram_bytes_per_second) {
      out += "; DRAM " + format_value(*a.dram_bytes_per_second, "bytes/s");
      if (r.dram_bytes_per_second > 0) out += ", " + percent(*a.dram_bytes_per_second / r.dram_bytes_per_second) + " of the roof";
    }
    out += ". ";
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string l2_roof_note(const Roofline& r) {
  if (l2_roof(r) <= 0) return "";
  return "The dashed slope is L2's peak bandwidth at the L2 clock measured; a hollow point is the same kernel per "
         "byte of L2 traffic, further left: every byte DRAM moves passes through L2, which serves its hits besides.";
}

nlohmann::json roofline_json(const Roofline& r) {
  using nlohmann::json;
  json ceilings = json::array(), points = json::array(), asides = json::array();
  for (const auto& c : r.ceilings)
    ceilings.push_back({{"label", c.label}, {"precision", c.precision}, {"flops_per_second", c.flops_per_second}});
  for (const auto& p : roofline_points(r)) {
    json j = {{"label", p.label}, {"precision", p.precision}, {"flop_per_dram_byte", p.intensity},
              {"flops_per_second", p.flops_per_second}};
    if (p.roof) j["roof_flops_per_second"] = *p.roof, j["bound"] = p.memory_bound ? "dram_bandwidth" : "arithmetic";
    if (p.l2_intensity) j["flop_per_l2_byte"] = *p.l2_intensity;
    points.push_back(std::move(j));
  }
  for (const auto& a : roofline_asides(r)) {
    json j = {{"label", a.label}, {"reason", a.reason}};
    j["dram_bytes_per_second"] = a.dram_bytes_per_second ? json(*a.dram_bytes_per_second) : json(nullptr);
    asides.push_back(std::move(j));
  }
  const double l2 = l2_roof(r);
  return {{"gpu", r.gpu}, {"dram_bytes_per_second", r.dram_bytes_per_second},
          {"l2_bytes_per_second", l2 > 0 ? json(l2) : json(nullptr)}, {"ceilings", ceilings},
          {"points", points}, {"not_on_chart", asides}};
}

}  // namespace labbook::report
