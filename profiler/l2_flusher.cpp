#include "l2_flusher.h"

#include <cstdint>

namespace labbook::profiler {

namespace {

thread_local bool t_in_flush = false;

// Reads `vectors` 16-byte vectors from `buffer` with ld.global.cg (cached in L2 only) in a
// grid-stride loop; stores to `sink` only if the XOR of everything read equals a constant,
// so that the compiler cannot drop the loads. PTX, so that the driver builds it for any GPU.
constexpr const char* kFlushPtx = R"(
.version 7.0
.target sm_70
.address_size 64

.visible .entry labbook_l2_flush(.param .u64 buffer, .param .u64 vectors, .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;

  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [vectors];
  ld.param.u64 %rd3, [sink];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
  shl.b64 %rd7, %rd4, 4;
  add.u64 %rd8, %rd1, %rd7;
  ld.global.cg.v4.u32 {%r6, %r7, %r8, %r9}, [%rd8];
  xor.b32 %r5, %r5, %r6;
  xor.b32 %r5, %r5, %r7;
  xor.b32 %r5, %r5, %r8;
  xor.b32 %r5, %r5, %r9;
  add.u64 %rd4, %rd4, %rd6;
  bra LOOP;
DONE:
  setp.ne.u32 %p2, %r5, 0x2545F491;
  @%p2 bra END;
  st.global.u32 [%rd3], %r5;
END:
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
  CUdeviceptr buffer = 0, sink = 0;
  std::uint64_t vectors = 0;
  unsigned blocks = 0;
  std::string problem;   // set once preparing failed: the flusher stays off for the device
};

L2Flusher::L2Flusher() = default;

L2Flusher::~L2Flusher() {
  // The program is exiting: the driver reclaims everything. Destroying contexts during
  // exit can race the runtime's own teardown, so leave them.
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
  if (CUresult r = cuMemAlloc(&d.sink, 16); r != CUDA_SUCCESS) return failed("cuMemAlloc", r);
  cuMemsetD8(d.buffer, 0x5a, bytes);
  cuCtxSynchronize();
  d.vectors = bytes / 16;
  d.blocks = static_cast<unsigned>(sms > 0 ? sms * 8 : 256);
  return "";
}

std::string L2Flusher::flush(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = devices_[device];
  if (!slot) {
    slot = std::make_unique<Device>();
    t_in_flush = true;
    slot->problem = prepare(device, *slot);
    t_in_flush = false;
    if (!slot->problem.empty()) return slot->problem;
  }
  Device& d = *slot;
  if (!d.problem.empty()) return "";   // said once already
  t_in_flush = true;
  CurrentContext current(d.ctx);
  void* args[] = {&d.buffer, &d.vectors, &d.sink};
  CUresult r = cuLaunchKernel(d.kernel, d.blocks, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  t_in_flush = false;
  if (r != CUDA_SUCCESS) {
    d.problem = failed("flushing L2", r);
    return d.problem;
  }
  return "";
}

}  // namespace labbook::profiler
