#pragma once
// The lab folders of the source tree (labs/NN_name/ with a lab.toml), in order: the tests that
// run over every lab's data and recording.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace labbook::report::fixture {

inline std::vector<std::string> lab_folders() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(LABBOOK_SOURCE_DIR) / "labs"))
    if (fs::exists(e.path() / "lab.toml")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace labbook::report::fixture
