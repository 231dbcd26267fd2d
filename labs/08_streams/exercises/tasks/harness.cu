// The lab8-tasks harness: owns main and calls the student's host code, run_tasks, on a list of
// tasks in page-locked memory: each task's `words` input words must go to the GPU, be processed
// by the harness's process_words (lab 8's affineRounds, kRounds rounds: on the H100 a little
// longer than one of the task's copies, so that hiding the copies behind kernels takes the tasks
// about half the time) and come back. Every task has page-locked arrays of its own, so that no
// single copy can carry several tasks. Fresh random words in every call (drawn one task after the other); the outputs
// poisoned (all bits set). Two checks with odd sizes, three timed calls of 12 tasks of 2^21
// words (8 MiB each way each), each beside the same tasks on one stream (lab 8's
// pipeline/streams=1), and a last check. Every output goes to labbook, which checks it word for
// word; the inputs are compared with a private copy here. See exercise_harness.h.
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
void run_tasks(const std::uint32_t* const* in, std::uint32_t* const* out, std::size_t words, int count);

namespace {

using labbook::lab::ExerciseHarness;

/// Rounds of lab 8's affine map per word: exercise.toml's [check] constants, which labbook
/// checks with.
constexpr std::uint32_t kRounds = 1024;

}  // namespace

/// The work, for the student's host code to launch: out = kRounds affine rounds of in, n words
/// of device memory, on `stream`, asynchronously.
extern "C" void process_words(const std::uint32_t* in, std::uint32_t* out, std::size_t n, cudaStream_t stream) {
  labbook::lab::launch_affine_rounds(in, out, n, kRounds, stream);
}

namespace {

/// Every task's input and output: page-locked arrays of `words` words each, apart.
struct TaskMemory {
  std::vector<std::uint32_t*> in, out;
  TaskMemory(std::size_t words, int tasks) : in(tasks), out(tasks) {
    for (int t = 0; t < tasks; ++t) {
      CUDA_CHECK(cudaMallocHost(&in[t], words * sizeof(std::uint32_t)));
      CUDA_CHECK(cudaMallocHost(&out[t], words * sizeof(std::uint32_t)));
    }
  }
  ~TaskMemory() {
    for (auto* p : in) cudaFreeHost(p);
    for (auto* p : out) cudaFreeHost(p);
  }
  TaskMemory(const TaskMemory&) = delete;
  TaskMemory& operator=(const TaskMemory&) = delete;
  /// Fresh input drawn from `seed` for the first `count` tasks of `words`, one task after the
  /// other, the outputs poisoned. Returns the input.
  std::vector<std::uint32_t> fill(std::uint64_t seed, std::size_t words, int count) {
    std::vector<std::uint32_t> input = labbook::lab::affine_rounds_input(seed, words * count);
    for (int t = 0; t < count; ++t) {
      std::memcpy(in[t], input.data() + t * words, words * sizeof(std::uint32_t));
      std::memset(out[t], 0xFF, words * sizeof(std::uint32_t));
    }
    return input;
  }
};

std::string tasks_name(std::size_t words, int count) { return std::to_string(count) + "x" + std::to_string(words); }

void student_call(ExerciseHarness& h, TaskMemory& m, const std::string& range, std::size_t words, int count) {
  const std::uint64_t seed = h.next_seed();
  const std::vector<std::uint32_t> input = m.fill(seed, words, count);
  // The student gets copies of the pointer lists: the harness reads the arrays it allocated.
  const std::vector<const std::uint32_t*> in(m.in.begin(), m.in.begin() + count);
  const std::vector<std::uint32_t*> out(m.out.begin(), m.out.begin() + count);
  const std::string what = h.next_student_call({words * count});
  h.call(range, what, [&] { run_tasks(in.data(), out.data(), words, count); });
  std::vector<float> got(words * count);   // words travel as the records' 4-byte elements, bits unchanged
  for (int t = 0; t < count; ++t) std::memcpy(got.data() + t * words, m.out[t], words * sizeof(float));
  h.output(seed, {words * count}, got, [&] { return labbook::lab::check_affine_rounds(input, kRounds, got.data()); });
  for (int t = 0; t < count; ++t)
    if (std::memcmp(m.in[t], input.data() + t * words, words * sizeof(std::uint32_t)) != 0) {
      h.wrong(what + ": the input of task " + std::to_string(t) + " changed (the inputs are read-only)");
      break;
    }
}

/// The same tasks on one stream (lab 8's pipeline/streams=1), on data of their own: each task's
/// upload, kernel and download in turn.
void reference_call(ExerciseHarness& h, TaskMemory& m, labbook::lab::DeviceBuffer<std::uint32_t>& in_dev,
                    labbook::lab::DeviceBuffer<std::uint32_t>& out_dev, const std::string& range, std::size_t words,
                    int count) {
  m.fill(h.next_seed(), words, count);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  h.call(range, "the reference (one stream)", [&] {
    for (int t = 0; t < count; ++t) {
      const std::size_t first = t * words, bytes = words * sizeof(std::uint32_t);
      CUDA_CHECK(cudaMemcpyAsync(in_dev.get() + first, m.in[t], bytes, cudaMemcpyHostToDevice, stream));
      process_words(in_dev.get() + first, out_dev.get() + first, words, stream);
      CUDA_CHECK(cudaMemcpyAsync(m.out[t], out_dev.get() + first, bytes, cudaMemcpyDeviceToHost, stream));
    }
  });
  cudaStreamDestroy(stream);
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  constexpr std::size_t kWords = std::size_t{1} << 21;   // 8 MiB a task, each way
  constexpr int kTasks = 12;
  TaskMemory memory(kWords, kTasks);
  student_call(h, memory, "student/tasks=" + tasks_name(100003, 3), 100003, 3);
  student_call(h, memory, "student/tasks=" + tasks_name(300007, 5), 300007, 5);
  {
    labbook::lab::DeviceBuffer<std::uint32_t> in_dev(kWords * kTasks), out_dev(kWords * kTasks);
    for (int i = 1; i <= 3; ++i) {
      student_call(h, memory, "student/tasks=" + tasks_name(kWords, kTasks) + "/" + std::to_string(i), kWords, kTasks);
      reference_call(h, memory, in_dev, out_dev, "reference/tasks=" + tasks_name(kWords, kTasks) + "/" + std::to_string(i),
                     kWords, kTasks);
    }
  }
  student_call(h, memory, "student/tasks=" + tasks_name(99991, 2), 99991, 2);   // still right after the timed calls
  return h.finish();
}
