#pragma once
// The table writer (measurement_tables.cpp), and what it shares with the object writer
// (measurement_json.cpp). Private to the model.
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "labbook/model/measurement.h"
#include "labbook/model/measurement_json.h"

namespace labbook {

/// How the table writer lays out a table's rows, a row to a line; row_pieces.cpp cuts by it.
namespace table_layout {
constexpr std::string_view kRows = "\"rows\": [";
constexpr std::string_view kFirstRow = "\n  [";
constexpr std::string_view kNextRow = ",\n  [";
constexpr std::string_view kEnd = "\n ]}";
}  // namespace table_layout

/// JSON text of `v`; bytes that are not UTF-8 (a program's NVTX name may hold any) become
/// U+FFFD rather than failing the whole file.
std::string text_of(const nlohmann::json& v, int indent = -1);

/// A kernel's SASS instructions with their counts, as the file's "sass" field holds them.
nlohmann::json sass_json(const Kernel& k);

/// The strings and the record tables, each row on a line: the members between the file's
/// head and its closing brace; a table `made` makes is written from it, not from `m`.
void write_record_tables(const Measurement& m, const MadeTables& made,
                         const std::function<void(std::string_view)>& sink, MeasurementWriting writing);

}  // namespace labbook
