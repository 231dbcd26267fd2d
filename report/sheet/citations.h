#pragma once
// The sheet's numbered sources and notes: each cited once, each note written once.
#include <algorithm>
#include <string>
#include <vector>

namespace labbook::report {

/// Numbers sources in order of first use, for the References section.
class Citations {
 public:
  int number(const std::string& citation) {
    auto it = std::find(list_.begin(), list_.end(), citation);
    if (it != list_.end()) return static_cast<int>(it - list_.begin()) + 1;
    list_.push_back(citation);
    return static_cast<int>(list_.size());
  }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::vector<std::string> list_;
};

/// Numbers the notes under the sheet's tables across the whole sheet, so that a note several
/// rows or sections share is printed once and referred to everywhere else.
class NoteBook {
 public:
  struct Reference {
    int number;        ///< from 1, across the sheet
    bool first_use;    ///< the caller prints the note's text under its table
  };
  Reference add(const std::string& text) {
    auto it = std::find(texts_.begin(), texts_.end(), text);
    if (it != texts_.end()) return {static_cast<int>(it - texts_.begin()) + 1, false};
    texts_.push_back(text);
    return {static_cast<int>(texts_.size()), true};
  }

 private:
  std::vector<std::string> texts_;
};

}  // namespace labbook::report
