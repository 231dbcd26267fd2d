// The lab6-tiled harness: owns main and launches the student's matmul_tiled as lab 6 launches
// 001's kernels (16 x 16 threads per block, one block per 16 x 16 tile of C) on fresh random
// matrices: two checks at shapes where none of m, k, n is a multiple of 16, three timed calls
// on lab 6's rectangular product (A 1024 x 2048 times B 2048 x 512), each beside lab 6's own
// tiled kernel (MatMulSharedKernel<float>) on matrices of its own, and a last check after them.
// Every call's output goes to labbook, which checks it against a double-precision product
// within the rubric's tolerance; the inputs are compared with private copies here. The timed
// shape is lab 6's smallest timed product: its check is a 1e9 multiply-add product on the host,
// once per call, and its output (2 MiB) is what every timed call sends. See exercise_harness.h.
#include <cstdint>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "exercise_harness.h"
#include "matmul.cuh"

// The student's kernel (submission.cu): C (m x n) = A (m x k) B (k x n), row-major.
__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n);

namespace {

using labbook::lab::ExerciseHarness;
namespace kern = labbook::kernels;

/// One call's matrices: A and B drawn from `seed` (kept on the host as the private copies),
/// uploaded, then C poisoned; the student's calls and the reference's are set up alike, so
/// both start with L2 in the same state.
struct Product {
  unsigned m, k, n;
  labbook::lab::MatmulInputs host;
  labbook::lab::DeviceBuffer<float> a, b, c;
  Product(std::uint64_t seed, unsigned m_, unsigned k_, unsigned n_)
      : m(m_), k(k_), n(n_), host(labbook::lab::matmul_inputs(seed, m_, k_, n_)), a(host.a.size()), b(host.b.size()),
        c(static_cast<std::size_t>(m_) * n_) {
    a.upload(host.a);
    b.upload(host.b);
    c.poison();
  }
  // 001's launch: 16 x 16 threads, a block per tile of C, the grid rounded up at the edges.
  dim3 block() const { return dim3(kern::kBlockSize, kern::kBlockSize); }
  dim3 grid() const { return dim3(kern::tiles(static_cast<int>(n)), kern::tiles(static_cast<int>(m))); }
};

/// "m=1000,k=777,n=555": lab 6's name for a shape (its experiments' last path part).
std::string shape_name(unsigned m, unsigned k, unsigned n) {
  return "m=" + std::to_string(m) + ",k=" + std::to_string(k) + ",n=" + std::to_string(n);
}

void student_call(ExerciseHarness& h, const std::string& range, unsigned m, unsigned k, unsigned n) {
  const std::uint64_t seed = h.next_seed();
  Product p(seed, m, k, n);
  const std::string what = h.next_student_call({m, k, n});
  h.call(range, what, [&] { matmul_tiled<<<p.grid(), p.block()>>>(p.a.get(), p.b.get(), p.c.get(), m, k, n); });
  std::vector<float> got;
  p.c.download(got);
  h.output(seed, {m, k, n}, got, [&] { return labbook::lab::check_matmul(p.host, m, k, n, got.data(), h.tolerance()); });
  std::vector<float> input;
  for (int which = 0; which < 2; ++which) {
    (which == 0 ? p.a : p.b).download(input);
    if (const auto i = labbook::lab::first_changed(input, which == 0 ? p.host.a : p.host.b)) {
      h.wrong(what + ": the input " + (which == 0 ? "A" : "B") + " changed at element " + std::to_string(*i) +
              " (the inputs are read-only)");
      return;
    }
  }
}

/// Lab 6's tiled kernel (001's shared-memory MatMulKernel, with the guards of matmul.cuh) on
/// matrices of its own, timed as the student's calls are.
void reference_call(ExerciseHarness& h, const std::string& range, unsigned m, unsigned k, unsigned n) {
  Product p(h.next_seed(), m, k, n);
  // The sources' Matrix descriptors {width, height, stride, elements}: whole matrices.
  const kern::Matrix<float> A{static_cast<int>(k), static_cast<int>(m), static_cast<int>(k), p.a.get()};
  const kern::Matrix<float> B{static_cast<int>(n), static_cast<int>(k), static_cast<int>(n), p.b.get()};
  const kern::Matrix<float> C{static_cast<int>(n), static_cast<int>(m), static_cast<int>(n), p.c.get()};
  h.call(range, "the reference kernel", [&] { kern::MatMulSharedKernel<float><<<p.grid(), p.block()>>>(A, B, C); });
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  const auto call = [&](unsigned m, unsigned k, unsigned n) { student_call(h, "student/" + shape_name(m, k, n), m, k, n); };
  call(1000, 777, 555);    // 1000 = 62 x 16 + 8, 777 = 48 x 16 + 9, 555 = 34 x 16 + 11
  call(31, 2053, 1025);    // two block rows, a last block column one wide, a last K tile of 5
  for (int i = 1; i <= 3; ++i) {   // lab 6's rectangular product: A read 512 / 16 = 32 times, B 1024 / 16 = 64 times
    const std::string timed = shape_name(1024, 2048, 512) + "/" + std::to_string(i);
    student_call(h, "student/" + timed, 1024, 2048, 512);
    reference_call(h, "reference/" + timed, 1024, 2048, 512);
  }
  call(555, 1003, 1000);   // still right after the timed calls
  return h.finish();
}
