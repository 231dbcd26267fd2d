// What a trace run keeps of each kernel while the program runs (profiler/compact_records.h):
// one copy of each name, from any thread, and every field of the record in the model's kernel.
#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "compact_records.h"

using namespace labbook::profiler;

TEST(CompactRecords, ANameIsKeptOnceWhicheverThreadAsksForIt) {
  InternedNames names;
  std::vector<const std::string*> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] {
      for (int repeat = 0; repeat < 1000; ++repeat) seen[i] = names.intern(i % 2 ? "_Z3addPfS_i" : "_Z5scalePfi");
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(std::set<const std::string*>(seen.begin(), seen.end()).size(), 2u);
  EXPECT_EQ(*seen[1], "_Z3addPfS_i");
  EXPECT_EQ(names.intern("_Z5scalePfi"), seen[0]) << "the same pointer for the same name";
}

// Made into a kernel that held another row, as the measurement's writer makes them in turn.
TEST(CompactRecords, TheModelsKernelHoldsEveryFieldOfTheRecordAndNothingOfTheRowBefore) {
  InternedNames names;
  KernelRecord r;
  r.mangled = names.intern("_Z5scalePfi");
  r.start_ns = 100, r.end_ns = 250;
  r.correlation = 7, r.stream = 13, r.device = 1;
  r.grid[0] = 4, r.grid[1] = 5, r.grid[2] = 6;
  r.block[0] = 256, r.block[1] = 2, r.block[2] = 1;
  r.registers_per_thread = 32, r.static_shared_bytes = 1024, r.dynamic_shared_bytes = 2048, r.local_bytes_per_thread = 8;
  labbook::Kernel k;
  k.launch = 5, k.thread = 9, k.range = "loop/iteration", k.metrics["m"] = 1, k.ordinal = 3;
  k.default_stream = labbook::DefaultStream::Legacy;
  make_kernel(r, "scale(float*, int)", k);
  EXPECT_EQ(k.mangled, "_Z5scalePfi");
  EXPECT_EQ(k.name, "scale(float*, int)");
  EXPECT_EQ(k.start_ns, 100u);
  EXPECT_EQ(k.end_ns, 250u);
  EXPECT_EQ(k.correlation, 7u);
  EXPECT_EQ(k.stream, 13u);
  EXPECT_EQ(k.device, 1);
  EXPECT_EQ(std::vector<int>(k.grid, k.grid + 3), (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(std::vector<int>(k.block, k.block + 3), (std::vector<int>{256, 2, 1}));
  EXPECT_EQ(k.registers_per_thread, 32);
  EXPECT_EQ(k.static_shared_bytes, 1024);
  EXPECT_EQ(k.dynamic_shared_bytes, 2048);
  EXPECT_EQ(k.local_bytes_per_thread, 8);
  EXPECT_EQ(k.launch, 0u) << "the launch callbacks' to fill in";
  EXPECT_EQ(k.range, "");
  EXPECT_EQ(k.thread, 0u);
  EXPECT_EQ(k.default_stream, labbook::DefaultStream::None);
  EXPECT_TRUE(k.metrics.empty());
  EXPECT_FALSE(k.ordinal.has_value());
}
