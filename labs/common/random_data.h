#pragma once
// Random inputs for the labs (xorshift64*: fast, seedable): floats, and small integers whose
// products add up exactly.
#include <cstdint>
#include <vector>

namespace labbook::lab {

class RandomFloats {
 public:
  explicit RandomFloats(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  /// Uniform in [-1, 1).
  float next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    const std::uint64_t r = state_ * 0x2545F4914F6CDD1Dull;
    return static_cast<float>(static_cast<double>(r >> 40) / static_cast<double>(1ull << 23) - 1.0);
  }
  void fill(std::vector<float>& v) {
    for (auto& x : v) x = next();
  }

 private:
  std::uint64_t state_;
};

/// Small integers in [-4, 4] (xorshift64*): products and sums of them are exact in float
/// (up to 2^24) and double, so a GPU result equals the host's whatever the order of the
/// additions.
class SmallIntegers {
 public:
  explicit SmallIntegers(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  int next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return static_cast<int>((state_ * 0x2545F4914F6CDD1Dull) >> 33 & 0x7FFFFFFF) % 9 - 4;
  }

 private:
  std::uint64_t state_;
};

}  // namespace labbook::lab
