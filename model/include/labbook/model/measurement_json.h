#pragma once
/// @file
/// Measurement <-> JSON. Reading validates every field and names the file and the JSON
/// path of the first bad one ("m.json: /kernels/rows/3/8 (grid): expected an array of 3 integers").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "labbook/model/measurement.h"

namespace labbook {

/// The measurement with its records as lists of objects, the form versions 1 to 4 wrote and
/// every version reads: for tests and tools that edit one field. Files are written as tables
/// (measurement_text).
nlohmann::json to_json(const Measurement&);

/// A run's facts as the file holds them (its "program" member): what tells two runs apart.
nlohmann::json to_json(const ProgramRun&);

/// Throws labbook::Error naming `origin` (a file name) and the JSON path on bad input,
/// including a schema_version this build does not read.
Measurement measurement_from_json(const nlohmann::json&, const std::string& origin);

/// Reads and validates a measurement file. Throws labbook::Error. Its tables' rows are read by
/// a fast reader (simdjson) where it takes the file, as it does what labbook writes:
/// `rows_read_fast`, if given, counts them (tests check the path taken); otherwise, and to name
/// a bad field, the whole document is read as measurement_from_json reads it.
Measurement read_measurement(const std::string& path, std::size_t* rows_read_fast = nullptr);

/// The measurement as the text of its file.
std::string measurement_text(const Measurement&);

/// How a measurement's text is made: in the calling thread alone (the collector after a fatal
/// signal), or with a large table's rows made in spans side by side on the host's cores (the
/// report step, the collector at the program's exit). The text is the same.
enum class MeasurementWriting { OneThread, SideBySide };

/// The same text, handed to `sink` a piece at a time (about a megabyte of rows each): the
/// text of 10^5 launches is 14 MB, which need not be held at once.
void write_measurement_text(const Measurement&, const std::function<void(std::string_view)>& sink,
                            MeasurementWriting = MeasurementWriting::OneThread);

/// Writes atomically (temporary file + rename). Throws labbook::Error.
void write_measurement(const Measurement&, const std::string& path, MeasurementWriting = MeasurementWriting::OneThread);

/// Records made one at a time as their rows are written, by a writer that holds them in a
/// smaller form: the collector's 10^5 Kernel objects were 40 MB of fresh memory, paged in
/// while the program waited for its exit.
template <typename Record>
struct MadeRows {
  std::size_t count = 0;
  /// Row `i`'s record, made into `into`, which is reused from row to row; called from several
  /// threads at once with MeasurementWriting::SideBySide. Empty: the measurement's own are written.
  std::function<void(std::size_t i, Record& into)> make;
  std::optional<std::uint64_t> earliest_ns;   ///< the earliest start or end among them
};

/// The tables whose rows are made as they are written, in place of the measurement's own.
struct MadeTables {
  MadeRows<Kernel> kernels;
  MadeRows<ApiCall> api_calls;
};

/// The same text as for `m` holding `made`'s records in order.
void write_measurement_text(const Measurement& m, const MadeTables& made,
                            const std::function<void(std::string_view)>& sink, MeasurementWriting);
/// Writes it atomically. Throws labbook::Error.
void write_measurement(const Measurement& m, const MadeTables& made, const std::string& path, MeasurementWriting);

}  // namespace labbook
