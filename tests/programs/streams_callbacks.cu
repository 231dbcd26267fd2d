// Four streams, each copying its slice in (pinned memory), running two kernels and copying
// back, with host callbacks (cudaLaunchHostFunc and cudaStreamAddCallback) recording when
// each stream finished, and an event that makes the last stream wait for the first.
//   streams_callbacks   prints each stream's result in stream order; exit 0 when right
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kStreams = 4, kSlice = 1 << 18;

__global__ void add(float* x, int n, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v;
}
__global__ void scale(float* x, int n, float f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

int finished[kStreams];   // written by the host callbacks (no CUDA calls in them)

void CUDART_CB host_done(void* slot) { *static_cast<int*>(slot) += 1; }
void CUDART_CB stream_done(cudaStream_t, cudaError_t status, void* slot) {
  if (status == cudaSuccess) *static_cast<int*>(slot) += 10;
}

int main() {
  float *h = nullptr, *d = nullptr;
  CHECK(cudaMallocHost(&h, kStreams * kSlice * sizeof(float)));
  CHECK(cudaMalloc(&d, kStreams * kSlice * sizeof(float)));
  for (int i = 0; i < kStreams * kSlice; ++i) h[i] = static_cast<float>(i / kSlice);
  cudaStream_t streams[kStreams];
  for (auto& s : streams) CHECK(cudaStreamCreate(&s));
  cudaEvent_t first_done;
  CHECK(cudaEventCreateWithFlags(&first_done, cudaEventDisableTiming));
  for (int s = 0; s < kStreams; ++s) {
    float* hs = h + s * kSlice;
    float* ds = d + s * kSlice;
    if (s == kStreams - 1) CHECK(cudaStreamWaitEvent(streams[s], first_done, 0));
    CHECK(cudaMemcpyAsync(ds, hs, kSlice * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
    add<<<kSlice / 256, 256, 0, streams[s]>>>(ds, kSlice, 1.0f);
    scale<<<kSlice / 256, 256, 0, streams[s]>>>(ds, kSlice, 3.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(hs, ds, kSlice * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    if (s == 0) CHECK(cudaEventRecord(first_done, streams[s]));
    CHECK(cudaLaunchHostFunc(streams[s], host_done, &finished[s]));
    CHECK(cudaStreamAddCallback(streams[s], stream_done, &finished[s], 0));
  }
  CHECK(cudaDeviceSynchronize());
  bool right = true;
  for (int s = 0; s < kStreams; ++s) {
    double sum = 0;
    for (int i = 0; i < kSlice; ++i) sum += h[s * kSlice + i];
    std::printf("stream %d: sum %.1f, callbacks %d\n", s, sum, finished[s]);
    right = right && sum == 3.0 * (s + 1) * kSlice && finished[s] == 11;
  }
  CHECK(cudaEventDestroy(first_done));
  for (auto& s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  return right ? 0 : 1;
}
