// What CUPTI itself costs a short launch, before any of labbook's work: the floor under a trace
// run's cost per launch (issue 34's 5 µs at 10^5 launches). One way per process, since CUPTI
// cannot be set back; each way launches a kernel of a few µs LAUNCHES times from one thread
// (no NVTX) and prints the wall time of the launches and the final synchronize, per launch:
//   none        no CUPTI at all
//   callbacks   a subscriber with empty callbacks on the whole runtime domain and the driver's
//               launch calls (labbook's trace run subscribes to these)
//   kernels     activity records of kernels only (CONCURRENT_KERNEL), buffers discarded
//   api         ... and of runtime API calls (RUNTIME), as labbook's timeline asks
//   all         callbacks and both kinds of records
// Build and run on the GPU machine, each way three times:
//   nvcc -O2 -o /tmp/trace_cost tools/probes/trace_cost.cu -lcupti -lcuda
//   for way in none callbacks kernels api all none callbacks kernels api all none callbacks kernels api all; do
//     /tmp/trace_cost $way 100000; done
// (LD_LIBRARY_PATH must name CUPTI's folder.) Against `labbook profile` of
// tests/programs/many_launches at the same count, the difference to "all" is labbook's own.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "probe_check.h"

__global__ void add_one(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

namespace {

std::uint64_t g_records = 0;   // records CUPTI handed over, so that none is lost unseen

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *size = 4u << 20;
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) ++g_records;
  std::free(buffer);
}

void CUPTIAPI nothing(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

}  // namespace

int main(int argc, char** argv) {
  const std::string way = argc > 1 ? argv[1] : "none";
  const long launches = argc > 2 ? std::atol(argv[2]) : 100000;
  const bool callbacks = way == "callbacks" || way == "all";
  const bool kernels = way == "kernels" || way == "api" || way == "all";
  const bool api = way == "api" || way == "all";
  if (way != "none" && !callbacks && !kernels) {
    std::fprintf(stderr, "usage: trace_cost none|callbacks|kernels|api|all [LAUNCHES]\n");
    return 2;
  }
  if (callbacks) {
    CUpti_SubscriberHandle subscriber = nullptr;
    CHECK(cuptiSubscribe(&subscriber, nothing, nullptr));
    CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
    for (CUpti_CallbackId cbid : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx})
      CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid));
  }
  if (kernels) {
    CHECK(cuptiActivityRegisterCallbacks(requested, completed));
    CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    if (api) CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
  }
  const int n = 1 << 20;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  add_one<<<n / 256, 256>>>(x, n);   // the context, the module and the first launch, untimed
  CHECK(cudaDeviceSynchronize());
  const auto started = std::chrono::steady_clock::now();
  for (long i = 0; i < launches; ++i) add_one<<<n / 256, 256>>>(x, n);
  CHECK(cudaDeviceSynchronize());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (kernels) CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::printf("%-9s %ld launches: %.3f s, %.2f us a launch, %llu records\n", way.c_str(), launches, seconds,
              1e6 * seconds / static_cast<double>(launches), static_cast<unsigned long long>(g_records));
  CHECK(cudaFree(x));
  return 0;
}
