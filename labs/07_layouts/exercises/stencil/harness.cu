// The lab7-stencil harness: owns main and launches the student's stencil5 (32 x 8 threads, a
// warp along a row: lab 7's stencil_grid by rows) on fresh images in pitched memory from
// cudaMallocPitch, the padding at the end of every input row a NaN: two checks at sizes
// that are not multiples of the block, three timed calls on lab 7's 1001 x 8191 image, each
// beside lab 7's stencilGlobal by rows on an image of its own, and a last check after them.
// Every width is odd, so width * 4 bytes is no multiple of 8 and the pitch differs from
// width * 4 whatever the GPU's alignment: a kernel that ignores the pitch reads the wrong rows.
// Each output goes to labbook packed (the rows without their padding), which checks it
// pixel for pixel; the input is compared with its private copy here. See exercise_harness.h.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "exercise_harness.h"
#include "layouts.cuh"

// The student's kernel (submission.cu).
__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0, float c1);

namespace {

using labbook::lab::ExerciseHarness;
namespace k = labbook::kernels;

// The weights: exercise.toml's [check] constants, which labbook checks with. Powers of two, so
// that every result of the whole-number pixels is exact in float (exercise_checks.h).
constexpr float kCentre = 0.5f, kNeighbour = 0.125f;

/// The input's padding: a quiet NaN that is not the output's poison (0xFFFFFFFF), so that a
/// value read from the padding and written out, as it is or through arithmetic (which gives
/// the GPU's own NaN), is never taken for a pixel left unwritten.
constexpr std::uint32_t kPaddingBits = 0x7FC0FFEEu;

/// `height` rows of `width` floats from cudaMallocPitch, every byte (the padding too) 0xFF,
/// the poison: in the output it shows which pixels were never written.
class PitchedImage {
 public:
  PitchedImage(unsigned width, unsigned height) : width_(width), height_(height) {
    CUDA_CHECK(cudaMallocPitch(&data_, &pitch_, row_bytes(), height_));
    CUDA_CHECK(cudaMemset2D(data_, pitch_, 0xFF, pitch_, height_));
  }
  ~PitchedImage() { cudaFree(data_); }
  PitchedImage(const PitchedImage&) = delete;
  PitchedImage& operator=(const PitchedImage&) = delete;

  float* get() const { return static_cast<float*>(data_); }
  std::size_t pitch() const { return pitch_; }
  std::size_t row_bytes() const { return std::size_t{width_} * sizeof(float); }
  /// The packed rows of `host` into the pitched rows, the padding of every row kPaddingBits:
  /// whole rows of `pitch` bytes, so a read that lands in the padding shows in the results.
  void upload(const std::vector<float>& host) {
    float padding;
    std::memcpy(&padding, &kPaddingBits, sizeof padding);
    const std::size_t row_floats = pitch_ / sizeof(float);   // the pitch is a whole number of floats
    std::vector<float> rows(row_floats * height_, padding);
    for (std::size_t y = 0; y < height_; ++y)
      std::memcpy(&rows[y * row_floats], &host[y * width_], row_bytes());
    CUDA_CHECK(cudaMemcpy(data_, rows.data(), pitch_ * height_, cudaMemcpyHostToDevice));
  }
  /// The rows without their padding, packed: what labbook checks.
  void download(std::vector<float>& host) const {
    host.resize(std::size_t{width_} * height_);
    CUDA_CHECK(cudaMemcpy2D(host.data(), row_bytes(), data_, pitch_, row_bytes(), height_, cudaMemcpyDeviceToHost));
  }

 private:
  void* data_ = nullptr;
  std::size_t pitch_ = 0;
  unsigned width_, height_;
};

/// One call's images: a fresh input drawn from `seed` (kept on the host as the private copy)
/// and a poisoned output; the student's calls and the reference's are set up alike, so both
/// start with L2 in the same state.
struct Images {
  std::vector<float> host;
  PitchedImage in, out;
  Images(std::uint64_t seed, unsigned width, unsigned height)
      : host(labbook::lab::stencil_input(seed, width, height)), in(width, height), out(width, height) {
    in.upload(host);
  }
};

/// Lab 7's stencil launch by rows: 32 x 8 threads, one thread per pixel, a warp along a row.
dim3 block() { return dim3(k::kLayoutBlockX, k::kLayoutBlockY); }
dim3 grid(unsigned width, unsigned height) {
  const k::Pixel g = k::stencil_grid(false, width, height);
  return dim3(g.x, g.y);
}

std::string size_name(unsigned width, unsigned height) { return std::to_string(width) + "x" + std::to_string(height); }

void student_call(ExerciseHarness& h, const std::string& range, unsigned width, unsigned height) {
  const std::uint64_t seed = h.next_seed();
  Images im(seed, width, height);
  const std::string what = h.next_student_call({width, height});
  // Both images have rows of the same width, so cudaMallocPitch gave them the same pitch: the
  // kernel takes one.
  if (im.in.pitch() != im.out.pitch()) h.ok(cudaErrorInvalidPitchValue, "the harness (two images, two pitches)");
  h.call(range, what, [&] {
    stencil5<<<grid(width, height), block()>>>(im.in.get(), im.out.get(), im.in.pitch(), width, height, kCentre, kNeighbour);
  });
  std::vector<float> got, input;
  im.out.download(got);
  h.output(seed, {width, height}, got, [&] {
    return labbook::lab::check_stencil(im.host, width, height, kCentre, kNeighbour, got.data(), h.tolerance());
  });
  im.in.download(input);
  if (const auto i = labbook::lab::first_changed(input, im.host))
    h.wrong(what + ": the input changed at in[" + std::to_string(*i / width) + "][" + std::to_string(*i % width) +
            "] (the input is read-only)");
}

/// Lab 7's stencilGlobal by rows (stencil/global/rows: five clamped loads from the pitched
/// image, weights 1) on an image of its own, timed as the student's calls are.
void reference_call(ExerciseHarness& h, const std::string& range, unsigned width, unsigned height) {
  Images im(h.next_seed(), width, height);
  h.call(range, "the reference kernel", [&] {
    k::stencilGlobal<false>
        <<<grid(width, height), block()>>>(im.in.get(), im.in.pitch(), im.out.get(), im.out.pitch(), width, height);
  });
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  // Lab 7's image: 1001 floats (4004 bytes, pitch 4096 on the H100) by 8191 rows, 32 MB.
  constexpr unsigned kWidth = 1001, kHeight = 8191;
  student_call(h, "student/n=" + size_name(777, 555), 777, 555);
  student_call(h, "student/n=" + size_name(2053, 1021), 2053, 1021);
  for (int i = 1; i <= 3; ++i) {
    student_call(h, "student/n=" + size_name(kWidth, kHeight) + "/" + std::to_string(i), kWidth, kHeight);
    reference_call(h, "reference/n=" + size_name(kWidth, kHeight) + "/" + std::to_string(i), kWidth, kHeight);
  }
  student_call(h, "student/n=" + size_name(33, 2049), 33, 2049);   // still right after the timed calls
  return h.finish();
}
