#pragma once
/// @file
/// What lab 8's affineRounds kernel computes, for the kernel and for the host's check: the
/// map x -> a x + c (mod 2^32) applied `rounds` times is one affine map again, so the host
/// checks every output in one step however long the kernel's chain of multiply-adds.
#include <cstdint>

#include "host_device.h"

namespace labbook::kernels {

/// x -> a x + c modulo 2^32, and its powers: applying `rounds` times is one affine map again.
struct Affine {
  std::uint32_t a, c;
  LABBOOK_HOST_DEVICE std::uint32_t operator()(std::uint32_t x) const { return a * x + c; }
  /// This map applied after `first`.
  LABBOOK_HOST_DEVICE Affine after(const Affine& first) const { return {a * first.a, a * first.c + c}; }
  /// The map applied `rounds` times (square and multiply: O(log rounds) on the host).
  LABBOOK_HOST_DEVICE Affine power(std::uint32_t rounds) const {
    Affine result{1u, 0u}, square = *this;
    for (; rounds; rounds >>= 1) {
      if (rounds & 1u) result = square.after(result);
      square = square.after(square);
    }
    return result;
  }
};

/// One round: Numerical Recipes' LCG constants (odd a: every round is a bijection).
LABBOOK_HOST_DEVICE inline Affine round_map() { return {1664525u, 1013904223u}; }

}  // namespace labbook::kernels
