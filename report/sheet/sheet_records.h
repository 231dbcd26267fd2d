#pragma once
/// @file
/// What a lab sheet found, typed: each question's rows (one per experiment and quantity) and
/// each claim's verdict. The JSON writer, the terminal summary, the comparison and the standing
/// of a sheet just built read these, never the JSON they write.
#include <optional>
#include <string>
#include <vector>

#include "claim_verdict.h"
#include "lab_data.h"
#include "quantities.h"

namespace labbook::report {

/// One experiment's quantity in a question's table: measured, modelled, printed by a source.
struct ResultRecord {
  std::string experiment;
  Quantity quantity;
  std::string unit;
  QuantityValue measured;
  std::optional<double> model_source_gpu;   ///< the warp model's value for the source's GPU
  std::string model_architecture;           ///< that GPU's architecture in the model
  std::optional<double> model_this_gpu;
  std::string verdict;                      ///< measured against the model for this GPU, or "—"
  std::optional<ReferenceValue> source;     ///< what a source printed, where it printed one
  std::string comparison;                   ///< measured against the source's value ("+0.00 pts")
  std::optional<double> of_baseline;        ///< measured over the section's baseline
};

struct QuestionRecord {
  std::string title;
  std::string answer;   ///< Markdown, the measured values in place
  std::vector<ResultRecord> rows;
};

/// A verdict as the JSON and the terminal give it: "holds here: ratio 2.00; ...".
inline std::string verdict_line(Verdict verdict, const std::string& reason) {
  return verdict_name(verdict) + (reason.empty() ? "" : ": " + reason);
}

struct ClaimRecord {
  std::string claim, citation;
  Verdict verdict = Verdict::kCannotBeChecked;
  std::string reason;    ///< why, with the ratio and the band it needed ("" where none)
  std::string section;   ///< the heading of the question that answers it, "" if none
  std::optional<Ratio> ratio;
  /// The claim on other GPUs' recordings: each GPU and its verdict line.
  std::vector<std::pair<std::string, std::string>> other_gpus = {};
  /// The verdict as the JSON and the terminal give it: "holds here: ratio 2.00; ...".
  std::string verdict_line() const { return report::verdict_line(verdict, reason); }
};

}  // namespace labbook::report
