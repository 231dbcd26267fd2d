// Exercises as lab data and the submissions folder: the shipped exercise loads, a broken one
// names file:line, and students are found as folders or files, in name order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <cstring>
#include <vector>

#include "exercise.h"
#include "exercise_checks.h"
#include "labbook/model/error.h"
#include "rubric.h"

using namespace labbook::grading;
namespace fs = std::filesystem;

namespace {
const std::string kLabs = std::string(LABBOOK_SOURCE_DIR) + "/labs";

fs::path scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("labbook-exercise-test-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}
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
                                 std::pair{"lab5", "lab5-transpose"}}) {
    const Exercise e = find_exercise(kLabs, lab);
    EXPECT_EQ(e.id, id);
    EXPECT_EQ(e.lab, lab);
    const Rubric r = load_rubric(e.rubric);
    EXPECT_EQ(r.exercise, id);
    ASSERT_NE(r.correctness(), nullptr) << id;
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

TEST(Exercise, AMissingFileIsNamedWithItsLine) {
  const fs::path dir = scratch("broken");
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
  const fs::path dir = scratch("class");
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
