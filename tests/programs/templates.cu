// Kernels whose names are awkward to take apart once demangled: one template launched for
// three types, a template with a type and an int parameter, a kernel in an anonymous
// namespace, a kernel templated on a functor and a pointer type, one templated on a pointer
// to a user-defined operator| (so its name holds a '|'), and a __device__ lambda passed to
// a template kernel. Needs nvcc --extended-lambda.
//   templates       prints one sum per kernel; exit 0 when every result is right, 1 otherwise.
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef __CUDACC_EXTENDED_LAMBDA__
#error "compile with nvcc --extended-lambda"
#endif

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kN = 1 << 16, kThreads = 256, kBlocks = kN / kThreads;

template <class T>
__global__ void testKernel(T* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = static_cast<T>(data[i] * 2 + 1);
}

// Each output is the sum of N neighbouring inputs.
template <class T, int N>
__global__ void k(T* out, const T* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T sum = 0;
  for (int j = 0; j < N; ++j) sum += in[i * N + j];
  out[i] = sum;
}

namespace {
__global__ void negate(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = -data[i];
}
}  // namespace

struct Scale {
  float factor;
  __host__ __device__ float operator()(float x) const { return x * factor; }
};

template <class Op, class Ptr>
__global__ void apply(Op op, Ptr data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = op(data[i]);
}

enum Color : unsigned { kRed = 1, kGreen = 2, kBlue = 4 };

__host__ __device__ Color operator|(Color a, Color b) {
  return static_cast<Color>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

template <Color (*Combine)(Color, Color)>
__global__ void mix(Color* out, const Color* a, const Color* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Combine(a[i], b[i]);
}

template <class F>
__global__ void forEach(int n, F f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

// Copies `host` to the GPU, runs `launch` on the copy, brings it back.
template <class T, class Launch>
std::vector<T> runOnGpu(const std::vector<T>& host, Launch launch) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, host.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  launch(d);
  CHECK(cudaGetLastError());
  std::vector<T> result(host.size());
  CHECK(cudaMemcpy(result.data(), d, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  return result;
}

int failures = 0;

template <class T>
void report(const char* name, const std::vector<T>& got, const std::vector<T>& want) {
  double sum = 0;
  for (T v : got) sum += static_cast<double>(v);
  const bool right = got == want;
  if (!right) ++failures;
  std::printf("%s: sum %.1f%s\n", name, sum, right ? "" : " WRONG");
}

template <class T>
void runTestKernel(const char* name, int modulo, int shift) {
  std::vector<T> host(kN), want(kN);
  for (int i = 0; i < kN; ++i) host[i] = static_cast<T>(i % modulo - shift);
  for (int i = 0; i < kN; ++i) want[i] = static_cast<T>(host[i] * 2 + 1);
  report(name, runOnGpu(host, [](T* d) { testKernel<T><<<kBlocks, kThreads>>>(d, kN); }), want);
}

int main() {
  runTestKernel<unsigned char>("testKernel<unsigned char>", 100, 0);
  runTestKernel<float>("testKernel<float>", 1000, 0);
  runTestKernel<int>("testKernel<int>", 1000, 500);

  std::vector<float> in(4 * kN), sums(kN), want(kN);
  for (int i = 0; i < 4 * kN; ++i) in[i] = static_cast<float>(i % 10);
  for (int i = 0; i < kN; ++i) want[i] = in[4 * i] + in[4 * i + 1] + in[4 * i + 2] + in[4 * i + 3];
  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, sums.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  k<float, 4><<<kBlocks, kThreads>>>(d_out, d_in, kN);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sums.data(), d_out, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  report("k<float, 4>", sums, want);

  std::vector<int> ints(kN), negated(kN);
  for (int i = 0; i < kN; ++i) negated[i] = -(ints[i] = i % 777);
  report("negate", runOnGpu(ints, [](int* d) { negate<<<kBlocks, kThreads>>>(d, kN); }), negated);

  std::vector<float> floats(kN), scaled(kN);
  const Scale half{0.5f};
  for (int i = 0; i < kN; ++i) scaled[i] = half(floats[i] = static_cast<float>(i % 64));
  report("apply<Scale, float*>", runOnGpu(floats, [&](float* d) { apply<Scale, float*><<<kBlocks, kThreads>>>(half, d, kN); }), scaled);

  std::vector<Color> a(kN), b(kN), mixed(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = i % 2 ? kRed : kGreen;
    b[i] = i % 3 ? kRed : kBlue;
    mixed[i] = a[i] | b[i];
  }
  Color* d_b = nullptr;
  CHECK(cudaMalloc(&d_b, kN * sizeof(Color)));
  CHECK(cudaMemcpy(d_b, b.data(), kN * sizeof(Color), cudaMemcpyHostToDevice));
  report("mix<&operator|>", runOnGpu(a, [&](Color* d) { mix<&operator|><<<kBlocks, kThreads>>>(d, d, d_b, kN); }), mixed);
  CHECK(cudaFree(d_b));

  std::vector<int> multiples(kN), got(kN);
  for (int i = 0; i < kN; ++i) multiples[i] = 3 * i % 1000;
  int* d_m = nullptr;
  CHECK(cudaMalloc(&d_m, kN * sizeof(int)));
  forEach<<<kBlocks, kThreads>>>(kN, [=] __device__(int i) { d_m[i] = 3 * i % 1000; });
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), d_m, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_m));
  report("forEach<lambda>", got, multiples);

  std::printf("templates: %s\n", failures ? "WRONG" : "all results right");
  return failures ? 1 : 0;
}
