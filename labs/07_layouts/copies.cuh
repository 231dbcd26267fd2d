#pragma once
// Every copy function of 000_e84d1941bb8bbaf9.txt (V-E, V-F-1 to V-F-7), one range each,
// "memcpy/<function>/<direction>", on the width x height image (pinned host memory, linear,
// pitched and CUDA-array device memory) and on a side^3 volume (cudaMemcpy3D). Each range
// holds one checked call and --repeat timed ones; the destination is poisoned before and
// compared with the source after. CUDA 13 still declares cudaMemcpyToArray,
// cudaMemcpyFromArray, cudaMemcpyArrayToArray and their Async forms, marked deprecated
// (__CUDA_DEPRECATED in cuda_runtime_api.h): their ranges run the replacement, the 2-D call
// over the same rows (the old calls copied `count` bytes row after row into the array).
//
// Also:
//   async/cudaMemcpy_d2d/return, .../complete   a device-to-device cudaMemcpy alone, and
//                          followed by cudaDeviceSynchronize (000 V-F-1: « ces copies sont
//                          automatiquement asynchrones »); the same for a pinned host-to-device copy
//   errors/...             payload: the error code of a call a source says must fail
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

namespace copy_checks {

/// The buffers of the 2-D copies and a way to read each one back.
struct Image2D {
  Image2D(unsigned w, unsigned h)
      : width(w), height(h), count(std::size_t{w} * h), row_bytes(std::size_t{w} * sizeof(float)),
        source(HostKind::Pinned, count), target(HostKind::Pinned, count), linear_a(count), linear_b(count),
        pitched_a(row_bytes, h), pitched_b(row_bytes, h), array_a(w, h), array_b(w, h), poison(count), got(count) {
    std::memset(static_cast<void*>(poison.data()), 0xFF, count * sizeof(float));
  }
  const unsigned width, height;
  const std::size_t count, row_bytes;
  HostMemory<float> source, target;
  DeviceBuffer<float> linear_a, linear_b;
  PitchedMemory pitched_a, pitched_b;
  CudaArray array_a, array_b;
  std::vector<float> poison, got;

  bool host_ok(const std::string& what) { return same_values(what, target.get(), source.get(), count); }
  bool linear_ok(const std::string& what, const DeviceBuffer<float>& b) {
    b.download(got);
    return same_values(what, got.data(), source.get(), count);
  }
  bool pitched_ok(const std::string& what, const PitchedMemory& p) {
    CUDA_CHECK(cudaMemcpy2D(got.data(), row_bytes, p.floats(), p.pitch(), row_bytes, height, cudaMemcpyDeviceToHost));
    return same_values(what, got.data(), source.get(), count);
  }
  bool array_ok(const std::string& what, const CudaArray& a) {
    CUDA_CHECK(cudaMemcpy2DFromArray(got.data(), row_bytes, a.get(), 0, 0, row_bytes, height, cudaMemcpyDeviceToHost));
    return same_values(what, got.data(), source.get(), count);
  }
  void poison_host() { std::memset(static_cast<void*>(target.get()), 0xFF, target.bytes()); }
  void poison_array(const CudaArray& a) {
    CUDA_CHECK(cudaMemcpy2DToArray(a.get(), 0, 0, poison.data(), row_bytes, row_bytes, height, cudaMemcpyHostToDevice));
  }
};

/// The buffers of the 3-D copies: packed host volumes, cudaMalloc3D volumes, 3-D CUDA arrays.
struct Volume3D {
  explicit Volume3D(unsigned s)
      : side(s), count(std::size_t{s} * s * s), bytes_extent(make_cudaExtent(s * sizeof(float), s, s)),
        elements_extent(make_cudaExtent(s, s, s)), source(HostKind::Pinned, count), target(HostKind::Pinned, count),
        volume_a(bytes_extent), volume_b(bytes_extent), array_a(elements_extent), array_b(elements_extent), got(count) {}
  const unsigned side;
  const std::size_t count;
  // cudaMemcpy3D's extent is in bytes wide between linear memories, in elements when an array takes part.
  const cudaExtent bytes_extent, elements_extent;
  HostMemory<float> source, target;
  PitchedVolume volume_a, volume_b;
  CudaArray array_a, array_b;
  std::vector<float> got;

  cudaPitchedPtr packed(float* p) const { return make_cudaPitchedPtr(p, side * sizeof(float), side, side); }
  static cudaMemcpy3DParms parms(cudaMemcpyKind kind, cudaExtent extent) {
    cudaMemcpy3DParms p{};
    p.kind = kind;
    p.extent = extent;
    return p;
  }
  bool volume_ok(const std::string& what, const PitchedVolume& v) {
    cudaMemcpy3DParms p = parms(cudaMemcpyDeviceToHost, bytes_extent);
    p.srcPtr = v.ptr();
    p.dstPtr = packed(got.data());
    CUDA_CHECK(cudaMemcpy3D(&p));
    return same_values(what, got.data(), source.get(), count);
  }
  bool array_ok(const std::string& what, const CudaArray& a) {
    cudaMemcpy3DParms p = parms(cudaMemcpyDeviceToHost, elements_extent);
    p.srcArray = a.get();
    p.dstPtr = packed(got.data());
    CUDA_CHECK(cudaMemcpy3D(&p));
    return same_values(what, got.data(), source.get(), count);
  }
  bool host_ok(const std::string& what) { return same_values(what, target.get(), source.get(), count); }
};

}  // namespace copy_checks

/// V-F-1 to V-F-7 on the 2-D image.
inline void copies_2d(LabRun& run, const HostMemory<float>& image) {
  copy_checks::Image2D im(run.opt.width, run.opt.height);
  std::memcpy(im.source.get(), image.get(), image.bytes());
  const std::size_t bytes = im.count * sizeof(float), rb = im.row_bytes;
  const unsigned h = im.height;
  const double size = static_cast<double>(bytes);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  float* source = im.source.get();
  float* target = im.target.get();

  // V-F-1: linear to linear, every direction; cudaMemcpyAsync from pinned and from pageable memory.
  im.poison_host();
  run.measure("memcpy/cudaMemcpy/h2h", size, [&] { CUDA_CHECK(cudaMemcpy(target, source, bytes, cudaMemcpyHostToHost)); },
              [&] { return im.host_ok("memcpy/cudaMemcpy/h2h"); });
  im.linear_a.poison();
  run.measure("memcpy/cudaMemcpy/h2d", size, [&] { CUDA_CHECK(cudaMemcpy(im.linear_a.get(), source, bytes, cudaMemcpyHostToDevice)); },
              [&] { return im.linear_ok("memcpy/cudaMemcpy/h2d", im.linear_a); });
  CUDA_CHECK(cudaMemcpy(im.linear_a.get(), source, bytes, cudaMemcpyHostToDevice));   // whatever --only chose
  im.linear_b.poison();
  run.measure("memcpy/cudaMemcpy/d2d", size,
              [&] { CUDA_CHECK(cudaMemcpy(im.linear_b.get(), im.linear_a.get(), bytes, cudaMemcpyDeviceToDevice)); },
              [&] { return im.linear_ok("memcpy/cudaMemcpy/d2d", im.linear_b); });
  im.poison_host();
  run.measure("memcpy/cudaMemcpy/d2h", size, [&] { CUDA_CHECK(cudaMemcpy(target, im.linear_a.get(), bytes, cudaMemcpyDeviceToHost)); },
              [&] { return im.host_ok("memcpy/cudaMemcpy/d2h"); });
  im.linear_b.poison();
  run.measure("memcpy/cudaMemcpyAsync/h2d", size,
              [&] { CUDA_CHECK(cudaMemcpyAsync(im.linear_b.get(), source, bytes, cudaMemcpyHostToDevice, stream)); },
              [&] { return im.linear_ok("memcpy/cudaMemcpyAsync/h2d", im.linear_b); });
  im.poison_host();
  run.measure("memcpy/cudaMemcpyAsync/d2h", size,
              [&] { CUDA_CHECK(cudaMemcpyAsync(target, im.linear_a.get(), bytes, cudaMemcpyDeviceToHost, stream)); },
              [&] { return im.host_ok("memcpy/cudaMemcpyAsync/d2h"); });
  if (run.selected("memcpy/cudaMemcpyAsync/pageable_h2d")) {
    // 000 says the call returns an error from memory that is not page-locked: CUDA_CHECK stops
    // the program if it does.
    const std::vector<float> pageable(source, source + im.count);
    im.linear_b.poison();
    run.measure("memcpy/cudaMemcpyAsync/pageable_h2d", size,
                [&] { CUDA_CHECK(cudaMemcpyAsync(im.linear_b.get(), pageable.data(), bytes, cudaMemcpyHostToDevice, stream)); },
                [&] { return im.linear_ok("memcpy/cudaMemcpyAsync/pageable_h2d", im.linear_b); });
  }

  // V-F-3: matrices (pitched 2-D memory) to matrices.
  im.pitched_a.poison();
  run.measure("memcpy/cudaMemcpy2D/h2d", size,
              [&] { CUDA_CHECK(cudaMemcpy2D(im.pitched_a.floats(), im.pitched_a.pitch(), source, rb, rb, h, cudaMemcpyHostToDevice)); },
              [&] { return im.pitched_ok("memcpy/cudaMemcpy2D/h2d", im.pitched_a); });
  CUDA_CHECK(cudaMemcpy2D(im.pitched_a.floats(), im.pitched_a.pitch(), source, rb, rb, h, cudaMemcpyHostToDevice));
  im.pitched_b.poison();
  run.measure("memcpy/cudaMemcpy2D/d2d", size, [&] {
    CUDA_CHECK(cudaMemcpy2D(im.pitched_b.floats(), im.pitched_b.pitch(), im.pitched_a.floats(), im.pitched_a.pitch(), rb, h,
                            cudaMemcpyDeviceToDevice));
  }, [&] { return im.pitched_ok("memcpy/cudaMemcpy2D/d2d", im.pitched_b); });
  // The same rows packed one after another (pitch = row bytes): most rows start off a sector.
  im.linear_b.poison();
  run.measure("memcpy/cudaMemcpy2D/d2d_linear", size, [&] {
    CUDA_CHECK(cudaMemcpy2D(im.linear_b.get(), rb, im.linear_a.get(), rb, rb, h, cudaMemcpyDeviceToDevice));
  }, [&] { return im.linear_ok("memcpy/cudaMemcpy2D/d2d_linear", im.linear_b); });
  im.poison_host();
  run.measure("memcpy/cudaMemcpy2D/d2h", size,
              [&] { CUDA_CHECK(cudaMemcpy2D(target, rb, im.pitched_a.floats(), im.pitched_a.pitch(), rb, h, cudaMemcpyDeviceToHost)); },
              [&] { return im.host_ok("memcpy/cudaMemcpy2D/d2h"); });
  im.pitched_b.poison();
  run.measure("memcpy/cudaMemcpy2DAsync/d2d", size, [&] {
    CUDA_CHECK(cudaMemcpy2DAsync(im.pitched_b.floats(), im.pitched_b.pitch(), im.pitched_a.floats(), im.pitched_a.pitch(), rb, h,
                                 cudaMemcpyDeviceToDevice, stream));
  }, [&] { return im.pitched_ok("memcpy/cudaMemcpy2DAsync/d2d", im.pitched_b); });

  // V-E's example and V-F-4: matrices to CUDA arrays.
  im.poison_array(im.array_a);
  run.measure("memcpy/cudaMemcpy2DToArray/d2a", size, [&] {
    CUDA_CHECK(cudaMemcpy2DToArray(im.array_a.get(), 0, 0, im.pitched_a.floats(), im.pitched_a.pitch(), rb, h,
                                   cudaMemcpyDeviceToDevice));
  }, [&] { return im.array_ok("memcpy/cudaMemcpy2DToArray/d2a", im.array_a); });
  CUDA_CHECK(cudaMemcpy2DToArray(im.array_a.get(), 0, 0, source, rb, rb, h, cudaMemcpyHostToDevice));
  im.poison_array(im.array_b);
  run.measure("memcpy/cudaMemcpy2DToArrayAsync/h2a", size, [&] {
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(im.array_b.get(), 0, 0, source, rb, rb, h, cudaMemcpyHostToDevice, stream));
  }, [&] { return im.array_ok("memcpy/cudaMemcpy2DToArrayAsync/h2a", im.array_b); });

  // V-F-2 (deprecated): linear memory to CUDA arrays, run as the 2-D replacement.
  im.poison_array(im.array_b);
  run.measure("memcpy/cudaMemcpyToArray/h2a", size,
              [&] { CUDA_CHECK(cudaMemcpy2DToArray(im.array_b.get(), 0, 0, source, rb, rb, h, cudaMemcpyHostToDevice)); },
              [&] { return im.array_ok("memcpy/cudaMemcpyToArray/h2a", im.array_b); });
  im.poison_array(im.array_b);
  run.measure("memcpy/cudaMemcpyToArrayAsync/h2a", size, [&] {
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(im.array_b.get(), 0, 0, source, rb, rb, h, cudaMemcpyHostToDevice, stream));
  }, [&] { return im.array_ok("memcpy/cudaMemcpyToArrayAsync/h2a", im.array_b); });

  // V-F-6: CUDA arrays to matrices.
  im.pitched_b.poison();
  run.measure("memcpy/cudaMemcpy2DFromArray/a2d", size, [&] {
    CUDA_CHECK(cudaMemcpy2DFromArray(im.pitched_b.floats(), im.pitched_b.pitch(), im.array_a.get(), 0, 0, rb, h,
                                     cudaMemcpyDeviceToDevice));
  }, [&] { return im.pitched_ok("memcpy/cudaMemcpy2DFromArray/a2d", im.pitched_b); });
  im.poison_host();
  run.measure("memcpy/cudaMemcpy2DFromArrayAsync/a2h", size, [&] {
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(target, rb, im.array_a.get(), 0, 0, rb, h, cudaMemcpyDeviceToHost, stream));
  }, [&] { return im.host_ok("memcpy/cudaMemcpy2DFromArrayAsync/a2h"); });

  // V-F-5 (deprecated): CUDA arrays to linear memory, run as the 2-D replacement.
  im.poison_host();
  run.measure("memcpy/cudaMemcpyFromArray/a2h", size,
              [&] { CUDA_CHECK(cudaMemcpy2DFromArray(target, rb, im.array_a.get(), 0, 0, rb, h, cudaMemcpyDeviceToHost)); },
              [&] { return im.host_ok("memcpy/cudaMemcpyFromArray/a2h"); });
  im.poison_host();
  run.measure("memcpy/cudaMemcpyFromArrayAsync/a2h", size, [&] {
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(target, rb, im.array_a.get(), 0, 0, rb, h, cudaMemcpyDeviceToHost, stream));
  }, [&] { return im.host_ok("memcpy/cudaMemcpyFromArrayAsync/a2h"); });

  // V-F-7 (deprecated, and without an Async form then as now): CUDA array to CUDA array.
  im.poison_array(im.array_b);
  run.measure("memcpy/cudaMemcpyArrayToArray/a2a", size, [&] {
    CUDA_CHECK(cudaMemcpy2DArrayToArray(im.array_b.get(), 0, 0, im.array_a.get(), 0, 0, rb, h, cudaMemcpyDeviceToDevice));
  }, [&] { return im.array_ok("memcpy/cudaMemcpyArrayToArray/a2a", im.array_b); });

  CUDA_CHECK(cudaStreamDestroy(stream));
}

/// V-E's copy to constant memory (`constData[256]`) and back.
inline void copies_symbol(LabRun& run) {
  constexpr unsigned kFloats = 256;
  std::vector<float> data(kFloats), back(kFloats);
  for (unsigned i = 0; i < kFloats; ++i) data[i] = static_cast<float>(i) * 0.75f;
  const double size = kFloats * sizeof(float);
  run.measure("memcpy/cudaMemcpyToSymbol", size,
              [&] { CUDA_CHECK(cudaMemcpyToSymbol(kernels::c_table, data.data(), kFloats * sizeof(float))); }, [&] {
                CUDA_CHECK(cudaMemcpyFromSymbol(back.data(), kernels::c_table, kFloats * sizeof(float)));
                return same_values("memcpy/cudaMemcpyToSymbol", back.data(), data.data(), kFloats);
              });
  CUDA_CHECK(cudaMemcpyToSymbol(kernels::c_table, data.data(), kFloats * sizeof(float)));
  std::memset(static_cast<void*>(back.data()), 0xFF, kFloats * sizeof(float));
  run.measure("memcpy/cudaMemcpyFromSymbol", size,
              [&] { CUDA_CHECK(cudaMemcpyFromSymbol(back.data(), kernels::c_table, kFloats * sizeof(float))); },
              [&] { return same_values("memcpy/cudaMemcpyFromSymbol", back.data(), data.data(), kFloats); });
}

/// cudaMemcpy3D between every kind of memory (000 V-C, and cudaMalloc3DArray of V-D), and
/// cudaMemcpy3DAsync from one CUDA array to another: the asynchronous array-to-array copy that
/// V-F-7 says does not exist.
inline void copies_3d(LabRun& run, std::uint64_t seed) {
  copy_checks::Volume3D v(run.opt.side);
  RandomFloats random(seed);
  for (std::size_t i = 0; i < v.count; ++i) v.source[i] = random.next();
  using V = copy_checks::Volume3D;
  const double size = static_cast<double>(v.count) * sizeof(float);
  auto copy = [](cudaMemcpy3DParms p) { CUDA_CHECK(cudaMemcpy3D(&p)); };

  v.volume_a.poison();
  cudaMemcpy3DParms h2d = V::parms(cudaMemcpyHostToDevice, v.bytes_extent);
  h2d.srcPtr = v.packed(v.source.get());
  h2d.dstPtr = v.volume_a.ptr();
  run.measure("memcpy/cudaMemcpy3D/h2d", size, [&] { copy(h2d); }, [&] { return v.volume_ok("memcpy/cudaMemcpy3D/h2d", v.volume_a); });
  copy(h2d);
  v.volume_b.poison();
  cudaMemcpy3DParms d2d = V::parms(cudaMemcpyDeviceToDevice, v.bytes_extent);
  d2d.srcPtr = v.volume_a.ptr();
  d2d.dstPtr = v.volume_b.ptr();
  run.measure("memcpy/cudaMemcpy3D/d2d", size, [&] { copy(d2d); }, [&] { return v.volume_ok("memcpy/cudaMemcpy3D/d2d", v.volume_b); });
  std::memset(static_cast<void*>(v.target.get()), 0xFF, v.target.bytes());
  cudaMemcpy3DParms d2h = V::parms(cudaMemcpyDeviceToHost, v.bytes_extent);
  d2h.srcPtr = v.volume_a.ptr();
  d2h.dstPtr = v.packed(v.target.get());
  run.measure("memcpy/cudaMemcpy3D/d2h", size, [&] { copy(d2h); }, [&] { return v.host_ok("memcpy/cudaMemcpy3D/d2h"); });

  cudaMemcpy3DParms h2a = V::parms(cudaMemcpyHostToDevice, v.elements_extent);
  h2a.srcPtr = v.packed(v.source.get());
  h2a.dstArray = v.array_a.get();
  run.measure("memcpy/cudaMemcpy3D/h2a", size, [&] { copy(h2a); }, [&] { return v.array_ok("memcpy/cudaMemcpy3D/h2a", v.array_a); });
  copy(h2a);
  std::memset(static_cast<void*>(v.target.get()), 0xFF, v.target.bytes());
  cudaMemcpy3DParms a2h = V::parms(cudaMemcpyDeviceToHost, v.elements_extent);
  a2h.srcArray = v.array_a.get();
  a2h.dstPtr = v.packed(v.target.get());
  run.measure("memcpy/cudaMemcpy3D/a2h", size, [&] { copy(a2h); }, [&] { return v.host_ok("memcpy/cudaMemcpy3D/a2h"); });
  cudaMemcpy3DParms a2a = V::parms(cudaMemcpyDeviceToDevice, v.elements_extent);
  a2a.srcArray = v.array_a.get();
  a2a.dstArray = v.array_b.get();
  run.measure("memcpy/cudaMemcpy3DAsync/a2a", size, [&] { CUDA_CHECK(cudaMemcpy3DAsync(&a2a, 0)); },
              [&] { return v.array_ok("memcpy/cudaMemcpy3DAsync/a2a", v.array_b); });
}

/// When cudaMemcpy returns: a device-to-device copy returns before the copy is done, a copy
/// from pinned host memory only once it is. Each range holds one call; "complete" waits for
/// the device before it closes.
inline void copy_returns(LabRun& run) {
  const std::size_t count = std::size_t{run.opt.side} * run.opt.side * run.opt.side, bytes = count * sizeof(float);
  HostMemory<float> host(HostKind::Pinned, count);
  for (std::size_t i = 0; i < count; ++i) host[i] = static_cast<float>(i % 1000);
  DeviceBuffer<float> a(count), b(count);
  struct Case {
    const char* group;
    void* to;
    const void* from;
    cudaMemcpyKind kind;
  };
  for (const Case& c : {Case{"async/cudaMemcpy_d2d", b.get(), a.get(), cudaMemcpyDeviceToDevice},
                        Case{"async/cudaMemcpy_h2d", b.get(), host.get(), cudaMemcpyHostToDevice}}) {
    CUDA_CHECK(cudaMemcpy(a.get(), host.get(), bytes, cudaMemcpyHostToDevice));
    for (const char* end : {"return", "complete"}) {
      const std::string path = std::string(c.group) + "/" + end;
      if (!run.selected(path)) continue;
      b.poison();
      CUDA_CHECK(cudaMemcpy(c.to, c.from, bytes, c.kind));   // the first call of a kind pays for set-up: not timed
      b.poison();
      CUDA_CHECK(cudaDeviceSynchronize());
      {
        NvtxPath range(path);
        CUDA_CHECK(cudaMemcpy(c.to, c.from, bytes, c.kind));
        if (std::string(end) == "complete") CUDA_CHECK(cudaDeviceSynchronize());
      }
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<float> got;
      b.download(got);
      run.record(path, same_values(path, got.data(), host.get(), count));
    }
  }
}

/// Calls 000 and 001 say must fail, and the error each returns (payload: the cudaError_t value).
inline void call_errors(LabRun& run, const cudaDeviceProp& prop) {
  const std::size_t row = std::size_t{run.opt.width} * sizeof(float);
  DeviceBuffer<float> a(run.opt.width * 2), b(run.opt.width * 2);
  auto report = [&](const std::string& path, cudaError_t status) {
    cudaGetLastError();   // these errors are the answer, not a broken context
    run.report(path, static_cast<double>(status), cudaGetErrorName(status), [&] { return status != cudaSuccess; });
  };
  // V-F-3: « valeurs de pas plus grandes que le maximum autorisé ». The source rows lie within
  // one allocation, so the call is a valid copy if the pitch is allowed: the H100's runtime
  // (CUDA 13) accepts a pitch above memPitch, and then both rows must arrive.
  if (run.selected("errors/cudaMemcpy2D/pitch_above_max") && prop.memPitch < (std::size_t{8} << 30)) {
    const std::size_t spitch = prop.memPitch + 1;
    DeviceBuffer<unsigned char> wide(spitch + row);
    CUDA_CHECK(cudaMemset(wide.get(), 0x11, row));
    CUDA_CHECK(cudaMemset(wide.get() + spitch, 0x22, row));
    b.poison();
    const cudaError_t status = cudaMemcpy2D(b.get(), row, wide.get(), spitch, row, 2, cudaMemcpyDeviceToDevice);
    cudaGetLastError();
    run.report("errors/cudaMemcpy2D/pitch_above_max", static_cast<double>(status), cudaGetErrorName(status), [&] {
      if (status != cudaSuccess) return true;
      std::vector<unsigned char> got(2 * row);
      CUDA_CHECK(cudaMemcpy(got.data(), b.get(), 2 * row, cudaMemcpyDeviceToHost));
      for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != (i < row ? 0x11 : 0x22)) return false;
      return true;
    });
  }
  if (run.selected("errors/cudaMemcpy2D/width_above_pitch"))
    report("errors/cudaMemcpy2D/width_above_pitch", cudaMemcpy2D(b.get(), row - 4, a.get(), row, row, 2, cudaMemcpyDeviceToDevice));
  if (run.selected("errors/cudaMemcpy/invalid_direction"))
    report("errors/cudaMemcpy/invalid_direction", cudaMemcpy(b.get(), a.get(), 4, static_cast<cudaMemcpyKind>(7)));
  // 001: cudaMallocPitch returns cudaErrorMemoryAllocation when it cannot allocate: 16 TiB here.
  if (run.selected("errors/cudaMallocPitch/too_large")) {
    void* memory = nullptr;
    std::size_t pitch = 0;
    const cudaError_t status = cudaMallocPitch(&memory, &pitch, std::size_t{1} << 16, std::size_t{1} << 28);
    if (status == cudaSuccess) CUDA_CHECK(cudaFree(memory));
    report("errors/cudaMallocPitch/too_large", status);
  }
}

}  // namespace labbook::lab
