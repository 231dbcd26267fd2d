// An injection library (CUDA_INJECTION64_PATH) that does a prefix of what labbook's collector
// does at start-up, to price each step: bench/trace_startup.sh loads it at each stage.
//   LABBOOK_PROBE_STAGE=0  libcupti loaded, nothing called
//                      1  + cuptiSubscribe, the runtime API domain and the driver's launch calls
//                      2  + activity records of kernels, copies and memsets, flushed at exit
//                      3  + the runtime calls' activity records (what a trace run enables)
//                      4  stage 3's records without any callback (a tracer that subscribes to nothing);
//                         a trace run leaves the launch calls' records out of these (launch_call_records.h)
//                      5  stage 4 + the driver's launch calls alone
//                      6  stage 4 + the runtime API domain alone
// LABBOOK_PROBE_EXIT_STAMP=FILE: the wall clock (ns) written there by the probe's last exit
// handler, where the collector writes its measurement: what comes after is the teardown.
// LABBOOK_PROBE_CUPTI=KEY=VALUE,...: CUPTI's activity settings, from stage 2, before any kind is
// enabled (the collector leaves them all at CUPTI's defaults): device_buffer_bytes,
// pre_allocate, pool_limit (the device buffers of kernels' timestamps), host_pinned (those
// buffers in pinned host memory), per_thread (0: one activity buffer for all threads),
// flush_period_ms (CUPTI's worker flushes that often).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <initializer_list>
#include <string>

#include <cupti.h>

namespace {
void CUPTIAPI on_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}
void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, 4u << 20));
  *size = 4u << 20;
  *max_records = 0;
}
void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t) {
  std::free(buffer);
}

[[noreturn]] void refuse(const std::string& why) {
  std::fprintf(stderr, "startup_stages: LABBOOK_PROBE_CUPTI: %s\n", why.c_str());
  std::exit(2);
}

template <typename T>
void set_attribute(CUpti_ActivityAttribute attribute, const std::string& key, unsigned long long value) {
  T v = static_cast<T>(value);
  std::size_t size = sizeof v;
  if (CUptiResult r = cuptiActivitySetAttribute(attribute, &size, &v); r != CUPTI_SUCCESS)
    refuse(key + " refused by CUPTI (error " + std::to_string(r) + ")");
}

/// Applies LABBOOK_PROBE_CUPTI's settings; a mistyped one stops the program rather than being
/// timed as CUPTI's default.
void apply_cupti_settings(const char* text) {
  std::string rest = text ? text : "";
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    const std::size_t equals = item.find('=');
    char* end = nullptr;
    const unsigned long long value =
        equals == std::string::npos ? 0 : std::strtoull(item.c_str() + equals + 1, &end, 10);
    if (equals == std::string::npos || equals + 1 == item.size() || item[equals + 1] == '-' || *end != '\0')
      refuse("'" + item + "' is not KEY=NUMBER");
    const std::string key = item.substr(0, equals);
    if ((key == "host_pinned" || key == "per_thread") && value > 1) refuse(key + " is 0 or 1, not " + std::to_string(value));
    if (key == "device_buffer_bytes") set_attribute<std::size_t>(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, key, value);
    else if (key == "pre_allocate") set_attribute<std::size_t>(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, key, value);
    else if (key == "pool_limit") set_attribute<std::size_t>(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, key, value);
    else if (key == "host_pinned") set_attribute<std::uint8_t>(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, key, value);
    else if (key == "per_thread") set_attribute<std::uint8_t>(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, key, value);
    else if (key == "flush_period_ms") {
      if (CUptiResult r = cuptiActivityFlushPeriod(static_cast<std::uint32_t>(value)); r != CUPTI_SUCCESS)
        refuse(key + " refused by CUPTI (error " + std::to_string(r) + ")");
    }
    else refuse("unknown setting '" + key + "'");
  }
}
}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  const char* stage_text = std::getenv("LABBOOK_PROBE_STAGE");
  // A mistyped stage would otherwise be timed as another one.
  if (stage_text && !(stage_text[0] >= '0' && stage_text[0] <= '6' && stage_text[1] == '\0')) {
    std::fprintf(stderr, "startup_stages: LABBOOK_PROBE_STAGE must be 0 to 6, not '%s'\n", stage_text);
    std::exit(2);
  }
  const int stage = stage_text ? stage_text[0] - '0' : 0;
  std::atexit([] {   // registered first, so it runs after the flush below
    const char* stamp = std::getenv("LABBOOK_PROBE_EXIT_STAMP");
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    if (std::FILE* out = stamp ? std::fopen(stamp, "w") : nullptr) {
      std::fprintf(out, "%lld%09ld\n", static_cast<long long>(now.tv_sec), now.tv_nsec);
      std::fclose(out);
    }
  });
  std::uint32_t version = 0;
  cuptiGetVersion(&version);   // keeps libcupti a real dependency at stage 0
  if (stage < 1) return 1;
  // Stages 4-6 take the callbacks apart: which domain's dispatch costs what under records.
  const bool runtime_domain = stage <= 3 || stage == 6, driver_launches = stage <= 3 || stage == 5;
  CUpti_SubscriberHandle subscriber = nullptr;
  if ((runtime_domain || driver_launches) && cuptiSubscribe(&subscriber, on_callback, nullptr) != CUPTI_SUCCESS)
    return 0;
  if (runtime_domain) cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  if (driver_launches) {
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx);
  }
  if (stage < 2) return 1;
  apply_cupti_settings(std::getenv("LABBOOK_PROBE_CUPTI"));   // per_thread: before the callbacks
  cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET})
    cuptiActivityEnable(kind);
  if (stage >= 3) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
  std::atexit([] { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); });
  return 1;
}
