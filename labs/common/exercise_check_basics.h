#pragma once
// What every exercise check shares (exercise_checks.h lists the kinds): the version of the
// records the harness sends, the tolerance, and how values and calls are named in feedback.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace labbook::lab {

/// The version of the records the harness sends labbook (grading/harness_records.h): both
/// sides take it from here.
constexpr int kHarnessProtocol = 2;

/// How far a result may be from the double-precision reference: |got - want| <= absolute +
/// relative * |want|. NaN and infinities never pass (the poison is NaN).
struct Tolerance {
  double absolute = 0, relative = 0;
  bool accepts(double got, double want) const {
    return std::isfinite(got) && std::fabs(got - want) <= absolute + relative * std::fabs(want);
  }
};

/// "0.123456791" or, for an element still holding the poison, what that means.
inline std::string describe_value(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  if (bits == 0xFFFFFFFFu) return "never written (it still holds the poison the harness filled it with)";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

inline std::string describe_value(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// The name a call goes by in the feedback: "call 3 (8192 x 8192)" or "call 1 (n = 1000003)".
inline std::string call_name(int index, const std::vector<std::uint64_t>& shape) {
  std::string name = "call " + std::to_string(index) + " (";
  if (shape.size() == 1) return name + "n = " + std::to_string(shape[0]) + ")";
  for (std::size_t i = 0; i < shape.size(); ++i) name += (i ? " x " : "") + std::to_string(shape[i]);
  return name + ")";
}

}  // namespace labbook::lab
