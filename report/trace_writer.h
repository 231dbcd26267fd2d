#pragma once
// Chrome trace (Trace Event Format) JSON of a measurement: opens in Perfetto and
// chrome://tracing. One process per device for GPU work, one for host threads.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// The trace as JSON ("traceEvents" array, microsecond timestamps relative to the first event).
nlohmann::json chrome_trace(const Measurement&);

/// Writes chrome_trace() atomically. Throws labbook::Error.
void write_chrome_trace(const Measurement&, const std::string& path);

}  // namespace labbook::report
