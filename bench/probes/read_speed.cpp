// One read_measurement of a file, in a fresh process as `labbook profile` and `labbook summary`
// make it: its seconds, and how many rows the fast reader took (all of them, or none where the
// whole document's reader had to).
//   read_speed_probe MEASUREMENT
#include <chrono>
#include <cstdio>

#include "labbook/model/measurement_json.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: read_speed_probe MEASUREMENT\n");
    return 2;
  }
  const auto started = std::chrono::steady_clock::now();
  std::size_t rows_fast = 0;
  const labbook::Measurement m = labbook::read_measurement(argv[1], &rows_fast);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("%.4f %zu %zu\n", seconds, rows_fast, m.kernels.size());
  return 0;
}
