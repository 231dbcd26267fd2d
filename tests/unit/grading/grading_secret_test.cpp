// The class's secret (grading/grading_secret.h): kept for re-runs, new for another folder,
// readable by its owner alone, and every student's inputs depend on it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "grading_secret.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "temp_dir.h"

using namespace labbook::grading;
using labbook::test::TempDir;
namespace fs = std::filesystem;

TEST(GradingSecret, IsKeptForTheFolderAndNewForAnother) {
  const TempDir dir_a("grading-secret-a"), dir_b("grading-secret-b");
  const std::string& a = dir_a.path();
  const std::string& b = dir_b.path();
  const std::string first = class_secret(a);
  EXPECT_EQ(first.size(), 64u);
  EXPECT_EQ(class_secret(a), first) << "a re-run draws the same inputs";
  EXPECT_NE(class_secret(b), first);
  struct stat st {};
  ASSERT_EQ(::stat((a + "/.grading-secret").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0400u) << "no other user reads it";
  EXPECT_EQ(std::distance(fs::directory_iterator(a), fs::directory_iterator()), 1) << "no temporary file left";
}

TEST(GradingSecret, SeedsDependOnTheSecretTheNameAndTheSubmission) {
  const std::string code = "__global__ void k() {}";
  EXPECT_EQ(student_seed("s1", "ada", code), student_seed("s1", "ada", code));
  EXPECT_NE(student_seed("s1", "ada", code), student_seed("s2", "ada", code));
  EXPECT_NE(student_seed("s1", "ada", code), student_seed("s1", "bob", code));
  EXPECT_NE(student_seed("s1", "ada", code), student_seed("s1", "ada", code + "\n")) << "a changed submission, new inputs";
  EXPECT_NE(student_seed("s1", "ada", code), student_seed("s1a", "da", code)) << "the separator keeps secret and name apart";
}

TEST(GradingSecret, RefusesAFileItDidNotWrite) {
  const TempDir dir("grading-secret-bad");
  labbook::write_file_atomically(dir.path() + "/.grading-secret", "1234\n");
  EXPECT_THROW(class_secret(dir.path()), labbook::Error);
}
