// A program that exercises what a profiler must attribute correctly: two host threads, each
// with its own stream and NVTX push/pop ranges (and its own GPU when there are two), a
// process-wide nvtxRangeStart/End range, pageable and pinned copies, a memset, and managed
// memory touched by host and GPU (migrations and page faults). It can also end badly on
// purpose, to test that a collector keeps what it saw:
//   threads_streams [--launches N] [--crash-after K | --exit-after K]
// --crash-after K writes through a null pointer after K kernels of the main thread;
// --exit-after K calls exit(3) there. Exit 0 when every result is right.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void increment(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

constexpr int kElements = 1 << 20;

// One worker: its own stream, `launches` kernels inside "workerW/scale", pinned copies.
bool worker(int id, int device, int launches) {
  CHECK(cudaSetDevice(device));
  const std::string name = "worker" + std::to_string(id);
  nvtxRangePushA(name.c_str());
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  float *d = nullptr, *h = nullptr;
  CHECK(cudaMalloc(&d, kElements * sizeof(float)));
  CHECK(cudaMallocHost(&h, kElements * sizeof(float)));
  for (int i = 0; i < kElements; ++i) h[i] = 1.0f;
  CHECK(cudaMemcpyAsync(d, h, kElements * sizeof(float), cudaMemcpyHostToDevice, stream));
  // The range carries its launch count as an NVTX payload, as tools' users annotate ranges.
  nvtxEventAttributes_t scale_range{};
  scale_range.version = NVTX_VERSION;
  scale_range.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  scale_range.messageType = NVTX_MESSAGE_TYPE_ASCII;
  scale_range.message.ascii = "scale";
  scale_range.payloadType = NVTX_PAYLOAD_TYPE_INT32;
  scale_range.payload.iValue = launches;
  nvtxRangePushEx(&scale_range);
  for (int l = 0; l < launches; ++l) scale<<<kElements / 256, 256, 0, stream>>>(d, kElements, 2.0f);
  nvtxRangePop();
  CHECK(cudaMemcpyAsync(h, d, kElements * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  const bool right = h[kElements - 1] == static_cast<float>(1 << launches);
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  CHECK(cudaStreamDestroy(stream));
  nvtxRangePop();
  return right;
}

int main(int argc, char** argv) {
  int launches = 4, crash_after = -1, exit_after = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--launches")) launches = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--crash-after")) crash_after = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--exit-after")) exit_after = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: threads_streams [--launches N] [--crash-after K | --exit-after K]\n");
      return 2;
    }
  }
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  const nvtxRangeId_t whole = nvtxRangeStartA("whole program");

  // Main thread: pageable copies, a memset and `launches` kernels in "main/scale"; it may
  // end the program early here.
  nvtxRangePushA("main");
  std::vector<float> host(kElements, 1.0f);
  float* d = nullptr;
  CHECK(cudaMalloc(&d, kElements * sizeof(float)));
  CHECK(cudaMemset(d, 0, kElements * sizeof(float)));
  CHECK(cudaMemcpy(d, host.data(), kElements * sizeof(float), cudaMemcpyHostToDevice));
  nvtxRangePushA("scale");
  for (int l = 0; l < launches; ++l) {
    if (l == crash_after) {
      CHECK(cudaDeviceSynchronize());
      std::fflush(stdout);
      volatile int* null = nullptr;
      *null = 1;
    }
    if (l == exit_after) {
      CHECK(cudaDeviceSynchronize());
      std::exit(3);
    }
    scale<<<kElements / 256, 256>>>(d, kElements, 2.0f);
  }
  nvtxRangePop();
  CHECK(cudaMemcpy(host.data(), d, kElements * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  nvtxRangePop();
  bool right = host[0] == static_cast<float>(1 << launches);

  bool worker_right[2] = {false, false};
  std::thread t0([&] { worker_right[0] = worker(0, 0, launches); });
  std::thread t1([&] { worker_right[1] = worker(1, devices > 1 ? 1 : 0, launches); });
  t0.join();
  t1.join();
  right = right && worker_right[0] && worker_right[1];

  // Managed memory: written on the host, incremented on the GPU, read on the host.
  nvtxRangePushA("managed");
  int* managed = nullptr;
  CHECK(cudaMallocManaged(&managed, kElements * sizeof(int)));
  for (int i = 0; i < kElements; ++i) managed[i] = i;
  increment<<<kElements / 256, 256>>>(managed, kElements);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < kElements; ++i) right = right && managed[i] == i + 1;
  CHECK(cudaFree(managed));
  nvtxRangePop();

  nvtxRangeEnd(whole);
  std::printf("threads_streams: %s (%d GPU%s)\n", right ? "all results right" : "WRONG", devices, devices > 1 ? "s" : "");
  return right ? 0 : 1;
}
