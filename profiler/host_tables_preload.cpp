#include "host_tables_preload.h"

#include <chrono>
#include <system_error>

#include <cupti_profiler_host.h>

#include "cupti_status.h"
#include "stopwatch.h"

namespace labbook::profiler {

HostTablesPreload::HostTablesPreload(std::string chip) : chip_(std::move(chip)) {
  try {
    thread_ = std::thread([this] {
      const auto started = std::chrono::steady_clock::now();
      auto init = LABBOOK_PARAMS(CUpti_Profiler_Host_Initialize_Params);
      init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
      init.pChipName = chip_.c_str();
      init.pCounterAvailabilityImage = nullptr;   // the tables only: the context's is read later
      if (cuptiProfilerHostInitialize(&init) == CUPTI_SUCCESS) host_ = init.pHostObject;
      load_seconds_ = seconds_since(started);
    });
  } catch (const std::system_error&) {   // no thread: the profiler loads the tables itself
  }
}

void HostTablesPreload::wait() {
  if (!thread_.joinable()) return;
  const auto started = std::chrono::steady_clock::now();
  thread_.join();
  waited_seconds_ = seconds_since(started);
}

HostTablesPreload::~HostTablesPreload() {
  wait();
  if (!host_) return;
  auto deinit = LABBOOK_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  deinit.pHostObject = host_;
  cuptiProfilerHostDeinitialize(&deinit);
}

}  // namespace labbook::profiler
