#pragma once
/// @file
/// Lab 1's arithmetic, shared by the kernels and the host references: the work of the
/// local-array and register-pressure kernels, and the addresses of the constant-memory reads.
/// Integers only, so device and host agree bit for bit (no contracted multiply-adds).
#include <cstdint>

#include "host_device.h"

// Fully unrolled on the GPU: an array indexed only by constants then lives in registers.
#ifdef __CUDA_ARCH__
#define LABBOOK_UNROLL _Pragma("unroll")
#else
#define LABBOOK_UNROLL
#endif

namespace labbook::kernels {

/// Length of the per-thread array of the local-memory experiments.
inline constexpr unsigned kLocalArray = 32;
/// Values each thread of the register-pressure kernel keeps live across its loop.
inline constexpr unsigned kLiveValues = 40;
/// Entries of the `__constant__` table and of its copy in global memory (16 KiB): the largest
/// table the table kernels walk. A kernel reads only the first `entries` of them.
inline constexpr unsigned kTableEntries = 4096;
/// Entries of the table behind the main constant/global rows (1 KiB): well inside the constant
/// cache's working set (8 KiB per SM on compute capability 9.0 by the CUDA C++ Programming
/// Guide; lab 7's broadcast over 4 KiB already read slower than global memory), so that a
/// broadcast costs a constant-cache hit and not a miss. Larger tables, up to kTableEntries,
/// are the table-size sweep (broadcast/*/table=...).
inline constexpr unsigned kFittingTableEntries = 256;

/// Element j of a thread's array: a mix of its input and j that no compiler folds away.
LABBOOK_HOST_DEVICE inline std::uint32_t local_element(std::uint32_t input, unsigned j) {
  return (input ^ (j * 0x9E3779B9u)) + j;
}

/// What every local-array kernel returns: a thread's array built, then the sum over j of
/// element (j + start) mod 32 times (j + 1). The kernels differ only in whether `start` is
/// known when compiling: if it is, every index is a constant and the array is registers.
LABBOOK_HOST_DEVICE inline std::uint32_t local_array_result(std::uint32_t input, unsigned start) {
  std::uint32_t a[kLocalArray];
  LABBOOK_UNROLL
  for (unsigned j = 0; j < kLocalArray; ++j) a[j] = local_element(input, j);
  std::uint32_t sum = 0;
  LABBOOK_UNROLL
  for (unsigned j = 0; j < kLocalArray; ++j) sum += a[(j + start) % kLocalArray] * (j + 1);
  return sum;
}

/// One round of the register-pressure kernel: every live value takes in its neighbour, so
/// all kLiveValues of them stay live from one round to the next.
LABBOOK_HOST_DEVICE inline void mix_round(std::uint32_t (&v)[kLiveValues]) {
  const std::uint32_t first = v[0];
  LABBOOK_UNROLL
  for (unsigned j = 0; j + 1 < kLiveValues; ++j) v[j] = v[j] * 0x01000193u ^ v[j + 1];
  v[kLiveValues - 1] = v[kLiveValues - 1] * 0x01000193u ^ first;
}

/// The register-pressure kernel's result for one thread: kLiveValues values live across
/// `rounds` rounds (a run-time count: that loop stays a loop).
LABBOOK_HOST_DEVICE inline std::uint32_t mix_result(std::uint32_t input, unsigned rounds) {
  std::uint32_t v[kLiveValues];
  LABBOOK_UNROLL
  for (unsigned j = 0; j < kLiveValues; ++j) v[j] = input + j;
  for (unsigned r = 0; r < rounds; ++r) mix_round(v);
  std::uint32_t sum = 0;
  LABBOOK_UNROLL
  for (unsigned j = 0; j < kLiveValues; ++j) sum += v[j];
  return sum;
}

/// Table entry read in round r by lane `lane` from a table of `entries` words (a power of two,
/// 32 to kTableEntries): the same entry for the whole warp (`divergent` false) or 32 entries
/// 129 words apart, one per lane (129 is odd: 32 different entries in any such table). Rounds
/// step 97 words (388 bytes), so the 1024 rounds of the kernels touch every line of the table:
/// its working set is the whole table.
LABBOOK_HOST_DEVICE inline unsigned table_entry(unsigned r, unsigned lane, bool divergent, unsigned entries) {
  return (r * 97u + (divergent ? lane * 129u : 0u)) & (entries - 1u);
}

/// Value of table entry e (the host fills both tables with it).
LABBOOK_HOST_DEVICE inline std::uint32_t table_value(unsigned e) { return e * 2654435761u + 7u; }

/// A thread's result of the table kernels: the sum of the entries it read.
LABBOOK_HOST_DEVICE inline std::uint32_t table_sum(unsigned lane, unsigned rounds, bool divergent, unsigned entries) {
  std::uint32_t sum = 0;
  for (unsigned r = 0; r < rounds; ++r) sum += table_value(table_entry(r, lane, divergent, entries));
  return sum;
}

/// Byte offset of pointer-chase slot s in a ring of slots `stride` bytes apart.
LABBOOK_HOST_DEVICE inline std::uint64_t slot_offset(std::uint64_t s, std::uint64_t stride) { return s * stride; }

}  // namespace labbook::kernels
