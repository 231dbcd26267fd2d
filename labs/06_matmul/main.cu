// Lab 6 — matrix multiplication: the classic kernel against shared-memory tiles, and cuBLAS.
//
// Runs the two kernels of 001_a3a2ccee8305185b.txt (« Mnożenie macierzy », BLOCK_SIZE 16, a
// Matrix of width, height, stride and elements with GetElement, SetElement, GetSubMatrix),
// which 004_12112d3317679e06.txt writes in double (mmm-ab.cu, mmm.cu), in float and double at
// four shapes: the main square size, a square size that is not a multiple of 16, a rectangular
// product (A.height, A.width and B.width all different, so that the two re-read factors of 001
// differ) and a large size whose matrices do not fit in L2. cuBLAS's SGEMM and DGEMM on the same
// data are the ceiling. Every experiment is one NVTX range "<kernel>/<precision>/<shape>", e.g.
// "tiled/double/n=1000" or "naive/float/m=1024,k=2048,n=512"; every product is compared,
// element by element and exactly, with the host's (the inputs are small integers, so every
// sum is exact in float and double whatever the order of the additions).
//
//   lab6_matmul [--n N] [--odd N] [--large N] [--repeat R] [--only TEXT] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "arguments.h"
#include "cublas_product.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "experiment_log.h"
#include "host_product.h"
#include "kernel_timer.h"
#include "matmul.cuh"
#include "nvtx_range.h"
#include "parallel_check.h"
#include "random_data.h"

namespace {

using labbook::lab::DeviceBuffer;
namespace k = labbook::kernels;

struct Options {
  int n = 2048;             // the main square size
  int odd = 1000;           // a square size that is not a multiple of BLOCK_SIZE
  int large = 4096;         // 64 MiB (float) to 128 MiB (double) per matrix: beyond the H100's 50 MB L2 (0: skip)
  int repeat = 4;           // timed launches after the first (checked) one
  std::string only;         // run only experiments whose range path contains this
  std::uint64_t seed = 6;
};

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab6_matmul",
                               "[--n N] [--odd N] [--large N] [--repeat R] [--only TEXT] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--n") o.n = args.number<int>(16, 8192);
    else if (args.flag() == "--odd") o.odd = args.number<int>(17, 8191);
    else if (args.flag() == "--large") o.large = args.number<int>(0, 8192);
    else if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  if (o.n % k::kBlockSize || o.large % k::kBlockSize) args.fail("--n and --large must be multiples of 16 (BLOCK_SIZE)");
  if (o.odd % k::kBlockSize == 0) args.fail("--odd must not be a multiple of 16: it is the size the sources' kernels do not cover");
  return o;
}

/// C (m x n) = A (m x k) B (k x n), named as its NVTX range part.
struct Shape {
  std::string name;
  int m, n, k;
};

Shape square(int n) { return {"n=" + std::to_string(n), n, n, n}; }

/// The three ways to compute the product, by their range names.
enum class Method { Naive, Tiled, Cublas };
constexpr Method kMethods[] = {Method::Naive, Method::Tiled, Method::Cublas};
const char* name_of(Method method) {
  static const char* names[] = {"naive", "tiled", "cublas"};
  return names[static_cast<int>(method)];
}

template <typename T>
const char* precision_name();
template <>
const char* precision_name<float>() { return "float"; }
template <>
const char* precision_name<double>() { return "double"; }

/// One shape's inputs as small integers and the host's product of them.
struct HostProduct {
  Shape shape;
  std::vector<std::int32_t> a, b, c;
  HostProduct(const Shape& s, std::uint64_t seed) : shape(s) {
    labbook::lab::SmallIntegers rng(seed);
    a.resize(static_cast<std::size_t>(s.m) * s.k);
    b.resize(static_cast<std::size_t>(s.k) * s.n);
    for (auto& v : a) v = rng.next();
    for (auto& v : b) v = rng.next();
    c = labbook::lab::host_product(a, b, s.m, s.n, s.k);
  }
};

/// The same inputs on the GPU in one precision, and the product's matrix.
template <typename T>
struct DeviceProduct {
  explicit DeviceProduct(const HostProduct& h)
      : a(h.a.size()), b(h.b.size()), c(h.c.size()) {
    a.upload(std::vector<T>(h.a.begin(), h.a.end()));
    b.upload(std::vector<T>(h.b.begin(), h.b.end()));
  }
  DeviceBuffer<T> a, b, c;
  std::vector<T> result;
};

class Lab {
 public:
  explicit Lab(const Options& o) : opt_(o), log_(o.only, 1 + o.repeat) {}

  /// Every method in both precisions on `shape`, if any of them is selected.
  void run(const Shape& shape, std::uint64_t seed) {
    bool any = false;
    for (const char* precision : {"float", "double"})
      for (Method method : kMethods) any = any || log_.selected(path(method, precision, shape));
    if (!any) return;
    const HostProduct host(shape, seed);
    run_precision<float>(host);
    run_precision<double>(host);
  }

  int report() const { return log_.report(); }

 private:
  static std::string path(Method method, const char* precision, const Shape& shape) {
    return std::string(name_of(method)) + "/" + precision + "/" + shape.name;
  }

  template <typename T>
  void run_precision(const HostProduct& host) {
    DeviceProduct<T> d(host);
    const Shape& s = host.shape;
    // The sources' Matrix descriptors: whole matrices, stride = width.
    const k::Matrix<T> A{s.k, s.m, s.k, d.a.get()}, B{s.n, s.k, s.n, d.b.get()};
    k::Matrix<T> C{s.n, s.m, s.n, d.c.get()};
    // 001's launch (dimBlock(BLOCK_SIZE, BLOCK_SIZE), one thread per element of C), with the
    // grid rounded up where the sides are not multiples of BLOCK_SIZE.
    const dim3 block(k::kBlockSize, k::kBlockSize), grid(k::tiles(s.n), k::tiles(s.m));
    for (Method method : kMethods) {
      const std::string p = path(method, precision_name<T>(), s);
      if (!log_.selected(p)) continue;
      measure(p, host, d, [&] {
        switch (method) {
          case Method::Naive: k::MatMulKernel<T><<<grid, block>>>(A, B, C); break;
          case Method::Tiled: k::MatMulSharedKernel<T><<<grid, block>>>(A, B, C); break;
          case Method::Cublas: labbook::lab::cublas_product(cublas_.get(), A, B, C); break;
        }
      });
    }
  }

  // Poisoned product (NaN everywhere), one checked launch plus `repeat` timed ones inside the
  // experiment's NVTX ranges, then every element compared with the host's.
  template <typename T, typename Launch>
  void measure(const std::string& path, const HostProduct& host, DeviceProduct<T>& d, Launch&& launch) {
    d.c.poison();
    float ms = 0;
    {
      labbook::lab::NvtxPath range(path);
      ms = labbook::lab::median_kernel_ms(1 + opt_.repeat, launch);
    }
    d.c.download(d.result);
    const std::size_t wrong = labbook::lab::first_wrong(d.result.size(), [&](std::size_t i) {
      return d.result[i] == static_cast<T>(host.c[i]);   // NaN (not written) compares unequal
    });
    const bool correct = wrong == d.result.size();
    if (!correct)
      std::fprintf(stderr, "%s: C(%zu, %zu) is %g, expected %d\n", path.c_str(), wrong / host.shape.n,
                   wrong % host.shape.n, static_cast<double>(d.result[wrong]), host.c[wrong]);
    log_.record(path, ms, correct);
  }

  Options opt_;
  labbook::lab::ExperimentLog log_;
  labbook::lab::CublasHandle cublas_;
};

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  std::printf("lab 6 on %s (CC %d.%d, %d SMs, %d MB L2), BLOCK_SIZE %d, %d launches per experiment\n", prop.name,
              prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize >> 20, k::kBlockSize, 1 + opt.repeat);
  Lab lab(opt);
  lab.run(square(opt.n), opt.seed);
  lab.run(square(opt.odd), opt.seed + 1);
  lab.run({"m=1024,k=2048,n=512", 1024, 512, 2048}, opt.seed + 2);   // A read 512/16 = 32 times, B 1024/16 = 64 times
  if (opt.large) lab.run(square(opt.large), opt.seed + 3);
  return lab.report();
}
