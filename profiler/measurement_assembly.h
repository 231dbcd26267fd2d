#pragma once
/// @file
/// The measurement made at the end of a run from what the collector's parts kept: the program's
/// facts, its NVTX ranges and devices, its kernels joined with the trace's records and the
/// metrics or source counts, its copies, API calls and memory events, and the issues. Calls
/// CUPTI and the driver (versions, device facts), so it lives in the collector library.
#include <optional>
#include <string>

#include "activity_records.h"
#include "collector.h"
#include "labbook/model/measurement.h"
#include "launch_book.h"
#include "launch_join.h"

namespace labbook::profiler {

class ActivityTracer;
class IssueLog;
class NvtxTracker;
class RangeProfiler;
class SassSource;

/// What the measurement is made from; a null part was not asked for by the run's config.
struct MeasurementParts {
  const CollectorConfig& config;
  const std::string& started_at;        // the collector's start, ISO 8601 in UTC
  TakenLaunches launches;               // taken from the run's LaunchBook
  const NvtxTracker& nvtx;
  const RangeProfiler* profiler;        // its metrics, finished
  const SassSource* source;             // its source counts, finished
  ActivityTracer* tracer;               // its records, flushed: taken here
  IssueLog& issues;                     // the run's, added to here
};

/// A trace run's kernels and API calls, made only as the measurement's rows are written.
struct TraceRows {
  JoinedKernels kernels;
  NamedApiCalls api_calls;
  MadeTables tables() const { return {kernels.rows(), api_calls.rows()}; }
};

/// A run's measurement: in a trace run, its kernels and API calls in `trace` instead.
struct AssembledMeasurement {
  Measurement measurement;
  std::optional<TraceRows> trace;
};

/// The run's measurement, its stop reason left to the caller.
AssembledMeasurement assemble_measurement(MeasurementParts parts);

}  // namespace labbook::profiler
