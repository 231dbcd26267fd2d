#include "l2_flusher.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <future>

#include "stopwatch.h"

namespace labbook::profiler {

namespace {

thread_local bool t_in_flush = false;

// One kernel, launched once per pass over a buffer twice the size of L2. Mode 0 writes the
// buffer (16-byte units): on the H100 a read alone leaves the program's dirty lines in L2
// (they are evicted last), while writes compete with them and push them out, written back
// now rather than during the kernel. Mode 1 invalidates the buffer's own lines (128-byte
// units) with discard.global.L2, which drops them without writing them back, so that the
// kernel finds no dirty line to evict: what `ncu --cache-control all` leaves, an L2 without
// the program's data. Mode 2 reads the buffer through L2 (ld.global.cg), leaving clean lines;
// a store that never happens keeps the reads. Mode 3 writes whole 128-byte lines, each from
// the thread that mode 1 gives it, for studies of L2's two partitions (flush_passes.h). PTX,
// so that the driver builds it for the GPU at hand (discard needs compute capability 8.0).
constexpr const char* kFlushPtx = R"(
.version 7.4
.target sm_80
.address_size 64

.visible .entry labbook_l2_flush(.param .u64 buffer, .param .u64 units, .param .u32 mode)
{
  .reg .pred %p<6>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [units];
  ld.param.u32 %r6, [mode];
  setp.eq.u32 %p2, %r6, 1;
  setp.eq.u32 %p3, %r6, 2;
  setp.eq.u32 %p5, %r6, 3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd3, %r1, %r2;
  cvt.u64.u32 %rd4, %r3;
  add.u64 %rd3, %rd3, %rd4;
  mul.wide.u32 %rd5, %r4, %r2;
  mov.u32 %r5, 0;
  mov.u32 %r7, 0;
LOOP:
  setp.ge.u64 %p1, %rd3, %rd2;
  @%p1 bra DONE;
  @%p2 bra DISCARD;
  @%p3 bra READ;
  @%p5 bra LINE;
  shl.b64 %rd6, %rd3, 4;
  add.u64 %rd7, %rd1, %rd6;
  st.global.v4.u32 [%rd7], {%r5, %r5, %r5, %r5};
  bra NEXT;
READ:
  shl.b64 %rd6, %rd3, 4;
  add.u64 %rd7, %rd1, %rd6;
  ld.global.cg.v4.u32 {%r8, %r9, %r10, %r11}, [%rd7];
  xor.b32 %r7, %r7, %r8;
  xor.b32 %r7, %r7, %r9;
  xor.b32 %r7, %r7, %r10;
  xor.b32 %r7, %r7, %r11;
  bra NEXT;
LINE:
  shl.b64 %rd6, %rd3, 7;
  add.u64 %rd7, %rd1, %rd6;
  st.global.v4.u32 [%rd7], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+16], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+32], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+48], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+64], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+80], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+96], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+112], {%r5, %r5, %r5, %r5};
  bra NEXT;
DISCARD:
  shl.b64 %rd6, %rd3, 7;
  add.u64 %rd7, %rd1, %rd6;
  discard.global.L2 [%rd7], 128;
NEXT:
  add.u64 %rd3, %rd3, %rd5;
  bra LOOP;
DONE:
  setp.eq.u32 %p4, %r7, 0x9E3779B9;
  @%p4 st.global.u32 [%rd1], %r7;
  ret;
}
)";

struct CurrentContext {   // makes `ctx` current for a scope, restoring the caller's
  explicit CurrentContext(CUcontext ctx) { cuCtxPushCurrent(ctx); }
  ~CurrentContext() {
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  }
};

std::string failed(const char* call, CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return std::string(call) + " failed (" + (name ? name : "?") + ")";
}

}  // namespace

struct L2Flusher::Device {
  CUcontext ctx = nullptr;
  CUmodule module = nullptr;
  CUfunction kernel = nullptr;
  CUdeviceptr buffer = 0;
  std::uint64_t vectors = 0, lines = 0;
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
  if (CUresult r = cuDeviceGet(&dev, device); r != CUDA_SUCCESS) return failed("cuDeviceGet", r);
  int l2 = 0, sms = 0;
  cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  if (l2 <= 0) return "the device reports no L2 size";
  CUctxCreateParams params{};
  if (CUresult r = cuCtxCreate(&d.ctx, &params, 0, dev); r != CUDA_SUCCESS) return failed("cuCtxCreate", r);
  CUcontext popped = nullptr;
  cuCtxPopCurrent(&popped);   // cuCtxCreate made it current; the program's context comes back
  CurrentContext current(d.ctx);
  if (CUresult r = cuModuleLoadData(&d.module, kFlushPtx); r != CUDA_SUCCESS) return failed("cuModuleLoadData", r);
  if (CUresult r = cuModuleGetFunction(&d.kernel, d.module, "labbook_l2_flush"); r != CUDA_SUCCESS)
    return failed("cuModuleGetFunction", r);
  const std::size_t bytes = 2 * static_cast<std::size_t>(l2);
  if (CUresult r = cuMemAlloc(&d.buffer, bytes); r != CUDA_SUCCESS) return failed("cuMemAlloc", r);
  d.vectors = bytes / 16;
  d.lines = bytes / 128;
  d.blocks = static_cast<unsigned>(sms > 0 ? sms * 8 : 256);
  return "";
}

L2Flusher::Stats L2Flusher::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

// Prepares and times it, with the flusher's own driver calls marked so that the collector
// ignores their callbacks (the context it creates, the launches). A failure leaves no context.
void L2Flusher::prepare_timed(int device, Device& d) {
  const auto started = std::chrono::steady_clock::now();
  const bool was_in_flush = t_in_flush;
  t_in_flush = true;
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
    unsigned mode = pass == FlushPass::Write ? 0 : pass == FlushPass::Discard ? 1 : pass == FlushPass::Read ? 2 : 3;
    const bool by_line = pass == FlushPass::Discard || pass == FlushPass::WriteLines;
    std::uint64_t units = by_line ? d.lines : d.vectors;
    void* args[] = {&d.buffer, &units, &mode};
    if (r == CUDA_SUCCESS) r = cuLaunchKernel(d.kernel, d.blocks, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  }
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  t_in_flush = false;
  std::lock_guard<std::mutex> stats_lock(stats_mutex_);
  ++stats_.flushes;
  stats_.flush_seconds += seconds_since(started);
  if (r != CUDA_SUCCESS) {
    d.problem = failed("flushing L2", r);
    d.problem_said = true;
    return d.problem;
  }
  return "";
}

}  // namespace labbook::profiler
