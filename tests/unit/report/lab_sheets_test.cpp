// Every lab found under labs/ (nothing here names one): its lab data loads, its id matches
// its folder, its sheet rendered from its recordings matches the golden file next to the
// first (regenerate with LABBOOK_UPDATE_GOLDEN=1 after a deliberate change), every recording
// passes the lab's own acceptance checks, and recordings from two GPUs that give a claim two
// verdicts say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <sstream>

#include "markdown_tables.h"
#include "claims_section.h"
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

}  // namespace

// Outside the anonymous namespace, as the tests derive from it (GCC warns so in a unity batch).
class LabFolder : public ::testing::TestWithParam<std::string> {
 protected:
  std::string folder() const { return std::string(LABBOOK_SOURCE_DIR) + "/labs/" + GetParam(); }
  LabData lab() const { return load_lab_data(folder() + "/lab.toml"); }
  /// The lab's recordings after the first: other GPUs', set beside it.
  std::vector<Measurement> beside(const LabData& l) const {
    std::vector<Measurement> out;
    for (std::size_t i = 1; i < l.recordings.size(); ++i) out.push_back(read_measurement(folder() + "/" + l.recordings[i]));
    return out;
  }
};

TEST(LabFolders, AtLeastOneLabIsFound) { EXPECT_FALSE(lab_folders().empty()); }

TEST_P(LabFolder, IdMatchesTheFolderNumber) {
  const std::string number = GetParam().substr(0, GetParam().find('_'));
  EXPECT_EQ(lab().id, "lab" + std::to_string(std::stoi(number)));
}

TEST_P(LabFolder, SheetFromTheRecordingMatchesItsGoldenFile) {
  const LabData l = lab();
  ASSERT_FALSE(l.recordings.empty()) << GetParam() << " has no recording";
  const std::string recording = folder() + "/" + l.recordings.front();
  SheetContext context{"rendered from the recording for the golden test", true};
  context.beside = beside(l);
  const Sheet sheet = build_sheet(l, read_measurement(recording), context);
  const std::string md = to_markdown(sheet);
  validate_markdown(sheet, md);
  const std::string golden = recording.substr(0, recording.rfind('.')) + ".golden.md";
  if (std::getenv("LABBOOK_UPDATE_GOLDEN")) write_file_atomically(golden, md);
  EXPECT_EQ(md, read_file(golden)) << "re-run with LABBOOK_UPDATE_GOLDEN=1 if the change is deliberate";
}

TEST_P(LabFolder, EveryRecordingPassesTheLabsChecks) {
  const LabData l = lab();
  for (const auto& recording : l.recordings) {
    const auto outcomes = check_measurement(l, read_measurement(folder() + "/" + recording));
    for (const auto& o : outcomes) EXPECT_TRUE(o.passed) << recording << ": " << o.text;
    EXPECT_GT(outcomes.size(), l.checks.size()) << recording << ": every check matched at least one range, plus the timeline checks";
  }
}

TEST_P(LabFolder, RecordingsThatDisagreeOnAClaimSayWhy) {
  const LabData l = lab();
  if (l.recordings.size() < 2) GTEST_SKIP() << GetParam() << " has one recording";
  Citations citations;
  const auto judged = judge_claims(l, read_measurement(folder() + "/" + l.recordings.front()), citations, {}, beside(l));
  for (const auto& j : judged) {
    if (!j.differs_across_gpus()) continue;
    std::string verdicts = verdict_name(j.outcome.verdict);
    for (const auto& o : j.beside) verdicts += " / " + verdict_name(o.verdict);
    EXPECT_FALSE(j.claim->across_gpus.empty())
        << GetParam() << ": \"" << j.claim->text << "\" is " << verdicts
        << " on the recordings, and its [[claim]] gives no across_gpus reason";
  }
}

/// Sentences in `text`: ends of sentence (". ", "? ", "! " or the end), abbreviations aside.
int sentences(std::string text) {
  for (const char* abbreviation : {" e.g.", " i.e.", " vs.", " cf."})
    for (std::size_t at; (at = text.find(abbreviation)) != std::string::npos;) text.erase(at, std::strlen(abbreviation));
  int count = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((text[i] == '.' || text[i] == '?' || text[i] == '!') && (i + 1 == text.size() || text[i + 1] == ' ')) ++count;
  return count;
}

TEST_P(LabFolder, EveryQuestionHasAShortAnswer) {
  // Short enough to read before the table: 2 to 4 sentences, and words a sheet's budget allows.
  constexpr std::size_t kMostWords = 55;
  for (const auto& s : lab().sections) {
    EXPECT_GE(sentences(s.answer), 2) << s.title << ": \"" << s.answer << "\"";
    EXPECT_LE(sentences(s.answer), 4) << s.title << ": \"" << s.answer << "\"";
    std::istringstream words(s.answer);
    EXPECT_LE(std::distance(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()),
              static_cast<std::ptrdiff_t>(kMostWords))
        << s.title << ": \"" << s.answer << "\"";
  }
}

INSTANTIATE_TEST_SUITE_P(Labs, LabFolder, ::testing::ValuesIn(lab_folders()));
