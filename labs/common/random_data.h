#pragma once
// Random inputs for the labs (xorshift64*: fast, seedable, not zeros).
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

}  // namespace labbook::lab
