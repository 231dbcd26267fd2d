// A study program for grading's memory limit (issue 58): which of the kernel's accounts see
// page-locked host memory. It allocates GiB of it three ways and prints, after each, the
// process's VmRSS, VmLck, VmPin and RssShmem (/proc/self/status), its cgroup's memory.current
// and whether that cgroup's memory.max could be written, and RLIMIT_DATA/RLIMIT_MEMLOCK.
//   pinned_accounting [GIB]   (default 2)
// Exit 0, or 1 with the CUDA error on stderr. Not a lab and not a test: it checks nothing.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <cuda_runtime.h>

namespace {

std::string status_field(const char* name) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name, 0) == 0) return line.substr(line.find_first_not_of(" \t", std::strlen(name) + 1));
  return "?";
}

std::string cgroup_file(const char* file) {
  std::ifstream cg("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(cg, line))
    if (line.rfind("0::", 0) == 0) path = "/sys/fs/cgroup" + line.substr(3);
  std::ifstream in(path + "/" + file);
  std::string value;
  return std::getline(in, value) ? value : "(none at " + path + ")";
}

void report(const char* after) {
  std::printf("%-34s VmRSS %-12s VmLck %-10s VmPin %-10s RssShmem %-12s memory.current %s\n", after,
              status_field("VmRSS:").c_str(), status_field("VmLck:").c_str(), status_field("VmPin:").c_str(),
              status_field("RssShmem:").c_str(), cgroup_file("memory.current").c_str());
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t bytes = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2) << 30;
  struct rlimit data {}, memlock {};
  ::getrlimit(RLIMIT_DATA, &data);
  ::getrlimit(RLIMIT_MEMLOCK, &memlock);
  std::printf("RLIMIT_DATA %llu, RLIMIT_MEMLOCK %llu, cgroup memory.max %s, writable %s\n",
              static_cast<unsigned long long>(data.rlim_cur), static_cast<unsigned long long>(memlock.rlim_cur),
              cgroup_file("memory.max").c_str(), ::access("/sys/fs/cgroup/cgroup.subtree_control", W_OK) == 0 ? "yes" : "no");
  if (!check(cudaFree(nullptr), "cudaFree(0)")) return 1;
  report("after the context");
  void* host_alloc = nullptr;
  if (!check(cudaMallocHost(&host_alloc, bytes), "cudaMallocHost")) return 1;
  std::memset(host_alloc, 1, bytes);
  report("after cudaMallocHost, touched");
  void* registered = std::malloc(bytes);
  std::memset(registered, 1, bytes);
  report("after malloc, touched");
  if (!check(cudaHostRegister(registered, bytes, cudaHostRegisterDefault), "cudaHostRegister")) return 1;
  report("after cudaHostRegister");
  void* portable = nullptr;
  if (!check(cudaHostAlloc(&portable, bytes, cudaHostAllocPortable | cudaHostAllocMapped), "cudaHostAlloc")) return 1;
  report("after cudaHostAlloc (mapped), untouched");
  cudaFreeHost(host_alloc);
  cudaHostUnregister(registered);
  std::free(registered);
  cudaFreeHost(portable);
  report("after freeing all");
  return 0;
}
