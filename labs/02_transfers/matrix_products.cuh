#pragma once
// Experiment 3: the matrix products of 004_12112d3317679e06.txt ("mmm", "mmm-without-
// transfers", "mmm-streamed", "mmm-streamed-and-pinned", "mmm-mapped"): `products`
// independent double-precision products C_i = A_i B_i of n x n matrices, each with its two
// uploads and its download, timed as a whole between events like the source's "GPU time in
// ms". Ranges: mmm/pageable, mmm/without_transfers, mmm/streams, mmm/streams_pinned,
// mmm/mapped; each holds exactly the source's calls (10 kernels, 20 HtoD, 10 DtoH copies).
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "host_memory.h"
#include "lab_run.h"
#include "random_data.h"
#include "stream_set.h"
#include "transfers.cuh"

namespace labbook::lab {

namespace products {

/// A_i, B_i, C_i in one kind of host memory; A and B hold small integers (random_data.h), the
/// same for every kind, C the poison (all bits set: NaN).
struct HostSet {
  std::vector<std::unique_ptr<HostMemory<double>>> a, b, c;
  HostSet(HostKind kind, unsigned count, unsigned n, std::uint64_t seed) {
    const std::size_t elements = static_cast<std::size_t>(n) * n;
    for (unsigned i = 0; i < count; ++i) {
      a.push_back(std::make_unique<HostMemory<double>>(kind, elements));
      b.push_back(std::make_unique<HostMemory<double>>(kind, elements));
      c.push_back(std::make_unique<HostMemory<double>>(kind, elements));
      SmallIntegers rng(seed * 1000 + i);
      for (std::size_t e = 0; e < elements; ++e) (*a[i])[e] = rng.next();
      for (std::size_t e = 0; e < elements; ++e) (*b[i])[e] = rng.next();
    }
    poison();
  }
  void poison() {
    for (auto& m : c) std::memset(static_cast<void*>(m->get()), 0xFF, m->bytes());
  }
};

/// True when C = A B. Freivalds' test with two random integer vectors x (C x = A (B x),
/// exact in double for these small integers) plus 64 entries computed outright: a wrong,
/// missing (NaN) or stale element fails it.
inline bool product_is_right(const double* A, const double* B, const double* C, unsigned n, std::uint64_t seed) {
  SmallIntegers rng(seed);
  std::vector<double> x(n), bx(n);
  for (int trial = 0; trial < 2; ++trial) {
    for (auto& v : x) v = rng.next() * 3 + rng.next();   // integers in [-16, 16]
    for (unsigned r = 0; r < n; ++r) {
      double s = 0;
      for (unsigned k = 0; k < n; ++k) s += B[static_cast<std::size_t>(r) * n + k] * x[k];
      bx[r] = s;
    }
    for (unsigned r = 0; r < n; ++r) {
      double abx = 0, cx = 0;
      for (unsigned k = 0; k < n; ++k) {
        abx += A[static_cast<std::size_t>(r) * n + k] * bx[k];
        cx += C[static_cast<std::size_t>(r) * n + k] * x[k];
      }
      if (!(abx == cx)) return false;   // NaN compares unequal too
    }
  }
  for (int sample = 0; sample < 64; ++sample) {
    const unsigned r = static_cast<unsigned>(rng.next() + 4) * n / 9, col = static_cast<unsigned>(rng.next() + 4) * n / 9 + sample % 7;
    double s = 0;
    for (unsigned k = 0; k < n; ++k) s += A[static_cast<std::size_t>(r) * n + k] * B[static_cast<std::size_t>(k) * n + col % n];
    if (!(s == C[static_cast<std::size_t>(r) * n + col % n])) return false;
  }
  return true;
}

}  // namespace products

class MatrixProducts {
 public:
  explicit MatrixProducts(Run& run) : run_(run), n_(run.opt.mmm_n), count_(run.opt.products), streams_(count_) {
    const std::size_t elements = static_cast<std::size_t>(n_) * n_;
    for (unsigned i = 0; i < count_; ++i) {
      a_.push_back(std::make_unique<DeviceBuffer<double>>(elements));
      b_.push_back(std::make_unique<DeviceBuffer<double>>(elements));
      c_.push_back(std::make_unique<DeviceBuffer<double>>(elements));
    }
  }

  void run_all() {
    if (!run_.any_selected({"mmm/pageable", "mmm/without_transfers", "mmm/streams", "mmm/streams_pinned", "mmm/mapped"})) return;
    {
      products::HostSet pageable(HostKind::Pageable, count_, n_, run_.opt.seed);
      warm_up(pageable);
      variant("mmm/pageable", pageable, [&] { sequential(pageable); });
      // Kernels alone, the inputs already on the device (uploaded outside every range).
      upload(pageable);
      variant("mmm/without_transfers", pageable, [&] { kernels_only(); }, /*download_after=*/true);
      variant("mmm/streams", pageable, [&] { streamed(pageable); });
    }
    {
      products::HostSet pinned(HostKind::Pinned, count_, n_, run_.opt.seed);
      variant("mmm/streams_pinned", pinned, [&] { streamed(pinned); });
    }
    {
      products::HostSet mapped(HostKind::Mapped, count_, n_, run_.opt.seed);
      variant("mmm/mapped", mapped, [&] { mapped_kernels(mapped); });
    }
  }

 private:
  dim3 grid() const { return dim3(n_ / kernels::kMmmTile, n_ / kernels::kMmmTile); }
  dim3 block() const { return dim3(kernels::kMmmTile, kernels::kMmmTile); }
  std::size_t bytes() const { return static_cast<std::size_t>(n_) * n_ * sizeof(double); }

  /// One product before the measured ones: module loading and first-launch costs stay out of
  /// the measured variants (the source's programs paid them before their first event).
  void warm_up(products::HostSet& h) {
    NvtxPath range("warm_up/mmm");   // every kernel belongs to a range (labbook check), not to mmm/*
    CUDA_CHECK(cudaMemcpy(a_[0]->get(), h.a[0]->get(), bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b_[0]->get(), h.b[0]->get(), bytes(), cudaMemcpyHostToDevice));
    kernels::mmm<<<grid(), block()>>>(a_[0]->get(), b_[0]->get(), c_[0]->get(), n_);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  void upload(products::HostSet& h) {
    for (unsigned i = 0; i < count_; ++i) {
      CUDA_CHECK(cudaMemcpy(a_[i]->get(), h.a[i]->get(), bytes(), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(b_[i]->get(), h.b[i]->get(), bytes(), cudaMemcpyHostToDevice));
    }
  }

  /// "mmm": upload, multiply, download, one product after the other on the default stream.
  void sequential(products::HostSet& h) {
    for (unsigned i = 0; i < count_; ++i) {
      CUDA_CHECK(cudaMemcpy(a_[i]->get(), h.a[i]->get(), bytes(), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(b_[i]->get(), h.b[i]->get(), bytes(), cudaMemcpyHostToDevice));
      kernels::mmm<<<grid(), block()>>>(a_[i]->get(), b_[i]->get(), c_[i]->get(), n_);
      CUDA_CHECK(cudaMemcpy(h.c[i]->get(), c_[i]->get(), bytes(), cudaMemcpyDeviceToHost));
    }
  }

  void kernels_only() {
    for (unsigned i = 0; i < count_; ++i) kernels::mmm<<<grid(), block()>>>(a_[i]->get(), b_[i]->get(), c_[i]->get(), n_);
  }

  /// "mmm-streamed": one stream per product, its three copies and its kernel queued on it.
  /// From pageable memory cudaMemcpyAsync returns only once the driver has staged the data,
  /// so little overlaps; from pinned memory the DMA engines run beside the kernels.
  void streamed(products::HostSet& h) {
    for (unsigned i = 0; i < count_; ++i) {
      CUDA_CHECK(cudaMemcpyAsync(a_[i]->get(), h.a[i]->get(), bytes(), cudaMemcpyHostToDevice, streams_[i]));
      CUDA_CHECK(cudaMemcpyAsync(b_[i]->get(), h.b[i]->get(), bytes(), cudaMemcpyHostToDevice, streams_[i]));
      kernels::mmm<<<grid(), block(), 0, streams_[i]>>>(a_[i]->get(), b_[i]->get(), c_[i]->get(), n_);
      CUDA_CHECK(cudaMemcpyAsync(h.c[i]->get(), c_[i]->get(), bytes(), cudaMemcpyDeviceToHost, streams_[i]));
    }
  }

  /// "mmm-mapped": no copies; the kernels read A and B and write C in host memory across
  /// the bus (one stream per product, like the streamed program it derives from).
  void mapped_kernels(products::HostSet& h) {
    for (unsigned i = 0; i < count_; ++i)
      kernels::mmm<<<grid(), block(), 0, streams_[i]>>>(h.a[i]->device_pointer(), h.b[i]->device_pointer(),
                                                         h.c[i]->device_pointer(), n_);
  }

  /// Poisons every C, runs `work` once inside range `path` between events, then checks
  /// every product on the host.
  template <typename Work>
  void variant(const std::string& path, products::HostSet& h, Work&& work, bool download_after = false) {
    if (!run_.selected(path)) return;
    h.poison();
    for (auto& c : c_) c->poison();
    CUDA_CHECK(cudaDeviceSynchronize());
    double ms = 0;
    {
      NvtxPath range(path);
      ms = event_ms(work);
    }
    if (download_after)
      for (unsigned i = 0; i < count_; ++i)
        CUDA_CHECK(cudaMemcpy(h.c[i]->get(), c_[i]->get(), bytes(), cudaMemcpyDeviceToHost));
    bool right = true;
    for (unsigned i = 0; i < count_ && right; ++i)
      right = products::product_is_right(h.a[i]->get(), h.b[i]->get(), h.c[i]->get(), n_, run_.opt.seed + i);
    char detail[64];
    std::snprintf(detail, sizeof detail, "%u products, n = %u", count_, n_);
    run_.add({path, ms, detail, right});
  }

  Run& run_;
  unsigned n_, count_;
  std::vector<std::unique_ptr<DeviceBuffer<double>>> a_, b_, c_;
  Streams streams_;
};

}  // namespace labbook::lab
