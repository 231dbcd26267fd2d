#pragma once
#include <string>
#include <vector>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "placeholders.h"
#include "sheet.h"

namespace labbook::report {

struct SheetContext {
  std::string note;   ///< shown at the top, e.g. that the numbers come from a recording
  /// The measurement was read from a file (a lab's recording, `labbook render`), not taken by
  /// this run: headings say "Recorded run" and "Measured on <GPU> (recording)".
  bool recorded = false;
  /// The lab's exercises (labs/NN_name/exercises/), listed after the questions.
  struct Exercise {
    std::string id, title;
  };
  std::vector<Exercise> exercises = {};
  /// The lab's recordings from other GPUs of the family: their values stand beside this
  /// measurement's where they differ beyond the noise, their verdicts beside its verdicts.
  std::vector<Measurement> beside = {};
};

/// Lab data + measurement -> sheet: for each experiment the source's value, the value
/// measured here, how they compare and why they differ; claims checked; questions.
Sheet build_sheet(const LabData&, const Measurement&, const SheetContext&);

}  // namespace labbook::report
