#pragma once
/// @file
/// Device facts read from the CUDA driver API (the collector never calls the runtime: the
/// profiled program owns it).
#include "issue_log.h"
#include "labbook/model/measurement.h"

namespace labbook::profiler {

/// Facts for device `ordinal`; failures become issues and leave fields at zero.
DeviceFacts read_device_facts(int ordinal, IssueLog& issues);

}  // namespace labbook::profiler
