#pragma once
/// @file
/// Conversion from CUPTI activity records to the labbook data model. The only code that
/// reads CUPTI's record structs.
#include <cupti_activity.h>

#include <unordered_map>

#include "compact_records.h"
#include "labbook/model/measurement.h"
#include "labbook/model/measurement_json.h"

namespace labbook::profiler {

/// What one activity buffer held, converted: kernels and API calls kept compact (the many),
/// the rest as the data model has them.
struct ActivityBatch {
  std::vector<KernelRecord> kernels;
  std::vector<Copy> copies;         ///< correlation holds the runtime API's id when known
  std::vector<ApiCallRecord> api_calls;
  std::vector<UnifiedMemoryEvent> memory_events;
  std::size_t other_records = 0;
};

/// The unified-memory counter kinds labbook asks CUPTI for.
std::vector<CUpti_ActivityUnifiedMemoryCounterKind> unified_memory_counter_kinds();

/// Converts one record into `batch`, kernel names interned in `names`.
void convert_record(const CUpti_Activity& record, ActivityBatch& batch, InternedNames& names);

/// The data model's API calls for `records`, in the order they began, each named as the
/// program called it ("cudaMemcpy"), a name looked up once per kind of call; each call made
/// only as its row is written (MadeRows).
class NamedApiCalls {
 public:
  explicit NamedApiCalls(std::vector<ApiCallRecord> records);

  std::size_t size() const { return records_.size(); }
  /// Call `i` in the order they began, made into `into` (its name's room kept). Safe from several threads.
  void make(std::size_t i, ApiCall& into) const;
  /// The calls for the measurement's writer; this object must outlive them.
  MadeRows<ApiCall> rows() const;

 private:
  std::vector<ApiCallRecord> records_;                      // by start
  std::unordered_map<std::uint32_t, std::string> names_;   // by callback id
};

}  // namespace labbook::profiler
