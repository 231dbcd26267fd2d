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
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <initializer_list>

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
  cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET})
    cuptiActivityEnable(kind);
  if (stage >= 3) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
  std::atexit([] { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); });
  return 1;
}
