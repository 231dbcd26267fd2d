// What `labbook profile` still writes after a trace-only run's program has exited, when all four
// outputs were written while it ended: nothing where it exited 0, the summary and the
// measurement again where it gave another code (before, always: only the trace's two outputs
// were written early).
//   outputs_after_exit_probe MEASUREMENT OUT_DIR
// Prints: seconds writing early, seconds after an exit of 0, seconds after an exit of 1.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "labbook/model/measurement_json.h"
#include "profile_outputs.h"

using namespace labbook;

namespace {

double seconds_of(const std::function<void()>& work) {
  const auto started = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: outputs_after_exit_probe MEASUREMENT OUT_DIR\n");
    return 2;
  }
  Measurement m = read_measurement(argv[1]);
  const std::string out = argv[2];
  m.program.command = {"./many_launches", "100000"};
  m.program.exit_code = 0;   // what the early outputs assume
  cli::EarlyOutputs early;
  const double while_ending = seconds_of([&] { early = cli::write_outputs_early(m, out); });
  int written_after_0 = 0, written_after_1 = 0;
  std::vector<cli::OutputSeconds> kept_0, kept_1;
  const double after_0 =
      seconds_of([&] { written_after_0 = cli::write_profile_outputs(m, out, nullptr, &kept_0, early); });
  m.program.exit_code = 1;
  const double after_1 =
      seconds_of([&] { written_after_1 = cli::write_profile_outputs(m, out, nullptr, &kept_1, early); });
  if (early.written.size() != 4 || written_after_0 != cli::kProfileOutputs || written_after_1 != cli::kProfileOutputs) {
    std::fprintf(stderr, "outputs_after_exit_probe: an output could not be written to %s\n", out.c_str());
    return 1;
  }
  // After an exit of 0 all four are the early ones; after another, the summary and the
  // measurement are not.
  const auto early_ones = [](const std::vector<cli::OutputSeconds>& outputs) {
    std::size_t n = 0;
    for (const auto& o : outputs) n += o.early;
    return n;
  };
  if (early_ones(kept_0) != 4 || early_ones(kept_1) != 2) {
    std::fprintf(stderr, "outputs_after_exit_probe: %zu and %zu outputs kept from before the exit, not 4 and 2\n",
                 early_ones(kept_0), early_ones(kept_1));
    return 1;
  }
  std::printf("%.4f %.4f %.4f\n", while_ending, after_0, after_1);
  return 0;
}
