#pragma once
// Chrome trace (Trace Event Format) JSON of a measurement: opens in Perfetto and
// chrome://tracing. One process per device for GPU work, one for host threads.
#include <string>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// The trace as JSON text ("traceEvents" array, microsecond timestamps relative to the first
/// event), one event per line. Each event is dumped as soon as it is made: a program's
/// trace holds tens of thousands, and one JSON tree of them all cost more to build, dump and
/// free than the rest of `labbook profile`'s report.
std::string chrome_trace(const Measurement&);

/// Writes chrome_trace() atomically. Throws labbook::Error.
void write_chrome_trace(const Measurement&, const std::string& path);

}  // namespace labbook::report
