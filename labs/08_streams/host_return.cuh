#pragma once
// Which calls give the host control back before the GPU is done (000, VI-A and V-F-1; 004,
// « CUDA-Streams », « CUDA-Event-Operationen »): each experiment host_return/<call> queues a
// kernel spinning --spin-ms on a fresh stream, then makes the call and times how long it
// takes to return; <call>/call carries that time (ns) of each of 1 + repeat runs as its
// payload. A call that waits for the GPU takes about the spin; one that does not, microseconds.
//   kernel_launch                 a second kernel on the stream
//   memcpy_async_pinned           cudaMemcpyAsync host -> device from pinned memory, on the stream
//   memcpy_async_pageable         the same from pageable memory (000: « la fonction retourne une erreur »)
//   memcpy_pinned                 cudaMemcpy host -> device from pinned memory
//   memcpy_d2d                    cudaMemcpy device -> device (000: « automatiquement asynchrones »)
//   stream_query                  cudaStreamQuery: must answer cudaErrorNotReady
//   stream_synchronize            cudaStreamSynchronize
//   stream_destroy                cudaStreamDestroy (004: waits for the stream's work)
//   event_synchronize             cudaEventSynchronize on an event recorded after the spin
//   event_synchronize_unrecorded  cudaEventSynchronize on an event never recorded (004: returns at once)
#include <cstring>
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "host_memory.h"
#include "lab_run.h"
#include "nvtx_range.h"
#include "streams.cuh"

namespace labbook::lab {

namespace host_return {

/// What one run's call may write: its copy destination, and a tag slot for a kernel.
struct Target {
  std::uint32_t* destination;
  std::uint32_t* tags;
  unsigned slot;
  std::uint32_t tag;
};

/// One call to time. `before` runs after the spin is queued, untimed (recording an event);
/// `call` may destroy the stream (it then sets it to nullptr) and returns the call's status,
/// which must be `expected`.
struct Case {
  std::string name;
  std::function<void(cudaStream_t)> before;
  std::function<cudaError_t(cudaStream_t&, const Target&)> call;
  cudaError_t expected = cudaSuccess;
  bool copies = false;     ///< the call copies the pattern into the target's destination
  bool launches = false;   ///< the call launches a kernel writing the target's tag
};

/// The copies' buffers: the pattern in pinned and in pageable memory and in device memory,
/// and one device destination per run (checked once the range is closed).
struct Buffers {
  HostMemory<std::uint32_t> pinned, pageable;
  DeviceBuffer<std::uint32_t> device;
  std::vector<std::unique_ptr<DeviceBuffer<std::uint32_t>>> destinations;
  Buffers(std::size_t words, int runs) : pinned(HostKind::Pinned, words), pageable(HostKind::Pageable, words), device(words) {
    for (std::size_t i = 0; i < words; ++i) pinned[i] = pageable[i] = static_cast<std::uint32_t>(i * 2654435761u) ^ 0x5A5A5A5Au;
    CUDA_CHECK(cudaMemcpy(device.get(), pinned.get(), bytes(), cudaMemcpyHostToDevice));
    for (int r = 0; r < runs; ++r) destinations.push_back(std::make_unique<DeviceBuffer<std::uint32_t>>(words));
  }
  std::size_t bytes() const { return pinned.bytes(); }
  void poison() {
    for (auto& d : destinations) d->poison();
  }
  /// True when every destination holds the pattern.
  bool copied(const std::string& what) const {
    std::vector<std::uint32_t> got;
    for (std::size_t r = 0; r < destinations.size(); ++r) {
      destinations[r]->download(got);
      if (std::memcmp(got.data(), pinned.get(), bytes()) != 0) {
        std::fprintf(stderr, "%s: run %zu copied the wrong data\n", what.c_str(), r);
        return false;
      }
    }
    return true;
  }
};

}  // namespace host_return

inline void run_host_return(LabRun& run) {
  using host_return::Case;
  using host_return::Target;
  const int runs = 1 + run.opt.repeat;
  std::optional<host_return::Buffers> buffers;   // made once some case is selected
  cudaEvent_t recorded = nullptr, never_recorded = nullptr;
  const auto nothing = [](cudaStream_t) {};
  const std::vector<Case> cases = {
      {"kernel_launch", nothing,
       [](cudaStream_t& s, const Target& t) {
         kernels::spinCycles<<<1, 32, 0, s>>>(0, t.tags, t.slot, t.tag);
         return cudaGetLastError();
       },
       cudaSuccess, false, true},
      {"memcpy_async_pinned", nothing,
       [&](cudaStream_t& s, const Target& t) {
         return cudaMemcpyAsync(t.destination, buffers->pinned.get(), buffers->bytes(), cudaMemcpyHostToDevice, s);
       },
       cudaSuccess, true},
      {"memcpy_async_pageable", nothing,
       [&](cudaStream_t& s, const Target& t) {
         return cudaMemcpyAsync(t.destination, buffers->pageable.get(), buffers->bytes(), cudaMemcpyHostToDevice, s);
       },
       cudaSuccess, true},
      {"memcpy_pinned", nothing,
       [&](cudaStream_t&, const Target& t) { return cudaMemcpy(t.destination, buffers->pinned.get(), buffers->bytes(), cudaMemcpyHostToDevice); },
       cudaSuccess, true},
      {"memcpy_d2d", nothing,
       [&](cudaStream_t&, const Target& t) { return cudaMemcpy(t.destination, buffers->device.get(), buffers->bytes(), cudaMemcpyDeviceToDevice); },
       cudaSuccess, true},
      {"stream_query", nothing, [](cudaStream_t& s, const Target&) { return cudaStreamQuery(s); }, cudaErrorNotReady},
      {"stream_synchronize", nothing, [](cudaStream_t& s, const Target&) { return cudaStreamSynchronize(s); }, cudaSuccess},
      {"stream_destroy", nothing,
       [](cudaStream_t& s, const Target&) {
         const cudaError_t e = cudaStreamDestroy(s);
         s = nullptr;
         return e;
       },
       cudaSuccess},
      {"event_synchronize", [&](cudaStream_t s) { CUDA_CHECK(cudaEventRecord(recorded, s)); },
       [&](cudaStream_t&, const Target&) { return cudaEventSynchronize(recorded); }, cudaSuccess},
      {"event_synchronize_unrecorded", nothing,
       [&](cudaStream_t&, const Target&) { return cudaEventSynchronize(never_recorded); }, cudaSuccess},
  };

  if (std::none_of(cases.begin(), cases.end(), [&](const Case& c) { return run.selected("host_return/" + c.name); })) return;
  buffers.emplace(run.opt.elements, runs);
  CUDA_CHECK(cudaEventCreate(&recorded));
  CUDA_CHECK(cudaEventCreate(&never_recorded));
  for (const Case& c : cases) {
    const std::string path = "host_return/" + c.name;
    if (!run.selected(path)) continue;
    Tags tags(2 * static_cast<std::size_t>(runs));   // run r: slot 2r the spin, 2r + 1 a launched kernel
    buffers->poison();
    std::vector<cudaStream_t> streams(static_cast<std::size_t>(runs));
    for (auto& s : streams) CUDA_CHECK(cudaStreamCreate(&s));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> call_ns, run_ms;
    bool statuses_right = true;
    {
      NvtxPath range(path);
      for (int r = 0; r < runs; ++r) {
        const auto slot = static_cast<unsigned>(2 * r);
        tags.expect(slot, slot + 1);
        if (c.launches) tags.expect(slot + 1, slot + 2);
        const host_return::Target target{buffers->destinations[static_cast<std::size_t>(r)]->get(), tags.get(), slot + 1, slot + 2};
        cudaStream_t& stream = streams[static_cast<std::size_t>(r)];
        cudaError_t status = cudaSuccess;
        run_ms.push_back(device_wall_ms([&] {
          kernels::spinFor<<<1, 32, 0, stream>>>(run.spin_ns(), tags.get(), slot, slot + 1);
          c.before(stream);
          call_ns.push_back(host_ns([&] { status = c.call(stream, target); }));
          if (status != cudaSuccess) cudaGetLastError();   // an answer to compare below, not an error to carry on
        }));
        if (status != c.expected) {
          std::fprintf(stderr, "%s: the call returned %s, expected %s\n", path.c_str(), cudaGetErrorName(status),
                       cudaGetErrorName(c.expected));
          statuses_right = false;
        }
      }
      for (double ns : call_ns) NvtxRange call("call", ns);   // one payload per call: its spread is the noise
    }
    for (auto s : streams)
      if (s) CUDA_CHECK(cudaStreamDestroy(s));
    const bool right = statuses_right && tags.right(path) && (!c.copies || buffers->copied(path));
    std::printf("%-32s returned after %.1f us (spin %u ms)\n", path.c_str(), median(call_ns) / 1e3, run.opt.spin_ms);
    run.record(path, median(run_ms), right);
  }
  CUDA_CHECK(cudaEventDestroy(recorded));
  CUDA_CHECK(cudaEventDestroy(never_recorded));
}

}  // namespace labbook::lab
