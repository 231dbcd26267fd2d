#pragma once
// Constant memory (004_12112d3317679e06.txt: 64 KiB, __constant__, cudaMemcpyToSymbol):
//   constant/total        payload: cudaDeviceProp::totalConstMem; the whole 64 KiB table is
//                         written with cudaMemcpyToSymbol and read back inside the range
//   constant/c_table      payload: cudaGetSymbolSize of the 64 KiB __constant__ table
//   broadcast/constant/distinct=K, broadcast/global/distinct=K
//                         every thread sums 1024 table entries; in each round a warp reads
//                         K different words (K = 1: one word broadcast to all 32 lanes), from
//                         constant memory or from the same table in global memory
#include <string>
#include <vector>

#include "device_buffer.h"
#include "lab_run.h"
#include "layouts.cuh"

namespace labbook::lab {

inline void constant_reads(LabRun& run, const cudaDeviceProp& prop) {
  namespace k = kernels;
  std::vector<float> table(k::kConstantEntries), back(k::kConstantEntries);
  for (unsigned e = 0; e < k::kConstantEntries; ++e) table[e] = k::table_entry_value(e);
  const std::size_t table_bytes = table.size() * sizeof(float);
  CUDA_CHECK(cudaMemcpyToSymbol(k::c_table, table.data(), table_bytes));   // whatever --only chose
  run.report("constant/total", static_cast<double>(prop.totalConstMem), "bytes (cudaDeviceProp::totalConstMem)", [&] {
    CUDA_CHECK(cudaMemcpyToSymbol(k::c_table, table.data(), table_bytes));
    CUDA_CHECK(cudaMemcpyFromSymbol(back.data(), k::c_table, table_bytes));
    return same_values("constant/total", back.data(), table.data(), table.size());
  });
  std::size_t symbol_size = 0;
  CUDA_CHECK(cudaGetSymbolSize(&symbol_size, k::c_table));
  run.report("constant/c_table", static_cast<double>(symbol_size), "bytes (cudaGetSymbolSize)");

  constexpr unsigned kBlocks = 1024, kBlock = 256, kRounds = 1024;
  DeviceBuffer<float> global_table(k::kConstantEntries), out(kBlocks * kBlock);
  global_table.upload(table);
  std::vector<float> got;
  for (unsigned distinct : {1u, 2u, 4u, 8u, 16u, 32u}) {
    // Lane l's sum, added in the kernel's order: the same for every warp.
    std::vector<float> lane_sum(32, 0.0f);
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned r = 0; r < kRounds; ++r) lane_sum[lane] += table[k::broadcast_entry(r, lane, distinct)];
    auto check = [&](const std::string& path) {
      out.download(got);
      std::vector<float> want(got.size());
      for (std::size_t i = 0; i < want.size(); ++i) want[i] = lane_sum[i % 32];
      return same_values(path, got.data(), want.data(), want.size());
    };
    const std::string suffix = "/distinct=" + std::to_string(distinct);
    for (bool constant : {true, false}) {
      const std::string path = std::string(constant ? "broadcast/constant" : "broadcast/global") + suffix;
      if (!run.selected(path)) continue;
      out.poison();
      run.measure(path, 0, [&] {
        if (constant) k::constantReads<<<kBlocks, kBlock>>>(out.get(), kRounds, distinct);
        else k::globalReads<<<kBlocks, kBlock>>>(global_table.get(), out.get(), kRounds, distinct);
      }, [&] { return check(path); });
    }
  }
}

}  // namespace labbook::lab
