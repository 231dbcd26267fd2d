#pragma once
// Lab data written inline by the report's tests: a valid [lab] and [sheet] to put the tables
// under test after, and the message loading a text fails with.
#include <string>

#include "lab_data.h"
#include "labbook/model/error.h"

namespace labbook::report::fixture {

/// A valid [lab] and [sheet], twelve lines (so a table after it starts on line 13 or 14),
/// asking for `metrics` (a TOML array).
inline std::string lab_toml_head(const std::string& metrics = "[]") {
  return "[lab]\nid = \"labX\"\ntitle = \"X\"\nsummary = \"s\"\nprogram = \"x\"\n"
         "source = \"004_12112d3317679e06.txt\"\nmetrics = " + metrics +
         "\n[sheet]\ngoals = \"g\"\nbackground = \"b\"\nlook_at = \"l\"\nquestions = [\"q?\"]\n";
}

/// The message parsing `text` as lab.toml fails with; "" when it parses.
inline std::string lab_toml_error(const std::string& text) {
  try {
    parse_lab_data(text, "lab.toml");
  } catch (const labbook::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace labbook::report::fixture
