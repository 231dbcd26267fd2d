// Lab 8's host check rests on Affine::power: the map applied `rounds` times in one step must
// equal applying it round by round, as the affineRounds kernel does.
#include <gtest/gtest.h>

#include <cstdint>

#include "streams_indexing.h"

using labbook::kernels::Affine;
using labbook::kernels::round_map;

namespace {
std::uint32_t round_by_round(std::uint32_t x, std::uint32_t rounds) {
  for (std::uint32_t r = 0; r < rounds; ++r) x = round_map()(x);
  return x;
}
}  // namespace

TEST(AffineRounds, PowerEqualsApplyingTheMapRoundByRound) {
  for (std::uint32_t rounds : {0u, 1u, 2u, 3u, 7u, 64u, 1000u, 4096u, 4097u, 65535u})
    for (std::uint32_t x : {0u, 1u, 12345u, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu})
      EXPECT_EQ(round_map().power(rounds)(x), round_by_round(x, rounds)) << "rounds " << rounds << ", x " << x;
}

TEST(AffineRounds, ZeroRoundsIsTheIdentityAndRoundsChangeTheValue) {
  EXPECT_EQ(round_map().power(0)(42u), 42u);
  EXPECT_NE(round_map().power(4096)(42u), 42u);
  const Affine twice = round_map().after(round_map());
  EXPECT_EQ(twice(9u), round_map()(round_map()(9u)));
}
