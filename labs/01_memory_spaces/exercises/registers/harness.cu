// The lab1-registers harness: owns main and launches the student's rotated_sum (256 threads
// per block, ceil(n / 256) blocks) on fresh random words and starts: two checks at sizes that
// are not multiples of the block size, three timed calls at n = 2^22, each beside lab 1's
// localArrayRuntime (the same work, its array in local memory) on data of its own, and a last
// check after them. Every call's output goes to labbook, which checks it word for word; the
// inputs are compared with private copies here. See exercise_harness.h.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "exercise_harness.h"
#include "memory_spaces.cuh"

// The student's kernel (submission.cu).
__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n);

namespace {

using labbook::lab::ExerciseHarness;
constexpr unsigned kBlock = 256;

/// One call's data: fresh random words and starts drawn from `seed` (kept on the host as the
/// private copy), uploaded, then the output poisoned; the student's calls and the reference's
/// are set up alike, so both start with L2 in the same state.
struct Arrays {
  labbook::lab::LocalArrayInputs host;
  labbook::lab::DeviceBuffer<std::uint32_t> in, start, out;
  Arrays(std::uint64_t seed, unsigned n) : host(labbook::lab::local_array_inputs(seed, n)), in(n), start(n), out(n) {
    in.upload(host.in);
    start.upload(host.start);
    out.poison();
  }
  unsigned blocks() const { return static_cast<unsigned>((in.size() + kBlock - 1) / kBlock); }
};

/// Index of the first word of `now` that differs from `before`, or -1.
long long first_changed_word(const std::vector<std::uint32_t>& now, const std::vector<std::uint32_t>& before) {
  const auto at = std::mismatch(before.begin(), before.end(), now.begin()).first;
  return at == before.end() ? -1 : at - before.begin();
}

void student_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  const std::uint64_t seed = h.next_seed();
  Arrays a(seed, n);
  const std::string what = h.next_student_call({n});
  h.call(range, what, [&] { rotated_sum<<<a.blocks(), kBlock>>>(a.in.get(), a.start.get(), a.out.get(), n); });
  // The words travel to labbook as the records' 4-byte elements, bits unchanged.
  std::vector<float> got(n);
  a.out.download(reinterpret_cast<std::uint32_t*>(got.data()));
  h.output(seed, {n}, got, [&] { return labbook::lab::check_local_array(a.host, n, got.data()); });
  const auto unchanged = [&](const labbook::lab::DeviceBuffer<std::uint32_t>& buffer,
                             const std::vector<std::uint32_t>& copy, const std::string& name) {
    std::vector<std::uint32_t> now;
    buffer.download(now);
    const long long i = first_changed_word(now, copy);
    if (i >= 0) h.wrong(what + ": the input " + name + " changed at element " + std::to_string(i) + " (the inputs are read-only)");
    return i < 0;
  };
  if (unchanged(a.in, a.host.in, "in")) unchanged(a.start, a.host.start, "start");
}

/// Lab 1's localArrayRuntime on data of its own, timed as the student's calls are.
void reference_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  Arrays a(h.next_seed(), n);
  h.call(range, "the reference kernel",
         [&] { labbook::kernels::localArrayRuntime<<<a.blocks(), kBlock>>>(a.in.get(), a.start.get(), a.out.get(), n); });
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  return run_array_calls(h, student_call, reference_call);
}
