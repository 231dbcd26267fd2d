#pragma once
// Facts of the allocation calls that 000_e84d1941bb8bbaf9.txt states (V-B to V-D), measured:
//   linear/cudaMalloc       the 256 floats of V-C, filled with V-E's cudaMemcpy; payload: the
//                           bits of the address cudaMalloc returned (V-B: « un espace à
//                           adresses de 32 bits »)
//   array/formats           payload: how many of the 21 element formats V-B lists (1, 2 or 4
//                           components of 8/16/32-bit signed or unsigned integers, or of
//                           32-bit floats) cudaMallocArray accepts
//   array/three_components  payload: how many of the same 7 element types with 3 components it accepts
//   symbol/d_symbol         payload: cudaGetSymbolSize of a __device__ array, written through
//                           the address cudaGetSymbolAddress gives (V-D)
#include <cstdint>
#include <vector>

#include "device_buffer.h"
#include "lab_run.h"
#include "layouts.cuh"

namespace labbook::lab {

namespace facts {

/// Bits needed to write `address`: 32 at most for a pointer in a 32-bit address space.
inline double address_bits(std::uintptr_t address) {
  double bits = 0;
  for (; address; address >>= 1) ++bits;
  return bits;
}

/// How many of the element formats with `components` components cudaMallocArray accepts:
/// 8, 16 and 32-bit signed and unsigned integers and 32-bit floats.
inline int accepted_formats(int components) {
  struct Type {
    int bits;
    cudaChannelFormatKind kind;
  };
  const Type types[] = {{8, cudaChannelFormatKindSigned},  {8, cudaChannelFormatKindUnsigned},
                        {16, cudaChannelFormatKindSigned}, {16, cudaChannelFormatKindUnsigned},
                        {32, cudaChannelFormatKindSigned}, {32, cudaChannelFormatKindUnsigned},
                        {32, cudaChannelFormatKindFloat}};
  int accepted = 0;
  for (const Type& t : types) {
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc(t.bits, components > 1 ? t.bits : 0,
                                                             components > 2 ? t.bits : 0, components > 3 ? t.bits : 0, t.kind);
    cudaArray_t array = nullptr;
    if (cudaMallocArray(&array, &desc, 64, 64) == cudaSuccess) {
      ++accepted;
      CUDA_CHECK(cudaFreeArray(array));
    }
    cudaGetLastError();   // a refused format is an answer, not a failure of the program
  }
  return accepted;
}

}  // namespace facts

inline void allocation_facts(LabRun& run) {
  // V-C allocates 256 floats; V-E copies `float data[256]` to the device.
  constexpr unsigned kFloats = 256;
  DeviceBuffer<float> device(kFloats);
  std::vector<float> data(kFloats), back(kFloats);
  for (unsigned i = 0; i < kFloats; ++i) data[i] = static_cast<float>(i) * 0.5f;
  run.report("linear/cudaMalloc", facts::address_bits(reinterpret_cast<std::uintptr_t>(device.get())), "address bits", [&] {
    CUDA_CHECK(cudaMemcpy(device.get(), data.data(), kFloats * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(back.data(), device.get(), kFloats * sizeof(float), cudaMemcpyDeviceToHost));
    return same_values("linear/cudaMalloc", back.data(), data.data(), kFloats);
  });

  if (run.selected("array/formats")) {
    const int accepted = facts::accepted_formats(1) + facts::accepted_formats(2) + facts::accepted_formats(4);
    run.report("array/formats", accepted, "of 21 formats accepted");
  }
  if (run.selected("array/three_components")) run.report("array/three_components", facts::accepted_formats(3), "of 7 accepted");

  std::size_t size = 0;
  CUDA_CHECK(cudaGetSymbolSize(&size, kernels::d_symbol));
  run.report("symbol/d_symbol", static_cast<double>(size), "bytes", [&] {
    void* address = nullptr;
    CUDA_CHECK(cudaGetSymbolAddress(&address, kernels::d_symbol));
    std::vector<float> values(size / sizeof(float)), read(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) + 0.25f;
    CUDA_CHECK(cudaMemcpy(address, values.data(), size, cudaMemcpyHostToDevice));   // a plain copy to the symbol's address
    CUDA_CHECK(cudaMemcpyFromSymbol(read.data(), kernels::d_symbol, size));
    return size == kernels::kSymbolEntries * sizeof(float) && same_values("symbol/d_symbol", read.data(), values.data(), values.size());
  });
}

}  // namespace labbook::lab
