#pragma once
// Copies beside kernels.
//   two_streams/<variant>   000's example (VI-B, VI-C): an input array in two halves, each half
//                           copied to the GPU, processed by `mykernel<<<100, 512, 0, stream[i]>>>`
//                           and copied back, issued loop by loop (both uploads, both kernels,
//                           both downloads) and timed between events on stream 0:
//                             one_stream  both halves on one stream: nothing can overlap;
//                             pinned      one stream per half, page-locked host arrays (as 000 asks);
//                             pageable    one stream per half, new[] host arrays.
//   pipeline/streams=N      004's pipelining (« mmm-streamed »): `tasks` independent tasks, each
//                           upload, kernel, download on stream t mod N (N = 1, 2, 4, 8), issued
//                           task by task, from pinned memory, the whole device's grid per kernel;
//   pipeline/kernels_only   the same kernels with their inputs already on the GPU (004's
//                           « mmm-without-transfers »): what the pipeline would take if the
//                           copies cost nothing.
// Every kernel computes out = f^rounds(in) (streams.cuh); every output is checked on the host
// once the range is closed.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "host_memory.h"
#include "kernel_timer.h"
#include "lab_run.h"
#include "stream_set.h"
#include "nvtx_range.h"
#include "parallel_check.h"
#include "random_data.h"
#include "streams.cuh"

namespace labbook::lab {

/// `parts` input and output arrays of `words` 32-bit words, on the host (one kind of memory)
/// and on the device, and the copies and kernel of each part.
class Parts {
 public:
  Parts(HostKind kind, unsigned parts, std::size_t words, std::uint64_t seed) : words_(words) {
    for (unsigned p = 0; p < parts; ++p) {
      in_.push_back(std::make_unique<HostMemory<std::uint32_t>>(kind, words));
      out_.push_back(std::make_unique<HostMemory<std::uint32_t>>(kind, words));
      in_dev_.push_back(std::make_unique<DeviceBuffer<std::uint32_t>>(words));
      out_dev_.push_back(std::make_unique<DeviceBuffer<std::uint32_t>>(words));
      labbook::lab::RandomWords rng(seed * 1000003u + p);
      for (std::size_t i = 0; i < words; ++i) (*in_.back())[i] = rng.next();
    }
  }

  unsigned count() const { return static_cast<unsigned>(in_.size()); }
  std::size_t bytes() const { return words_ * sizeof(std::uint32_t); }

  /// Every output, on the host and on the device, all bits set.
  void poison() {
    for (auto& o : out_) std::memset(static_cast<void*>(o->get()), 0xFF, bytes());
    for (auto& o : out_dev_) o->poison();
  }
  void upload(unsigned p, cudaStream_t s) {
    CUDA_CHECK(cudaMemcpyAsync(in_dev_[p]->get(), in_[p]->get(), bytes(), cudaMemcpyHostToDevice, s));
  }
  void process(unsigned p, cudaStream_t s, unsigned blocks, unsigned threads, std::uint32_t rounds) {
    kernels::affineRounds<<<blocks, threads, 0, s>>>(in_dev_[p]->get(), out_dev_[p]->get(), words_, rounds);
  }
  void download(unsigned p, cudaStream_t s) {
    CUDA_CHECK(cudaMemcpyAsync(out_[p]->get(), out_dev_[p]->get(), bytes(), cudaMemcpyDeviceToHost, s));
  }
  /// Copies every device output to the host (for ranges that leave them on the device).
  void download_all() {
    for (unsigned p = 0; p < count(); ++p)
      CUDA_CHECK(cudaMemcpy(out_[p]->get(), out_dev_[p]->get(), bytes(), cudaMemcpyDeviceToHost));
  }
  void upload_all() {
    for (unsigned p = 0; p < count(); ++p)
      CUDA_CHECK(cudaMemcpy(in_dev_[p]->get(), in_[p]->get(), bytes(), cudaMemcpyHostToDevice));
  }

  /// True when every host output is f^rounds of its input; says where not on stderr.
  bool right(const std::string& what, std::uint32_t rounds) const {
    const kernels::Affine f = kernels::round_map().power(rounds);
    for (unsigned p = 0; p < count(); ++p) {
      const std::uint32_t* in = in_[p]->get();
      const std::uint32_t* out = out_[p]->get();
      const std::size_t wrong = first_wrong(words_, [&](std::size_t i) { return out[i] == f(in[i]); });
      if (wrong != words_) {
        std::fprintf(stderr, "%s: part %u, word %zu is %u, expected %u\n", what.c_str(), p, wrong, out[wrong], f(in[wrong]));
        return false;
      }
    }
    return true;
  }

 private:
  std::size_t words_;
  std::vector<std::unique_ptr<HostMemory<std::uint32_t>>> in_, out_;
  std::vector<std::unique_ptr<DeviceBuffer<std::uint32_t>>> in_dev_, out_dev_;
};

/// Runs `work` 1 + repeat times inside NVTX path `path`, each timed between events on the legacy
/// default stream as 000 (VI-C) and 004 time (the stop event waits for every blocking stream's
/// work queued before it), then checks the parts' outputs; `after` runs once the range is closed
/// (e.g. the downloads of a range that leaves its results on the device).
template <typename Work, typename After>
void overlap_experiment(LabRun& run, const std::string& path, Parts& parts, Work&& work, After&& after) {
  if (!run.selected(path)) return;
  parts.poison();
  CUDA_CHECK(cudaDeviceSynchronize());
  float ms = 0;
  {
    NvtxPath range(path);
    ms = median_kernel_ms(1 + run.opt.repeat, work);
  }
  after();
  run.record(path, ms, parts.right(path, run.opt.rounds));
}

/// 000's two streams (two halves of one array).
inline void run_two_streams(LabRun& run) {
  if (!run.any_selected({"two_streams/one_stream", "two_streams/pinned", "two_streams/pageable"})) return;
  constexpr unsigned kBlocks = 100, kThreads = 512;   // 000's launch: mykernel<<<100, 512, 0, stream[i]>>>
  Streams stream(2);
  const auto issue = [&](Parts& p, cudaStream_t first, cudaStream_t second) {
    const cudaStream_t s[2] = {first, second};
    for (unsigned i = 0; i < 2; ++i) p.upload(i, s[i]);
    for (unsigned i = 0; i < 2; ++i) p.process(i, s[i], kBlocks, kThreads, run.opt.rounds);
    for (unsigned i = 0; i < 2; ++i) p.download(i, s[i]);
  };
  const auto nothing = [] {};
  {
    Parts pinned(HostKind::Pinned, 2, run.opt.elements, run.opt.seed);
    overlap_experiment(run, "two_streams/one_stream", pinned, [&] { issue(pinned, stream[0], stream[0]); }, nothing);
    overlap_experiment(run, "two_streams/pinned", pinned, [&] { issue(pinned, stream[0], stream[1]); }, nothing);
  }
  Parts pageable(HostKind::Pageable, 2, run.opt.elements, run.opt.seed);
  overlap_experiment(run, "two_streams/pageable", pageable, [&] { issue(pageable, stream[0], stream[1]); }, nothing);
}

/// 004's pipelining over 1, 2, 4 and 8 streams, and its kernels alone.
inline void run_pipeline(LabRun& run) {
  const unsigned stream_counts[] = {1, 2, 4, 8};
  std::vector<std::string> paths = {"pipeline/kernels_only"};
  for (unsigned n : stream_counts) paths.push_back("pipeline/streams=" + std::to_string(n));
  if (!run.any_selected(paths)) return;
  int sms = 0, threads_per_sm = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
  constexpr unsigned kThreads = 512;
  const unsigned blocks = static_cast<unsigned>(sms * threads_per_sm) / kThreads;   // the whole device
  Parts tasks(HostKind::Pinned, run.opt.tasks, run.opt.elements, run.opt.seed + 1);
  Streams streams(8);
  for (unsigned n : stream_counts)
    overlap_experiment(run, "pipeline/streams=" + std::to_string(n), tasks, [&] {
      for (unsigned t = 0; t < tasks.count(); ++t) {
        const cudaStream_t s = streams[t % n];
        tasks.upload(t, s);
        tasks.process(t, s, blocks, kThreads, run.opt.rounds);
        tasks.download(t, s);
      }
    }, [] {});
  // Inputs uploaded and outputs downloaded outside the range: it holds the kernels alone.
  if (run.selected("pipeline/kernels_only")) tasks.upload_all();
  overlap_experiment(run, "pipeline/kernels_only", tasks, [&] {
    for (unsigned t = 0; t < tasks.count(); ++t) tasks.process(t, streams[0], blocks, kThreads, run.opt.rounds);
  }, [&] { tasks.download_all(); });
}

}  // namespace labbook::lab
