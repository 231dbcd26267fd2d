#pragma once
// The affine_rounds check (labs 2 and 8, host-code exercises): n words drawn from the call's
// seed; out[i] is lab 8's affineRounds result, round_map() applied `rounds` times to in[i]
// (kernels/streams_indexing.h, host code too), a word sent as the records' 4-byte element and
// compared bit for bit. A task list's words are drawn one task after the other, so a list of
// tasks checks as one array of all their words.
#include "../../kernels/streams_indexing.h"   // relative: labbook has no kernels/ on its path
#include "exercise_check_basics.h"
#include "random_data.h"

namespace labbook::lab {

/// The affine_rounds input: n words drawn from `seed`, as the harness draws them.
inline std::vector<std::uint32_t> affine_rounds_input(std::uint64_t seed, std::uint64_t n) {
  std::vector<std::uint32_t> in(n);
  RandomWords rng(seed);
  for (auto& v : in) v = rng.next();
  return in;
}

/// Why `out` (n words, each in a 4-byte element of the records) is not `rounds` affine rounds
/// of `in` ("" when it is). Integers: exact, whatever the rubric's tolerance.
inline std::string check_affine_rounds(const std::vector<std::uint32_t>& in, std::uint32_t rounds, const float* out) {
  const kernels::Affine f = kernels::round_map().power(rounds);
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::uint32_t got;
    std::memcpy(&got, &out[i], sizeof got);
    if (got == f(in[i])) continue;
    const std::string index = "[" + std::to_string(i) + "]";
    return "out" + index + " is " + (got == 0xFFFFFFFFu ? describe_value(out[i]) : std::to_string(got)) + ", expected " +
           std::to_string(f(in[i])) + " (in" + index + " = " + std::to_string(in[i]) + ", " + std::to_string(rounds) +
           " rounds)";
  }
  return "";
}

/// Why `out` is not `rounds` affine rounds of the n words drawn from `seed`.
inline std::string check_affine_rounds(std::uint64_t seed, std::uint64_t n, std::uint32_t rounds, const float* out) {
  return check_affine_rounds(affine_rounds_input(seed, n), rounds, out);
}

}  // namespace labbook::lab
