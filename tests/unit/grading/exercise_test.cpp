// Exercises as lab data and the submissions folder: the shipped exercise loads, a broken one
// names file:line, and students are found as folders or files, in name order.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "exercise.h"
#include "exercise_checks.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/quantity.h"
#include "rubric.h"
#include "temp_dir.h"

using namespace labbook::grading;
namespace fs = std::filesystem;

namespace {
const std::string kLabs = std::string(LABBOOK_SOURCE_DIR) + "/labs";
}  // namespace

TEST(Exercise, TheShippedExerciseAndItsRubricLoad) {
  const Exercise e = find_exercise(kLabs, "lab4");
  EXPECT_EQ(e.id, "lab4-soa");
  EXPECT_EQ(find_exercise(kLabs, "lab4-soa").path, e.path);
  EXPECT_EQ(e.student_file, "submission.cu");
  EXPECT_TRUE(fs::exists(e.harness));
  EXPECT_EQ(load_rubric(e.rubric).exercise, e.id);
  EXPECT_THROW(find_exercise(kLabs, "lab9"), labbook::Error);
}

TEST(Exercise, EveryLabWithAnExerciseFindsItByTheLabsId) {
  for (const auto& [lab, id] : {std::pair{"lab1", "lab1-registers"}, std::pair{"lab3", "lab3-tile"}, std::pair{"lab4", "lab4-soa"},
                                 std::pair{"lab5", "lab5-transpose"}, std::pair{"lab6", "lab6-tiled"},
                                 std::pair{"lab7", "lab7-stencil"}, std::pair{"lab2", "lab2-pipeline"},
                                 std::pair{"lab8", "lab8-tasks"}}) {
    const Exercise e = find_exercise(kLabs, lab);
    EXPECT_EQ(e.id, id);
    EXPECT_EQ(e.lab, lab);
    const Rubric r = load_rubric(e.rubric);
    EXPECT_EQ(r.exercise, id);
    ASSERT_NE(r.correctness(), nullptr) << id;
    // The instructions name the file the student hands in, never the exercise's own starter.
    const std::string instructions = labbook::read_file(e.instructions);
    EXPECT_NE(instructions.find("`" + e.student_file + "`"), std::string::npos) << id;
    EXPECT_EQ(instructions.find("`" + fs::path(e.starter).filename().string() + "`"), std::string::npos) << id;
  }
}

TEST(Exercise, TheLocalArrayCheckIsExactAndNamesWhatIsWrong) {
  // Lab 1's exercise: each word is lab 1's local_array_result of the call's drawn inputs.
  const std::uint64_t seed = 42, n = 100;
  const auto inputs = labbook::lab::local_array_inputs(seed, n);
  EXPECT_EQ(labbook::lab::local_array_inputs(seed, n).start, inputs.start) << "drawn alike every time";
  std::vector<float> out(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t word = labbook::kernels::local_array_result(inputs.in[i], inputs.start[i]);
    std::memcpy(&out[i], &word, sizeof word);
  }
  EXPECT_EQ(labbook::lab::check_local_array(seed, n, out.data()), "");
  std::uint32_t off_by_one;
  std::memcpy(&off_by_one, &out[7], sizeof off_by_one);
  ++off_by_one;
  std::memcpy(&out[7], &off_by_one, sizeof off_by_one);
  EXPECT_EQ(labbook::lab::check_local_array(seed, n, out.data()).rfind("out[7] is " + std::to_string(off_by_one) + ", expected ", 0), 0u);
  const std::uint32_t poison = 0xFFFFFFFFu;
  std::memcpy(&out[7], &poison, sizeof poison);
  EXPECT_NE(labbook::lab::check_local_array(seed, n, out.data()).find("out[7] is never written"), std::string::npos);
}

// Lab 7's exercise (lab7-stencil): the stencil5 check kind.

TEST(Exercise, TheStencilCheckIsExactClampsTheBorderAndNamesWhatIsWrong) {
  // out[y][x] = c0 * in[y][x] + c1 * (left + right + up + down), a neighbour outside the image
  // taking the value of the nearest pixel inside it; whole-number pixels, weights 0.5 and 0.125.
  const std::uint64_t seed = 42, width = 7, height = 5;
  const auto in = labbook::lab::stencil_input(seed, width, height);
  EXPECT_EQ(labbook::lab::stencil_input(seed, width, height), in) << "drawn alike every time";
  const auto pixel = [&](long x, long y) {
    x = std::clamp(x, 0L, static_cast<long>(width) - 1);
    y = std::clamp(y, 0L, static_cast<long>(height) - 1);
    return in[static_cast<std::uint64_t>(y) * width + static_cast<std::uint64_t>(x)];
  };
  std::vector<float> out(width * height), reordered(width * height);
  for (long y = 0; y < static_cast<long>(height); ++y)
    for (long x = 0; x < static_cast<long>(width); ++x) {
      const std::uint64_t i = static_cast<std::uint64_t>(y) * width + static_cast<std::uint64_t>(x);
      out[i] = 0.5f * pixel(x, y) + 0.125f * (pixel(x - 1, y) + pixel(x + 1, y) + pixel(x, y - 1) + pixel(x, y + 1));
      // Another order, fused, in float: the same bits, whole numbers times powers of two.
      reordered[i] = std::fma(0.125f, pixel(x, y + 1) + (pixel(x, y - 1) + (pixel(x + 1, y) + pixel(x - 1, y))),
                              pixel(x, y) * 0.5f);
    }
  const labbook::lab::Tolerance exact;
  const auto check = [&](const std::vector<float>& got) {
    return labbook::lab::check_stencil(seed, width, height, 0.5, 0.125, got.data(), exact);
  };
  EXPECT_EQ(check(out), "");
  EXPECT_EQ(check(reordered), "");
  // The corner's left and upper neighbours are the corner itself.
  EXPECT_EQ(out[0], 0.5f * in[0] + 0.125f * (in[0] + in[1] + in[0] + in[width]));

  // Zero outside the image instead of the nearest pixel, on the left border: named a border pixel.
  const std::uint64_t left = 2 * width;
  ASSERT_NE(in[left], 0.0f);
  auto wrong = out;
  wrong[left] -= 0.125f * in[left];
  EXPECT_EQ(check(wrong).rfind("out[2][0] is ", 0), 0u) << check(wrong);
  EXPECT_NE(check(wrong).find("on the image's border"), std::string::npos) << check(wrong);
  // An interior pixel an eighth off: no tolerance, and nothing said about the border.
  wrong = out;
  wrong[2 * width + 3] += 0.125f;
  EXPECT_EQ(check(wrong).rfind("out[2][3] is ", 0), 0u) << check(wrong);
  EXPECT_EQ(check(wrong).find("border"), std::string::npos) << check(wrong);
  // A NaN the kernel computed, from the NaN padding it read: explained.
  wrong = out;
  wrong[2 * width + 3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NE(check(wrong).find("read the padding at the end of an input row"), std::string::npos) << check(wrong);
  // The poison, left on the border: never written.
  const std::uint32_t poison = 0xFFFFFFFFu;
  wrong = out;
  std::memcpy(&wrong[0], &poison, sizeof poison);
  EXPECT_NE(check(wrong).find("out[0][0] is never written"), std::string::npos) << check(wrong);
}

TEST(Exercise, LabSevensExerciseChecksAStencilWithTwoWeights) {
  const Exercise e = find_exercise(kLabs, "lab7-stencil");
  EXPECT_EQ(e.lab, "lab7");
  EXPECT_EQ(e.check.kind, "stencil5");
  EXPECT_EQ(e.check.constants, (std::vector<double>{0.5, 0.125}));
  ASSERT_FALSE(e.check.calls.empty());
  EXPECT_EQ(e.check.calls.front().size(), 2u) << "[width, height]";
  EXPECT_EQ(e.check.output_floats({1001, 8191}), 1001u * 8191u) << "the packed pixels, no padding";
  EXPECT_EQ(load_rubric(e.rubric).exercise, e.id);

  // A stencil5 check needs both weights.
  const labbook::test::TempDir scratch("labbook-exercise-test-stencil5");
  const fs::path dir = scratch.path();
  for (const char* f : {"starter.cu", "instructions.md", "harness.cu", "rubric.toml"}) std::ofstream(dir / f) << "\n";
  std::ofstream(dir / "exercise.toml")
      << "[exercise]\nid = \"x\"\ntitle = \"t\"\nlab = \"lab7\"\nstudent_file = \"s.cu\"\nstarter = \"starter.cu\"\n"
         "instructions = \"instructions.md\"\nharness = \"harness.cu\"\nrubric = \"rubric.toml\"\nmetrics = [\"duration\"]\n"
         "measured_range = \"s\"\nreference_range = \"r\"\nhost_calls = []\nentry_points = [\"stencil5\"]\n"
         "[check]\nkind = \"stencil5\"\nconstants = [0.5]\ncalls = [[7, 5]]\n";
  try {
    load_exercise((dir / "exercise.toml").string());
    FAIL() << "one weight must be an error";
  } catch (const labbook::Error& error) {
    EXPECT_NE(std::string(error.what()).find("'constants' must hold the stencil's two weights"), std::string::npos)
        << error.what();
  }
}

// Lab 6's exercise (lab6-tiled): the matmul check kind.

TEST(Exercise, TheMatmulCheckAllowsFloatRoundingOnlyAndNamesWhatIsWrong) {
  // C = A B, A (m x k) then B (k x n) drawn from the seed; each element within 1e-5 of the sum of
  // its terms' magnitudes of the double-precision product. Sizes not multiples of 16.
  const std::uint64_t seed = 42, m = 5, k = 37, n = 19;
  const auto in = labbook::lab::matmul_inputs(seed, m, k, n);
  EXPECT_EQ(labbook::lab::matmul_inputs(seed, m, k, n).b, in.b) << "drawn alike every time";
  // tf32: a float rounded to 10 bits after the point, as tensor cores read their inputs.
  const auto tf32 = [](float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & 0xFFFFE000u;
    std::memcpy(&x, &bits, sizeof bits);
    return x;
  };
  std::vector<float> fused(m * n), reversed(m * n), tensor(m * n);
  for (std::uint64_t i = 0; i < m; ++i)
    for (std::uint64_t j = 0; j < n; ++j) {
      float f = 0, r = 0, t = 0;
      for (std::uint64_t e = 0; e < k; ++e) f = std::fmaf(in.a[i * k + e], in.b[e * n + j], f);   // a thread's order
      for (std::uint64_t e = k; e-- > 0;) r += in.a[i * k + e] * in.b[e * n + j];             // the other way, unfused
      for (std::uint64_t e = 0; e < k; ++e) t = std::fmaf(tf32(in.a[i * k + e]), tf32(in.b[e * n + j]), t);
      fused[i * n + j] = f, reversed[i * n + j] = r, tensor[i * n + j] = t;
    }
  const labbook::lab::Tolerance rubric{0, 1e-5};   // lab6-tiled's rubric.toml
  const auto check = [&](const std::vector<float>& got, const labbook::lab::Tolerance& tolerance) {
    return labbook::lab::check_matmul(seed, m, k, n, got.data(), tolerance);
  };
  EXPECT_EQ(check(fused, rubric), "");
  EXPECT_EQ(check(reversed, rubric), "");
  EXPECT_NE(check(fused, labbook::lab::Tolerance{}), "") << "float sums are not the double product: a tolerance is needed";
  EXPECT_EQ(check(tensor, rubric).rfind("C[", 0), 0u) << "tf32 inputs are refused: " << check(tensor, rubric);

  // The last term of C[2][3] left out (one step short along k): named, with what was expected.
  auto wrong = fused;
  wrong[2 * n + 3] -= in.a[2 * k + k - 1] * in.b[(k - 1) * n + 3];
  EXPECT_EQ(check(wrong, rubric).rfind("C[2][3] is ", 0), 0u) << check(wrong, rubric);
  EXPECT_NE(check(wrong, rubric).find(", expected "), std::string::npos) << check(wrong, rubric);
  // The poison, left in the last element: never written.
  const std::uint32_t poison = 0xFFFFFFFFu;
  wrong = fused;
  std::memcpy(&wrong[m * n - 1], &poison, sizeof poison);
  EXPECT_EQ(check(wrong, rubric).rfind("C[4][18] is never written", 0), 0u) << check(wrong, rubric);
}

TEST(Exercise, LabSixsExerciseChecksAProductOfThreeSizes) {
  const Exercise e = find_exercise(kLabs, "lab6-tiled");
  EXPECT_EQ(e.lab, "lab6");
  EXPECT_EQ(e.check.kind, "matmul");
  ASSERT_FALSE(e.check.calls.empty());
  EXPECT_EQ(e.check.calls.front().size(), 3u) << "[m, k, n]";
  // C (m x n) is sent; A (m x k) and B (k x n) must be read once at least.
  EXPECT_EQ(e.check.output_floats({1000, 777, 555}), 1000u * 555u);
  EXPECT_EQ(e.check.compulsory_bytes({1000, 777, 555}), 1000.0 * 555 * 4);
  EXPECT_EQ(e.check.compulsory_read_bytes({1000, 777, 555}), (1000.0 * 777 + 777.0 * 555) * 4);
  const Rubric r = load_rubric(e.rubric);
  EXPECT_EQ(r.exercise, e.id);
  ASSERT_NE(r.correctness(), nullptr);
  EXPECT_GT(r.correctness()->relative_tolerance, 0) << "float sums in any order";

  // A matmul call has three sizes.
  const labbook::test::TempDir scratch("labbook-exercise-test-matmul");
  const fs::path dir = scratch.path();
  for (const char* f : {"starter.cu", "instructions.md", "harness.cu", "rubric.toml"}) std::ofstream(dir / f) << "\n";
  std::ofstream(dir / "exercise.toml")
      << "[exercise]\nid = \"x\"\ntitle = \"t\"\nlab = \"lab6\"\nstudent_file = \"s.cu\"\nstarter = \"starter.cu\"\n"
         "instructions = \"instructions.md\"\nharness = \"harness.cu\"\nrubric = \"rubric.toml\"\nmetrics = [\"duration\"]\n"
         "measured_range = \"s\"\nreference_range = \"r\"\nhost_calls = []\nentry_points = [\"matmul_tiled\"]\n"
         "[check]\nkind = \"matmul\"\ncalls = [[1000, 777]]\n";
  try {
    load_exercise((dir / "exercise.toml").string());
    FAIL() << "two sizes must be an error";
  } catch (const labbook::Error& error) {
    EXPECT_NE(std::string(error.what()).find("must have 3 numbers for a matmul check"), std::string::npos) << error.what();
  }
}

// Labs 2 and 8's exercises (lab2-pipeline, lab8-tasks): host code, the affine_rounds check kind.

TEST(Exercise, TheAffineRoundsCheckIsExactAndNamesWhatIsWrong) {
  const std::uint64_t seed = 7, n = 1000;
  const auto in = labbook::lab::affine_rounds_input(seed, n);
  EXPECT_EQ(labbook::lab::affine_rounds_input(seed, n), in) << "drawn alike every time";
  // Rounds applied one by one, as the kernel does, against the check's one-step power.
  std::vector<float> out(n);
  const auto f = labbook::kernels::round_map();
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint32_t x = in[i];
    for (int r = 0; r < 16; ++r) x = f(x);
    std::memcpy(&out[i], &x, sizeof x);
  }
  EXPECT_EQ(labbook::lab::check_affine_rounds(seed, n, 16, out.data()), "");
  EXPECT_NE(labbook::lab::check_affine_rounds(seed, n, 15, out.data()), "") << "one round short is wrong";
  const std::uint32_t poison = 0xFFFFFFFFu;
  std::memcpy(&out[n - 1], &poison, sizeof poison);
  EXPECT_NE(labbook::lab::check_affine_rounds(seed, n, 16, out.data()).find("out[999] is never written"), std::string::npos)
      << labbook::lab::check_affine_rounds(seed, n, 16, out.data());
  // A task list checks as one array: its tasks' words are drawn one task after the other.
  const auto two_tasks = labbook::lab::affine_rounds_input(seed, 2 * n);
  EXPECT_TRUE(std::equal(in.begin(), in.end(), two_tasks.begin()));
}

TEST(Exercise, TheHostCodeExercisesAreScoredOnTheTraceAlone) {
  const Exercise transfers = find_exercise(kLabs, "lab2-pipeline");
  EXPECT_TRUE(transfers.host_code);
  EXPECT_EQ(transfers.link_range, "link");
  EXPECT_TRUE(transfers.metrics.empty()) << "no counters: the trace only";
  EXPECT_EQ(transfers.check.kind, "affine_rounds");
  EXPECT_EQ(transfers.check.compulsory_read_bytes({16777216}), 64.0 * 1024 * 1024);
  EXPECT_NE(std::find(transfers.host_calls.begin(), transfers.host_calls.end(), "process_words"), transfers.host_calls.end());
  const Exercise streams = find_exercise(kLabs, "lab8-tasks");
  EXPECT_TRUE(streams.host_code);
  EXPECT_EQ(streams.link_range, "");
  EXPECT_EQ(streams.work_kernel, "labbook::kernels::affineRounds");
  // The rubrics measure what the audit derives for host code.
  for (const Exercise* e : {&transfers, &streams})
    for (const auto& c : load_rubric(e->rubric).criteria) {
      if (!c.measure) continue;
      EXPECT_TRUE(c.measure->in(labbook::QuantityScope::kCall)) << e->id << ": " << c.measure->name();
    }

  // Counters stay required where the student writes kernels; a check's rounds are a whole number.
  const labbook::test::TempDir scratch("labbook-exercise-test-affine");
  const fs::path dir = scratch.path();
  for (const char* f : {"starter.cu", "instructions.md", "harness.cu", "rubric.toml"}) std::ofstream(dir / f) << "\n";
  const auto write = [&](const std::string& exercise_extra, const std::string& constants) {
    std::ofstream(dir / "exercise.toml")
        << "[exercise]\nid = \"x\"\ntitle = \"t\"\nlab = \"lab2\"\nstudent_file = \"s.cu\"\nstarter = \"starter.cu\"\n"
           "instructions = \"instructions.md\"\nharness = \"harness.cu\"\nrubric = \"rubric.toml\"\nmetrics = []\n"
           "measured_range = \"s\"\nreference_range = \"r\"\nhost_calls = []\nentry_points = [\"run\"]\n"
        << exercise_extra << "[check]\nkind = \"affine_rounds\"\nconstants = " << constants << "\ncalls = [[7]]\n";
    return (dir / "exercise.toml").string();
  };
  EXPECT_NO_THROW(load_exercise(write("host_code = true\n", "[16]")));
  const auto error_of = [&](const std::string& path) -> std::string {
    try {
      load_exercise(path);
    } catch (const labbook::Error& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_NE(error_of(write("", "[16]")).find("'metrics' must list the catalog metrics"), std::string::npos);
  EXPECT_NE(error_of(write("work_kernel = \"k\"\n", "[16]")).find("'work_kernel' needs host_code = true"), std::string::npos);
  EXPECT_NE(error_of(write("host_code = true\n", "[1.5]")).find("'constants' must hold the number of rounds"), std::string::npos);
}

TEST(Exercise, AMissingFileIsNamedWithItsLine) {
  const labbook::test::TempDir scratch("labbook-exercise-test-broken");
  const fs::path dir = scratch.path();
  std::ofstream(dir / "exercise.toml") << "[exercise]\nid = \"x\"\ntitle = \"t\"\nlab = \"lab4\"\nstudent_file = \"s.cu\"\n"
                                          "starter = \"nowhere.cu\"\n";
  try {
    load_exercise((dir / "exercise.toml").string());
    FAIL() << "a missing starter must be an error";
  } catch (const labbook::Error& e) {
    EXPECT_NE(std::string(e.what()).find("exercise.toml:6: [exercise]: 'starter' names a missing file"), std::string::npos)
        << e.what();
  }
}

TEST(Exercise, SubmissionsAreFoldersOrFilesInNameOrder) {
  const Exercise e = find_exercise(kLabs, "lab4");
  const labbook::test::TempDir scratch("labbook-exercise-test-class");
  const fs::path dir = scratch.path();
  fs::create_directories(dir / "zoe");
  std::ofstream(dir / "zoe" / "submission.cu") << "// zoe\n";
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "adam.cu") << "// adam\n";
  std::ofstream(dir / "notes.txt") << "not a submission\n";
  fs::create_directories(dir / ".git");
  const auto s = find_submissions(dir.string(), e);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].student, "adam");
  EXPECT_EQ(s[1].student, "empty");
  EXPECT_EQ(s[1].file, "") << "a folder without the file is listed, to be graded zero";
  EXPECT_EQ(s[2].student, "zoe");
  EXPECT_EQ(fs::path(s[2].file).filename(), "submission.cu");
}
