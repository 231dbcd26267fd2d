#pragma once
// Pitched 2-D and 3-D memory (000_e84d1941bb8bbaf9.txt V-C, 001_a3a2ccee8305185b.txt):
//   pitch/width=N            cudaMallocPitch of 16 rows of N bytes; payload: the pitch it
//                            returned; a cudaMemcpy2D there and back checks the rows
//   pitch/max, pitch/texture_alignment   payloads: cudaDeviceProp's memPitch and texturePitchAlignment
//   rows/linear, rows/pitched            rowsScale over the width x height image, rows packed
//                            (pitch = width * 4) or as cudaMallocPitch laid them out
//   volume/pitch/width_bytes=B, volume/slice_pitch/width_bytes=B
//                            cudaMalloc3D of make_cudaExtent(B, 64, 64): payloads pitch and
//                            pitch * height (B = 64 is the sources' extent, 256 holds 64 floats)
//   volume/walk              volumeScale over 64 x 64 x 64 floats, the sources' pointer arithmetic
#include <cstring>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "device_layouts.h"
#include "host_memory.h"
#include "lab_run.h"
#include "layouts.cuh"
#include "random_data.h"

namespace labbook::lab {

inline void pitch_sweep(LabRun& run, const cudaDeviceProp& prop) {
  constexpr std::size_t kRows = 16;
  for (std::size_t width : {4, 32, 100, 128, 256, 400, 511, 512, 513, 1000, 1024, 2048, 4004, 4096, 5000, 8192}) {
    const std::string path = "pitch/width=" + std::to_string(width);
    if (!run.selected(path)) continue;
    const PitchedMemory memory(width, kRows);
    std::vector<unsigned char> rows(width * kRows), back(width * kRows, 0);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<unsigned char>(i * 13 + 5);
    run.report(path, static_cast<double>(memory.pitch()), "bytes", [&] {
      CUDA_CHECK(cudaMemcpy2D(memory.floats(), memory.pitch(), rows.data(), width, width, kRows, cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy2D(back.data(), width, memory.floats(), memory.pitch(), width, kRows, cudaMemcpyDeviceToHost));
      return memory.pitch() >= width && same_values(path, back.data(), rows.data(), rows.size());
    });
  }
  run.report("pitch/max", static_cast<double>(prop.memPitch), "bytes (cudaDeviceProp::memPitch)");
  run.report("pitch/texture_alignment", static_cast<double>(prop.texturePitchAlignment),
             "bytes (cudaDeviceProp::texturePitchAlignment)");
}

/// The row experiments: the same image as packed rows and as pitched rows.
inline void rows(LabRun& run, const HostMemory<float>& image) {
  const unsigned w = run.opt.width, h = run.opt.height;
  const std::size_t count = std::size_t{w} * h, row_bytes = std::size_t{w} * sizeof(float);
  std::vector<float> expected(count), got(count);
  for (std::size_t i = 0; i < count; ++i) expected[i] = kernels::scaled(image[i]);
  const dim3 block(kernels::kLayoutBlockX, kernels::kLayoutBlockY);
  const dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  const double bytes = 2.0 * static_cast<double>(count) * sizeof(float);

  if (run.selected("rows/linear")) {
    DeviceBuffer<float> in(count), out(count);
    CUDA_CHECK(cudaMemcpy(in.get(), image.get(), image.bytes(), cudaMemcpyHostToDevice));
    out.poison();
    run.measure("rows/linear", bytes, [&] { kernels::rowsScale<<<grid, block>>>(in.get(), row_bytes, out.get(), row_bytes, w, h); },
                [&] {
                  out.download(got);
                  return same_values("rows/linear", got.data(), expected.data(), count);
                });
  }
  if (run.selected("rows/pitched")) {
    const PitchedMemory in(row_bytes, h), out(row_bytes, h);
    CUDA_CHECK(cudaMemcpy2D(in.floats(), in.pitch(), image.get(), row_bytes, row_bytes, h, cudaMemcpyHostToDevice));
    out.poison();
    run.measure("rows/pitched", bytes,
                [&] { kernels::rowsScale<<<grid, block>>>(in.floats(), in.pitch(), out.floats(), out.pitch(), w, h); }, [&] {
                  CUDA_CHECK(cudaMemcpy2D(got.data(), row_bytes, out.floats(), out.pitch(), row_bytes, h, cudaMemcpyDeviceToHost));
                  return same_values("rows/pitched", got.data(), expected.data(), count);
                });
  }
}

/// cudaMalloc3D's pitch for the sources' extent and for 64 floats per row, then the walk.
inline void volumes(LabRun& run, std::uint64_t seed) {
  constexpr unsigned kSide = 64;   // make_cudaExtent(64, 64, 64), 000 V-C and 001
  for (std::size_t width_bytes : {std::size_t{kSide}, std::size_t{kSide} * sizeof(float)}) {
    const PitchedVolume volume(make_cudaExtent(width_bytes, kSide, kSide));
    const std::string suffix = "/width_bytes=" + std::to_string(width_bytes);
    run.report("volume/pitch" + suffix, static_cast<double>(volume.ptr().pitch), "bytes");
    run.report("volume/slice_pitch" + suffix, static_cast<double>(kernels::slice_pitch(volume.ptr().pitch, kSide)), "bytes");
  }

  if (!run.selected("volume/walk")) return;
  const cudaExtent extent = make_cudaExtent(kSide * sizeof(float), kSide, kSide);
  const std::size_t count = std::size_t{kSide} * kSide * kSide;
  std::vector<float> host(count), expected(count), got(count);
  RandomFloats(seed).fill(host);
  for (std::size_t i = 0; i < count; ++i) expected[i] = kernels::scaled(host[i]);
  const PitchedVolume in(extent), out(extent);
  // Host volumes are packed: rows of kSide floats, no padding.
  auto packed = [&](float* p) { return make_cudaPitchedPtr(p, kSide * sizeof(float), kSide, kSide); };
  auto copy = [&](cudaPitchedPtr to, cudaPitchedPtr from, cudaMemcpyKind kind) {
    cudaMemcpy3DParms parms{};
    parms.srcPtr = from;
    parms.dstPtr = to;
    parms.extent = extent;
    parms.kind = kind;
    CUDA_CHECK(cudaMemcpy3D(&parms));
  };
  copy(in.ptr(), packed(host.data()), cudaMemcpyHostToDevice);
  out.poison();
  const dim3 block(kernels::kLayoutBlockX, kernels::kLayoutBlockY), grid(kSide / block.x, kSide / block.y);
  run.measure("volume/walk", 2.0 * static_cast<double>(count) * sizeof(float),
              [&] { kernels::volumeScale<<<grid, block>>>(in.ptr(), out.ptr(), extent); }, [&] {
                copy(packed(got.data()), out.ptr(), cudaMemcpyDeviceToHost);
                return same_values("volume/walk", got.data(), expected.data(), count);
              });
}

}  // namespace labbook::lab
