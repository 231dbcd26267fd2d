// Every lab found under labs/ (nothing here names one): its lab data loads, its id matches
// its folder, its sheet rendered from its recording matches the golden file next to the
// recording (regenerate with LABBOOK_UPDATE_GOLDEN=1 after a deliberate change), and the
// recording passes the lab's own acceptance checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "markdown_tables.h"
#include "lab_checks.h"
#include "lab_data.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/measurement_json.h"
#include "markdown_writer.h"
#include "lab_folders.h"
#include "sheet_builder.h"

using namespace labbook;
using namespace labbook::report;
namespace fs = std::filesystem;

namespace {

using fixture::lab_folders;

class LabFolder : public ::testing::TestWithParam<std::string> {
 protected:
  std::string folder() const { return std::string(LABBOOK_SOURCE_DIR) + "/labs/" + GetParam(); }
  LabData lab() const { return load_lab_data(folder() + "/lab.toml"); }
};

}  // namespace

TEST(LabFolders, AtLeastOneLabIsFound) { EXPECT_FALSE(lab_folders().empty()); }

TEST_P(LabFolder, IdMatchesTheFolderNumber) {
  const std::string number = GetParam().substr(0, GetParam().find('_'));
  EXPECT_EQ(lab().id, "lab" + std::to_string(std::stoi(number)));
}

TEST_P(LabFolder, SheetFromTheRecordingMatchesItsGoldenFile) {
  const LabData l = lab();
  ASSERT_FALSE(l.recorded.empty()) << GetParam() << " has no recording";
  const std::string recording = folder() + "/" + l.recorded;
  const Sheet sheet = build_sheet(l, read_measurement(recording), {"rendered from the recording for the golden test", true});
  const std::string md = to_markdown(sheet);
  validate_markdown(sheet, md);
  const std::string golden = recording.substr(0, recording.rfind('.')) + ".golden.md";
  if (std::getenv("LABBOOK_UPDATE_GOLDEN")) write_file_atomically(golden, md);
  EXPECT_EQ(md, read_file(golden)) << "re-run with LABBOOK_UPDATE_GOLDEN=1 if the change is deliberate";
}

TEST_P(LabFolder, RecordingPassesTheLabsChecks) {
  const LabData l = lab();
  const auto outcomes = check_measurement(l, read_measurement(folder() + "/" + l.recorded));
  for (const auto& o : outcomes) EXPECT_TRUE(o.passed) << o.text;
  EXPECT_GT(outcomes.size(), l.checks.size()) << "every check matched at least one range, plus the timeline checks";
}

INSTANTIATE_TEST_SUITE_P(Labs, LabFolder, ::testing::ValuesIn(lab_folders()));
