#pragma once
/// @file
/// Conversion from CUPTI activity records to the labbook data model. The only code that
/// reads CUPTI's record structs.
#include <cupti_activity.h>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

/// What one activity buffer held, converted.
struct ActivityBatch {
  std::vector<Kernel> kernels;      ///< launch index and range are filled in later
  std::vector<Copy> copies;         ///< correlation holds the runtime API's id when known
  std::vector<ApiCall> api_calls;
  std::vector<UnifiedMemoryEvent> memory_events;
  std::size_t other_records = 0;
};

/// The unified-memory counter kinds labbook asks CUPTI for.
std::vector<CUpti_ActivityUnifiedMemoryCounterKind> unified_memory_counter_kinds();

/// Converts one record into `batch`.
void convert_record(const CUpti_Activity& record, ActivityBatch& batch);

}  // namespace labbook::profiler
