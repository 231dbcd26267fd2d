// The lab2-pipeline harness: owns main and calls the student's host code, run(in, out, n),
// which must bring out[i] = process(in[i]) back from the GPU, the work done by the harness's
// process_words (lab 8's affineRounds, kRounds rounds: a few microseconds of kernel per
// million words, so that the copies are the whole cost, as in lab 2). The host memory for
// `in` and `out` comes from the student's host_alloc, outside the timed calls: choosing it is
// the first half of the exercise. Fresh random words in every call; `out` poisoned (all bits
// set) before the call. Two checks at odd sizes, seven rounds of a link call (the input's size
// copied each way between page-locked memory and the GPU, one direction at a time: the link's
// bandwidth in this run), a timed call of 2^24 words (64 MiB each way) and the lab's best
// pipeline (page-locked buffers, the array in 8 chunks over 4 streams: lab 2's
// mmm-streamed-and-pinned), and a last check. Every output goes to labbook, which checks it
// word for word; the input is compared with a private copy here. See exercise_harness.h.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "affine_work.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "exercise_harness.h"

// The student's code (submission.cu).
std::uint32_t* host_alloc(std::size_t n);
void host_free(std::uint32_t* p);
void run(const std::uint32_t* in, std::uint32_t* out, std::size_t n);

namespace {

using labbook::lab::ExerciseHarness;

/// Rounds of lab 8's affine map per word: exercise.toml's [check] constants, which labbook
/// checks with.
constexpr std::uint32_t kRounds = 16;

}  // namespace

/// The work, for the student's host code to launch: out = kRounds affine rounds of in, n words
/// of device memory, on `stream`, asynchronously.
extern "C" void process_words(const std::uint32_t* in, std::uint32_t* out, std::size_t n, cudaStream_t stream) {
  labbook::lab::launch_affine_rounds(in, out, n, kRounds, stream);
}

namespace {

std::vector<float> as_floats(const std::uint32_t* words, std::size_t n) {
  std::vector<float> out(n);   // words travel as the records' 4-byte elements, bits unchanged
  std::memcpy(out.data(), words, n * sizeof(std::uint32_t));
  return out;
}

void student_call(ExerciseHarness& h, const std::string& range, std::size_t n) {
  const std::uint64_t seed = h.next_seed();
  const std::vector<std::uint32_t> input = labbook::lab::affine_rounds_input(seed, n);
  std::uint32_t* in = host_alloc(n);
  std::uint32_t* out = host_alloc(n);
  const std::string what = h.next_student_call({n});
  if (!in || !out) h.ok(cudaErrorMemoryAllocation, what + ": host_alloc returned a null pointer");
  std::memcpy(in, input.data(), n * sizeof(std::uint32_t));
  std::memset(out, 0xFF, n * sizeof(std::uint32_t));
  h.call(range, what, [&] { run(in, out, n); });
  const std::vector<float> got = as_floats(out, n);
  h.output(seed, {n}, got, [&] { return labbook::lab::check_affine_rounds(input, kRounds, got.data()); });
  if (std::memcmp(in, input.data(), n * sizeof(std::uint32_t)) != 0)
    h.wrong(what + ": the input changed (it is read-only)");
  host_free(in);
  host_free(out);
}

/// The harness's own page-locked buffers and device arrays for the link and reference calls.
struct Pinned {
  std::uint32_t* in = nullptr;
  std::uint32_t* out = nullptr;
  labbook::lab::DeviceBuffer<std::uint32_t> in_dev, out_dev;
  explicit Pinned(std::size_t n) : in_dev(n), out_dev(n) {
    CUDA_CHECK(cudaMallocHost(&in, n * sizeof(std::uint32_t)));
    CUDA_CHECK(cudaMallocHost(&out, n * sizeof(std::uint32_t)));
    std::memset(out, 0, n * sizeof(std::uint32_t));
  }
  ~Pinned() {
    cudaFreeHost(in);
    cudaFreeHost(out);
  }
};

/// The link alone: the input's size up, then down, page-locked, one direction at a time.
void link_call(ExerciseHarness& h, Pinned& p, const std::string& range, std::size_t n) {
  const std::vector<std::uint32_t> input = labbook::lab::affine_rounds_input(h.next_seed(), n);
  std::memcpy(p.in, input.data(), n * sizeof(std::uint32_t));
  h.call(range, "the link's own copies", [&] {
    CUDA_CHECK(cudaMemcpy(p.in_dev.get(), p.in, n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p.out, p.in_dev.get(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  });
}

/// Lab 2's best pipeline on data of its own: page-locked buffers, 8 chunks over 4 streams, each
/// chunk's upload, kernel and download on its stream.
void reference_call(ExerciseHarness& h, Pinned& p, const std::string& range, std::size_t n) {
  const std::vector<std::uint32_t> input = labbook::lab::affine_rounds_input(h.next_seed(), n);
  std::memcpy(p.in, input.data(), n * sizeof(std::uint32_t));
  constexpr int kStreams = 4, kChunks = 8;
  cudaStream_t streams[kStreams];
  for (auto& s : streams) CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  h.call(range, "the reference pipeline", [&] {
    const std::size_t chunk = (n + kChunks - 1) / kChunks;
    for (int c = 0; c < kChunks; ++c) {
      const std::size_t first = c * chunk, count = first + chunk <= n ? chunk : n - first;
      const cudaStream_t s = streams[c % kStreams];
      const std::size_t bytes = count * sizeof(std::uint32_t);
      CUDA_CHECK(cudaMemcpyAsync(p.in_dev.get() + first, p.in + first, bytes, cudaMemcpyHostToDevice, s));
      process_words(p.in_dev.get() + first, p.out_dev.get() + first, count, s);
      CUDA_CHECK(cudaMemcpyAsync(p.out + first, p.out_dev.get() + first, bytes, cudaMemcpyDeviceToHost, s));
    }
  });
  for (auto& s : streams) cudaStreamDestroy(s);
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  constexpr std::size_t kTimed = std::size_t{1} << 24;   // 64 MiB each way
  constexpr int kTimedRounds = 7;
  student_call(h, "student/n=1000003", 1000003);
  student_call(h, "student/n=4194321", 4194321);
  {
    Pinned pinned(kTimed);
    // Seven rounds: with three, the median of a serial call moved by 5 points of 100 between two
    // gradings of one class on the H200.
    for (int i = 1; i <= kTimedRounds; ++i) {
      link_call(h, pinned, "link/" + std::to_string(i), kTimed);
      student_call(h, "student/n=16777216/" + std::to_string(i), kTimed);
      reference_call(h, pinned, "reference/n=16777216/" + std::to_string(i), kTimed);
    }
  }
  student_call(h, "student/n=999999", 999999);   // still right after the timed calls
  return h.finish();
}
