#pragma once
// Random inputs for the labs (xorshift64*: fast, seedable): floats, small integers whose
// products add up exactly, and 32-bit words.
#include <cstdint>
#include <vector>

namespace labbook::lab {

/// xorshift64*: the one generator behind the classes below.
class Xorshift64Star {
 public:
  explicit Xorshift64Star(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }

 private:
  std::uint64_t state_;
};

class RandomFloats {
 public:
  explicit RandomFloats(std::uint64_t seed) : bits_(seed) {}
  /// Uniform in [-1, 1).
  float next() { return static_cast<float>(static_cast<double>(bits_.next() >> 40) / static_cast<double>(1ull << 23) - 1.0); }
  void fill(std::vector<float>& v) {
    for (auto& x : v) x = next();
  }

 private:
  Xorshift64Star bits_;
};

/// Small integers in [-4, 4]: products and sums of them are exact in float (up to 2^24) and
/// double, so a GPU result equals the host's whatever the order of the additions.
class SmallIntegers {
 public:
  explicit SmallIntegers(std::uint64_t seed) : bits_(seed) {}
  int next() { return static_cast<int>(bits_.next() >> 33 & 0x7FFFFFFF) % 9 - 4; }

 private:
  Xorshift64Star bits_;
};

/// Uniform 32-bit words.
class RandomWords {
 public:
  explicit RandomWords(std::uint64_t seed) : bits_(seed) {}
  std::uint32_t next() { return static_cast<std::uint32_t>(bits_.next() >> 32); }

 private:
  Xorshift64Star bits_;
};

}  // namespace labbook::lab
