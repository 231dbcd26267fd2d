#include "l2_flusher.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <future>

#include "capture_mode.h"
#include "driver_status.h"
#include "l2_flush_kernel.h"
#include "overhead_report.h"
#include "stopwatch.h"

namespace labbook::profiler {

namespace {

thread_local bool t_in_flush = false;

struct CurrentContext {   // makes `ctx` current for a scope, restoring the caller's
  explicit CurrentContext(CUcontext ctx) { cuCtxPushCurrent(ctx); }
  ~CurrentContext() {
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  }
};

}  // namespace

struct L2Flusher::Device {
  CUcontext ctx = nullptr;
  CUmodule module = nullptr;
  CUfunction kernel = nullptr;
  CUdeviceptr buffer = 0;
  std::uint64_t bytes = 0;
  unsigned blocks = 0;
  std::string problem;   // what failed, preparing or flushing: the flusher stays off for the device
  bool problem_said = false;   // flush() returns the problem once
  std::shared_future<void> prepared;   // prepare_soon's preparation on a thread of its own
};

L2Flusher::L2Flusher(std::vector<FlushPass> passes) : passes_(std::move(passes)) {}

L2Flusher::~L2Flusher() {
  // The program is exiting: the driver reclaims everything. Destroying contexts during
  // exit can race the runtime's own teardown, so leave them; only a preparation still
  // running is waited for.
  settle();
}

bool L2Flusher::in_flush() { return t_in_flush; }

std::string L2Flusher::prepare(int device, Device& d) {
  CUdevice dev = 0;
  if (CUresult r = cuDeviceGet(&dev, device); r != CUDA_SUCCESS) return describe_driver_call("cuDeviceGet", r);
  int l2 = 0, sms = 0;
  cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  if (l2 <= 0) return "the device reports no L2 size";
  CUctxCreateParams params{};
  if (CUresult r = cuCtxCreate(&d.ctx, &params, 0, dev); r != CUDA_SUCCESS) return describe_driver_call("cuCtxCreate", r);
  CUcontext popped = nullptr;
  cuCtxPopCurrent(&popped);   // cuCtxCreate made it current; the program's context comes back
  CurrentContext current(d.ctx);
  if (CUresult r = cuModuleLoadData(&d.module, kL2FlushPtx); r != CUDA_SUCCESS) return describe_driver_call("cuModuleLoadData", r);
  if (CUresult r = cuModuleGetFunction(&d.kernel, d.module, kL2FlushKernel); r != CUDA_SUCCESS)
    return describe_driver_call("cuModuleGetFunction", r);
  const std::size_t bytes = 2 * static_cast<std::size_t>(l2);
  if (CUresult r = cuMemAlloc(&d.buffer, bytes); r != CUDA_SUCCESS) return describe_driver_call("cuMemAlloc", r);
  d.bytes = bytes;
  d.blocks = static_cast<unsigned>(sms > 0 ? sms * 8 : 256);
  return "";
}

void L2Flusher::add_costs(ProfilerOverhead& costs) const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  costs.flushes = stats_.flushes;
  costs.flush_seconds = stats_.flush_seconds;
  costs.flush_prepare_seconds = stats_.prepare_seconds;
  costs.flush_waited_seconds = stats_.waited_seconds;
}

// Prepares and times it, with the flusher's own driver calls marked so that the collector
// ignores their callbacks (the context it creates, the launches). A failure leaves no context.
void L2Flusher::prepare_timed(int device, Device& d) {
  const auto started = std::chrono::steady_clock::now();
  const bool was_in_flush = t_in_flush;
  t_in_flush = true;
  RelaxedCaptureMode relaxed;   // beside a program's capture (capture_mode.h)
  d.problem = prepare(device, d);
  t_in_flush = was_in_flush;
  if (!d.problem.empty() && d.ctx) {
    cuCtxDestroy(d.ctx);   // takes its module and buffer with it
    d.ctx = nullptr;
  }
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_.prepare_seconds += seconds_since(started);
}

void L2Flusher::prepare_soon(int device) {
  if (t_in_flush) return;   // the flusher's own context appearing
  std::lock_guard<std::mutex> lock(devices_mutex_);
  auto& slot = devices_[device];
  if (slot) return;
  try {
    auto d = std::make_unique<Device>();
    Device* preparing = d.get();
    d->prepared = std::async(std::launch::async, [this, device, preparing] { prepare_timed(device, *preparing); }).share();
    slot = std::move(d);
  } catch (const std::exception&) {
    // No thread to be had: the first flush prepares the device itself.
  }
}

void L2Flusher::settle() {
  std::vector<std::shared_future<void>> preparing;
  {
    std::lock_guard<std::mutex> lock(devices_mutex_);
    for (const auto& [device, d] : devices_)
      if (d->prepared.valid()) preparing.push_back(d->prepared);
  }
  for (const auto& p : preparing) p.wait();
}

std::string L2Flusher::flush(int device) {
  using Clock = std::chrono::steady_clock;
  std::lock_guard<std::mutex> lock(flush_mutex_);
  Device* slot = nullptr;
  bool unprepared = false;
  {
    std::lock_guard<std::mutex> devices_lock(devices_mutex_);
    auto& d = devices_[device];
    unprepared = !d;
    if (unprepared) d = std::make_unique<Device>();
    slot = d.get();
  }
  const bool preparing =
      slot->prepared.valid() && slot->prepared.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
  if (unprepared || preparing) {   // the launch waits for the preparation
    const auto waiting = Clock::now();
    if (unprepared) prepare_timed(device, *slot);
    else slot->prepared.wait();
    std::lock_guard<std::mutex> stats_lock(stats_mutex_);
    stats_.waited_seconds += seconds_since(waiting);
  }
  Device& d = *slot;
  if (!d.problem.empty()) {
    if (d.problem_said) return "";
    d.problem_said = true;
    return d.problem;
  }
  const auto started = Clock::now();
  t_in_flush = true;
  CurrentContext current(d.ctx);
  CUresult r = CUDA_SUCCESS;
  for (FlushPass pass : passes_) {
    unsigned mode = l2_flush_mode(pass);
    std::uint64_t units = d.bytes / l2_flush_unit_bytes(pass);
    void* args[] = {&d.buffer, &units, &mode};
    if (r == CUDA_SUCCESS) r = cuLaunchKernel(d.kernel, d.blocks, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  }
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  t_in_flush = false;
  std::lock_guard<std::mutex> stats_lock(stats_mutex_);
  ++stats_.flushes;
  stats_.flush_seconds += seconds_since(started);
  if (r != CUDA_SUCCESS) {
    d.problem = describe_driver_call("flushing L2", r);
    d.problem_said = true;
    return d.problem;
  }
  return "";
}

}  // namespace labbook::profiler
