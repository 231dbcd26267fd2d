#pragma once
// The local_array check (lab 1): n words, then n starts (0 to 31); out[i] is lab 1's
// local_array_result(in[i], start[i]), compared bit for bit.
#include "../../kernels/memory_spaces_indexing.h"   // relative: labbook has no kernels/ on its path
#include "exercise_check_basics.h"
#include "random_data.h"

namespace labbook::lab {

/// The local_array inputs: each thread's word and the start of its rotation.
struct LocalArrayInputs {
  std::vector<std::uint32_t> in, start;
};

/// The local_array inputs drawn from `seed`, as the harness draws them.
inline LocalArrayInputs local_array_inputs(std::uint64_t seed, std::uint64_t n) {
  LocalArrayInputs inputs{std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n)};
  RandomWords rng(seed);
  for (auto& v : inputs.in) v = rng.next();
  for (auto& v : inputs.start) v = rng.next() % kernels::kLocalArray;
  return inputs;
}

/// Why `out` (n words, each in a 4-byte element of the records) is not lab 1's local-array
/// result of `inputs` ("" when it is). Integers: exact, whatever the rubric's tolerance.
inline std::string check_local_array(const LocalArrayInputs& inputs, std::uint64_t n, const float* out) {
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint32_t got;
    std::memcpy(&got, &out[i], sizeof got);
    const std::uint32_t want = kernels::local_array_result(inputs.in[i], inputs.start[i]);
    if (got == want) continue;
    const std::string index = "[" + std::to_string(i) + "]";
    return "out" + index + " is " + (got == 0xFFFFFFFFu ? describe_value(out[i]) : std::to_string(got)) + ", expected " +
           std::to_string(want) + " (in" + index + " = " + std::to_string(inputs.in[i]) + ", start" + index + " = " +
           std::to_string(inputs.start[i]) + ")";
  }
  return "";
}

/// Why `out` is not the local-array result of the inputs drawn from `seed`.
inline std::string check_local_array(std::uint64_t seed, std::uint64_t n, const float* out) {
  return check_local_array(local_array_inputs(seed, n), n, out);
}

// stencil5: lab 7's exercise (lab7-stencil).

}  // namespace labbook::lab
