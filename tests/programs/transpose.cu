// A matrix transpose written the way CUDA tutorials write it, with no NVTX and nothing
// of labbook in it: the GPU tests profile it as "any CUDA program". Four kernels: a plain
// copy (the bandwidth ceiling), a naive transpose (uncoalesced writes), a shared-memory tile
// (coalesced, 32-way bank conflicts on the column read) and a padded tile (no conflicts),
// plus a kernel staging data in a local array (local memory traffic).
//   transpose [N]   N x N floats, N a multiple of 32 (default 2048). Exit 0 when every
//                   result is right, 1 otherwise.
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

constexpr int kTile = 32, kRows = 8;   // 32x32 tile, 32x8 threads, 4 elements per thread

__global__ void copy(float* out, const float* in, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void transposeNaive(float* out, const float* in, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int Pad>
__global__ void transposeShared(float* out, const float* in, int n) {
  __shared__ float tile[kTile][kTile + Pad];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Reverses each row segment of 32 through a local array indexed at run time, which the
// compiler must keep in local memory.
__global__ void reverseThroughLocal(float* out, const float* in, int n, int stride) {
  float buffer[32];
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  if (base + 32 > n * n) return;
  for (int i = 0; i < 32; ++i) buffer[(i * stride) & 31] = in[base + i];
  for (int i = 0; i < 32; ++i) out[base + i] = buffer[(31 - i) * stride & 31];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  if (n <= 0 || n % kTile != 0) {
    std::fprintf(stderr, "transpose: N must be a positive multiple of %d\n", kTile);
    return 2;
  }
  const size_t count = static_cast<size_t>(n) * n, bytes = count * sizeof(float);
  std::vector<float> host(count), result(count);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>(i % 9973);

  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  const dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  int failures = 0;
  auto check = [&](const char* name, bool transposed) {
    CHECK(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost));
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const float want = transposed ? host[static_cast<size_t>(x) * n + y] : host[static_cast<size_t>(y) * n + x];
        if (result[static_cast<size_t>(y) * n + x] != want) {
          std::fprintf(stderr, "%s: wrong value at (%d, %d)\n", name, x, y);
          ++failures;
          return;
        }
      }
  };
  CHECK(cudaMemset(out, 0, bytes));
  copy<<<grid, block>>>(out, in, n);
  check("copy", false);
  transposeNaive<<<grid, block>>>(out, in, n);
  check("transposeNaive", true);
  transposeShared<0><<<grid, block>>>(out, in, n);
  check("transposeShared<0>", true);
  transposeShared<1><<<grid, block>>>(out, in, n);
  check("transposeShared<1>", true);

  const int threads = static_cast<int>(count / 32);
  reverseThroughLocal<<<(threads + 255) / 256, 256>>>(out, in, n, argc > 2 ? std::atoi(argv[2]) : 1);
  CHECK(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < count && failures == 0; ++i)
    if (result[i] != host[(i / 32) * 32 + 31 - i % 32]) {
      std::fprintf(stderr, "reverseThroughLocal: wrong value at %zu\n", i);
      ++failures;
    }
  CHECK(cudaGetLastError());
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("transpose %dx%d: %s\n", n, n, failures ? "WRONG" : "all results right");
  return failures ? 1 : 0;
}
