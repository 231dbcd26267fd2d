// What the collector's finishing costs at a trace run's exit (its kernels joined, its kernels
// and API calls made and written), with them held as the data model's objects and then
// written, or made one at a time as their rows are written (MadeTables), in a fresh process
// as at a program's exit. The launches, kernel records and launch calls are made up, 32 NVTX
// ranges, as many_launches holds them.
//   collector_finish_probe LAUNCHES held|rows OUTPUT
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cupti_runtime_cbid.h>

#include "activity_records.h"
#include "labbook/model/measurement_json.h"
#include "launch_join.h"

using namespace labbook;
using namespace labbook::profiler;

namespace {

long peak_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || (std::string(argv[2]) != "held" && std::string(argv[2]) != "rows")) {
    std::fprintf(stderr, "usage: collector_finish_probe LAUNCHES held|rows OUTPUT\n");
    return 2;
  }
  const std::size_t count = std::strtoull(argv[1], nullptr, 10);
  const bool held = std::string(argv[2]) == "held";
  static const std::string mangled = "_Z10readOffsetPKfS0_Pfii";
  std::vector<Launch> launches;
  std::vector<KernelRecord> records;
  std::vector<ApiCallRecord> calls;
  launches.reserve(count);
  records.reserve(count);
  calls.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto correlation = static_cast<std::uint32_t>(2 * i + 10);
    launches.push_back({i, &mangled, 1 + i * 32 / count, 7, 0, correlation, correlation + 1, DefaultStream::None, false, false});
    KernelRecord r;
    r.mangled = &mangled;
    r.start_ns = 1'000'000'000'000 + 4000 * i, r.end_ns = r.start_ns + 3400;
    r.correlation = correlation;
    r.grid[0] = 8192, r.grid[1] = r.grid[2] = 1, r.block[0] = 512, r.block[1] = r.block[2] = 1;
    r.registers_per_thread = 16;
    records.push_back(r);
    calls.push_back({CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 7, correlation, r.start_ns - 2000, r.start_ns - 1500});
  }
  const long before = peak_kib();
  const auto started = std::chrono::steady_clock::now();
  Measurement m;
  m.program.mode = "trace";
  const JoinedKernels joined(std::move(records), std::move(launches), {},
                             [](std::size_t range) { return range ? "loop/offset " + std::to_string(range) : ""; });
  const NamedApiCalls named(std::move(calls));
  if (held) {
    m.kernels.resize(joined.size());
    for (std::size_t i = 0; i < joined.size(); ++i) joined.make(i, m.kernels[i]);
    m.api_calls.resize(named.size());
    for (std::size_t i = 0; i < named.size(); ++i) named.make(i, m.api_calls[i]);
    write_measurement(m, argv[3], MeasurementWriting::SideBySide);
  } else {
    write_measurement(m, MadeTables{joined.rows(), named.rows()}, argv[3], MeasurementWriting::SideBySide);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("%.4f %ld\n", seconds, peak_kib() - before);
  return 0;
}
