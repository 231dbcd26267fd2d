// GPU acceptance checks on a lab 4 measurement taken on a real GPU:
//  - load/store efficiency 100 / 80 / 100 (+-0.5) at offsets 0 / 11 / 128, AoS 50 / SoA 100;
//  - the timeline has exactly one NVTX range per experiment, and every kernel ran inside
//    the range it is attributed to;
//  - every experiment's measured sectors per request (loads and stores, every offset of the
//    sweep) equal the warp-level model's for sm_90 within 0.01, or the lab data names the gap.
// Usage: check_lab4 MEASUREMENT.json LAB.toml   (exit 0 pass, 1 fail)
#include <cmath>
#include <cstdio>
#include <string>

#include "lab_data.h"
#include "model_predictions.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "quantities.h"

namespace {
int failures = 0;

void expect_near(const labbook::Measurement& m, const std::string& range, const std::string& q, double want, double tol) {
  const auto v = labbook::report::range_quantity(m, range, q);
  const bool ok = v.value && std::fabs(*v.value - want) <= tol;
  std::printf("%-4s %-32s %-16s %10s (want %.2f +- %.2f)\n", ok ? "ok" : "FAIL", range.c_str(), q.c_str(),
              v.value ? std::to_string(*v.value).c_str() : v.missing.c_str(), want, tol);
  failures += ok ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: check_lab4 MEASUREMENT.json LAB.toml\n");
    return 2;
  }
  try {
    const labbook::Measurement m = labbook::read_measurement(argv[1]);
    const labbook::report::LabData lab = labbook::report::load_lab_data(argv[2]);
    for (const char* group : {"readSegment", "readSegmentUncached"}) {
      expect_near(m, std::string(group) + "/offset=0", "gld_efficiency", 100, 0.5);
      expect_near(m, std::string(group) + "/offset=11", "gld_efficiency", 80, 0.5);
      expect_near(m, std::string(group) + "/offset=128", "gld_efficiency", 100, 0.5);
    }
    expect_near(m, "readSegment/offset=0", "gld_transactions_per_request", 4, 0.01);
    expect_near(m, "readSegment/offset=11", "gld_transactions_per_request", 5, 0.01);
    expect_near(m, "writeSegment/offset=0", "gst_efficiency", 100, 0.5);
    expect_near(m, "writeSegment/offset=11", "gst_efficiency", 80, 0.5);
    expect_near(m, "writeSegment/offset=128", "gst_efficiency", 100, 0.5);
    expect_near(m, "simpleMathAoS", "gld_efficiency", 50, 0.5);
    expect_near(m, "simpleMathSoA", "gld_efficiency", 100, 0.5);

    // Sectors per request against the model, for every experiment that has a pattern.
    labbook::report::ModelPredictions model(lab, m);
    std::size_t compared = 0;
    for (const auto& r : m.ranges)
      for (const char* q : {"gld_transactions_per_request", "gst_transactions_per_request"}) {
        const auto measured = labbook::report::range_quantity(m, r.path, q).value;
        const auto predicted = model.predict(r.path, q).this_gpu;
        if (!measured || !predicted) continue;
        ++compared;
        const bool ok = std::fabs(*measured - *predicted) <= 0.01 || model.verdict(r.path, q, measured).find(": ") != std::string::npos;
        if (!ok) {
          std::printf("FAIL %-32s %s: measured %.4f, model %.4f\n", r.path.c_str(), q, *measured, *predicted);
          ++failures;
        }
      }
    std::printf("%s sectors per request equal the sm_90 model in %zu (experiment, load/store) pairs\n",
                compared ? "ok  " : "FAIL", compared);
    if (compared == 0) ++failures;

    // One range per experiment of the lab data.
    for (const auto& experiment : lab.experiments()) {
      int count = 0;
      for (const auto& r : m.ranges) count += r.path == experiment ? 1 : 0;
      if (count != 1) {
        std::printf("FAIL range %s appears %d times in the timeline\n", experiment.c_str(), count);
        ++failures;
      }
    }
    // Every kernel inside the range it is attributed to, in time too.
    std::size_t inside = 0;
    for (const auto& k : m.kernels) {
      const labbook::Range* range = nullptr;
      for (const auto& r : m.ranges)
        if (r.path == k.range) range = &r;
      const bool ok = range && k.start_ns && range->end_ns && *k.start_ns >= range->start_ns && *k.end_ns <= *range->end_ns;
      if (!ok) {
        std::printf("FAIL kernel %llu (%s) is not inside a range (attributed to '%s')\n",
                    static_cast<unsigned long long>(k.launch), k.name.c_str(), k.range.c_str());
        ++failures;
      } else {
        ++inside;
      }
    }
    std::printf("%zu kernels, %zu inside their range; %zu ranges; %d failures\n", m.kernels.size(), inside,
                m.ranges.size(), failures);
    if (m.kernels.empty()) ++failures;
  } catch (const labbook::Error& e) {
    std::fprintf(stderr, "check_lab4: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
