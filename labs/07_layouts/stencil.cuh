#pragma once
// A 5-point stencil over the width x height image, read three ways and in two orders
// (000_e84d1941bb8bbaf9.txt V-B: arrays are « une mémoire opaque optimisée pour la recherche
// dans une texture »):
//   stencil/global/{rows,columns}           pitched global memory, loads through L1
//   stencil/texture_array/{rows,columns}    a CUDA array filled by cudaMemcpy2DToArray from
//                                           the pitched image (000 V-E), read with tex2D
//   stencil/texture_pitched/{rows,columns}  the pitched image itself behind a texture object
// "rows": a warp's lanes lie along a row; "columns": along a column, each lane in another row.
#include <string>
#include <vector>

#include "device_layouts.h"
#include "host_memory.h"
#include "lab_run.h"
#include "layouts.cuh"

namespace labbook::lab {

inline void stencils(LabRun& run, const HostMemory<float>& image) {
  const unsigned w = run.opt.width, h = run.opt.height;
  const std::size_t count = std::size_t{w} * h, row_bytes = std::size_t{w} * sizeof(float);
  // Pixels 0..255, so that every sum of five is exact in float and in any order.
  std::vector<float> pixels(count), expected(count), got(count);
  for (std::size_t i = 0; i < count; ++i) pixels[i] = static_cast<float>(static_cast<int>((image[i] + 1.0f) * 128.0f) % 256);
  for (unsigned y = 0; y < h; ++y)
    for (unsigned x = 0; x < w; ++x) {
      float sum = 0.0f;
      for (int point = 0; point < kernels::kStencilPoints; ++point)
        sum += pixels[std::size_t{kernels::clamped(static_cast<int>(y) + kernels::stencil_dy(point), h)} * w +
                      kernels::clamped(static_cast<int>(x) + kernels::stencil_dx(point), w)];
      expected[std::size_t{y} * w + x] = sum;
    }

  const PitchedMemory in(row_bytes, h), out(row_bytes, h);
  CUDA_CHECK(cudaMemcpy2D(in.floats(), in.pitch(), pixels.data(), row_bytes, row_bytes, h, cudaMemcpyHostToDevice));
  const CudaArray array(w, h);
  CUDA_CHECK(cudaMemcpy2DToArray(array.get(), 0, 0, in.floats(), in.pitch(), row_bytes, h, cudaMemcpyDeviceToDevice));

  cudaResourceDesc array_resource{};
  array_resource.resType = cudaResourceTypeArray;
  array_resource.res.array.array = array.get();
  const TextureObject array_texture(array_resource);
  cudaResourceDesc pitched_resource{};
  pitched_resource.resType = cudaResourceTypePitch2D;
  pitched_resource.res.pitch2D.devPtr = in.floats();
  pitched_resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  pitched_resource.res.pitch2D.width = w;
  pitched_resource.res.pitch2D.height = h;
  pitched_resource.res.pitch2D.pitchInBytes = in.pitch();
  const TextureObject pitched_texture(pitched_resource);

  const dim3 block(kernels::kLayoutBlockX, kernels::kLayoutBlockY);
  const double bytes = 2.0 * static_cast<double>(count) * sizeof(float);
  for (bool by_columns : {false, true}) {
    const kernels::Pixel g = kernels::stencil_grid(by_columns, w, h);
    const dim3 grid(g.x, g.y);
    const std::string order = by_columns ? "columns" : "rows";
    auto run_one = [&](const std::string& path, auto&& launch) {
      if (!run.selected(path)) return;
      out.poison();
      run.measure(path, bytes, launch, [&] {
        CUDA_CHECK(cudaMemcpy2D(got.data(), row_bytes, out.floats(), out.pitch(), row_bytes, h, cudaMemcpyDeviceToHost));
        return same_values(path, got.data(), expected.data(), count);
      });
    };
    run_one("stencil/global/" + order, [&] {
      if (by_columns) kernels::stencilGlobal<true><<<grid, block>>>(in.floats(), in.pitch(), out.floats(), out.pitch(), w, h);
      else kernels::stencilGlobal<false><<<grid, block>>>(in.floats(), in.pitch(), out.floats(), out.pitch(), w, h);
    });
    for (const auto& [name, texture] : {std::pair<const char*, cudaTextureObject_t>{"texture_array", array_texture.get()},
                                        std::pair<const char*, cudaTextureObject_t>{"texture_pitched", pitched_texture.get()}})
      run_one(std::string("stencil/") + name + "/" + order, [&, texture = texture] {
        if (by_columns) kernels::stencilTexture<true><<<grid, block>>>(texture, out.floats(), out.pitch(), w, h);
        else kernels::stencilTexture<false><<<grid, block>>>(texture, out.floats(), out.pitch(), w, h);
      });
  }
}

}  // namespace labbook::lab
