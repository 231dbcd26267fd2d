#pragma once
/// @file
/// The workbook's index (reports/index.md): the labs in order, what each teaches, where and
/// when its numbers were measured, its exercises, and links to its sheet.
#include <string>
#include <vector>

#include "sheet.h"
#include "source_documents.h"

namespace labbook::report {

struct WorkbookEntry {
  std::string id, title, summary;
  std::string gpu, measured_at;   ///< of the measurement the sheet shows
  bool recorded = false;          ///< from the lab's recording, not measured on this machine
  std::string problem;            ///< why there is no sheet ("" when there is one)
  std::vector<std::string> exercises;   ///< the lab's exercise ids (`labbook exercise ID`)
};

/// `sources`: the documents the labs cite, listed under "Sources" (none: no such section).
Sheet build_workbook_index(const std::vector<WorkbookEntry>& labs, const std::vector<SourceDocument>& sources = {});

}  // namespace labbook::report
