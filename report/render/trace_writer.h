#pragma once
// Chrome trace (Trace Event Format) JSON of a measurement: opens in Perfetto and
// chrome://tracing. One process per device for GPU work, one for host threads.
#include <string>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// The trace as JSON text ("traceEvents" array, microsecond timestamps relative to the first
/// event), one event per line, each written field by field as it is made.
std::string chrome_trace(const Measurement&);

/// Writes chrome_trace() atomically, a megabyte at a time; gzip-compressed where `path` ends
/// in ".gz" (Perfetto and chrome://tracing open it as it is). Throws labbook::Error.
void write_chrome_trace(const Measurement&, const std::string& path);

}  // namespace labbook::report
