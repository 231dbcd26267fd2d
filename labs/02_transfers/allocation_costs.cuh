#pragma once
// Experiment 2: what page-locked memory costs to get and to give back
// (003_c67e0f909fb510d6.txt: « L'allocation et la désallocation sont plus coûteuses que pour
// la mémoire paginée »), timed on the host for 1 MiB, 64 MiB and 256 MiB. Every variant ends
// its allocation with one store per page, so that each hands the program memory it can use
// without a page fault:
//   alloc/pageable    malloc + one store per page (the operating system maps a zeroed page on
//                     each first touch) | free
//   alloc/pinned      cudaMallocHost + one store per page | cudaFreeHost
//   alloc/registered  malloc + one store per page + cudaHostRegister | cudaHostUnregister + free
// The variant's range holds all its cycles (1 + repeat per size, 20 for 1 MiB); after each
// size, empty ranges inside it carry each cycle's times, in ns, as their payloads (the report
// takes their median, and their spread is the noise a claim is decided against):
//   alloc/<variant>/allocate/bytes=N   from the first call to the last page's store
//   alloc/<variant>/free/bytes=N       the release
// Each cycle checks, untimed, that the runtime sees the memory as it should: page-locked host
// memory (cudaMemoryTypeHost) for pinned and registered, unregistered for malloc's.
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "host_timer.h"
#include "lab_run.h"

namespace labbook::lab {

namespace allocation {

/// The host's page size (4 KiB on x86-64 Linux).
inline std::size_t page_bytes() {
  static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

/// One store per page of [p, p + bytes): the first touch, on which the operating system maps
/// a zeroed physical page behind each virtual one. The stores are volatile so that the
/// compiler keeps them even when the memory is freed right after.
inline void touch_pages(void* p, std::size_t bytes) {
  volatile char* c = static_cast<volatile char*>(p);
  for (std::size_t i = 0; i < bytes; i += page_bytes()) c[i] = 1;
  if (bytes) c[bytes - 1] = 1;   // the last page, when p does not start a page
}

/// malloc that exits the lab when the system has no memory left.
inline void* checked_malloc(std::size_t bytes) {
  void* p = std::malloc(bytes);
  if (!p) {
    std::fprintf(stderr, "malloc of %zu bytes failed\n", bytes);
    std::exit(1);
  }
  return p;
}

/// One way to get host memory and give it back.
struct Variant {
  const char* name;
  void* (*allocate)(std::size_t bytes);   ///< returns memory with every page stored to
  void (*release)(void* p);
  cudaMemoryType expected;                ///< what cudaPointerGetAttributes must say in between
};

inline void* allocate_pageable(std::size_t bytes) {
  void* p = checked_malloc(bytes);
  touch_pages(p, bytes);
  return p;
}
inline void release_pageable(void* p) { std::free(p); }

inline void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  CUDA_CHECK(cudaMallocHost(&p, bytes));
  touch_pages(p, bytes);
  return p;
}
inline void release_pinned(void* p) { CUDA_CHECK(cudaFreeHost(p)); }

inline void* allocate_registered(std::size_t bytes) {
  void* p = checked_malloc(bytes);
  touch_pages(p, bytes);
  CUDA_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
  return p;
}
inline void release_registered(void* p) {
  CUDA_CHECK(cudaHostUnregister(p));
  std::free(p);
}

inline const Variant kVariants[] = {
    {"pageable", allocate_pageable, release_pageable, cudaMemoryTypeUnregistered},
    {"pinned", allocate_pinned, release_pinned, cudaMemoryTypeHost},
    {"registered", allocate_registered, release_registered, cudaMemoryTypeHost},
};

inline const std::size_t kSizes[] = {std::size_t{1} << 20, std::size_t{64} << 20, std::size_t{256} << 20};

inline std::string path(const Variant& v, const char* step, std::size_t bytes) {
  return std::string("alloc/") + v.name + "/" + step + "/bytes=" + std::to_string(bytes);
}

/// Small allocations are quick and noisy: more cycles.
inline int cycles(const Run& run, std::size_t bytes) { return bytes < (std::size_t{64} << 20) ? 20 : 1 + run.opt.repeat; }

}  // namespace allocation

inline void run_allocation_costs(Run& run) {
  using allocation::kSizes;
  for (const auto& v : allocation::kVariants) {
    std::vector<std::string> paths;
    for (auto bytes : kSizes)
      for (const char* step : {"allocate", "free"}) paths.push_back(allocation::path(v, step, bytes));
    if (!run.any_selected(paths)) continue;
    NvtxPath variant_range(std::string("alloc/") + v.name);
    for (auto bytes : kSizes) {
      const std::string allocate_path = allocation::path(v, "allocate", bytes), free_path = allocation::path(v, "free", bytes);
      if (!run.any_selected({allocate_path, free_path})) continue;
      std::vector<double> allocate_ns, free_ns;
      bool right = true;
      for (int c = 0; c < allocation::cycles(run, bytes); ++c) {
        void* p = nullptr;
        allocate_ns.push_back(host_ns([&] { p = v.allocate(bytes); }));
        cudaPointerAttributes attributes{};
        CUDA_CHECK(cudaPointerGetAttributes(&attributes, p));
        right = right && attributes.type == v.expected;
        free_ns.push_back(host_ns([&] { v.release(p); }));
      }
      if (!right)
        std::fprintf(stderr, "alloc/%s: cudaPointerGetAttributes did not report the memory as %s\n", v.name,
                     v.expected == cudaMemoryTypeHost ? "page-locked host memory" : "unregistered");
      const std::string size = "bytes=" + std::to_string(bytes);
      for (double ns : allocate_ns) {
        NvtxRange step("allocate");
        NvtxRange cycle(size, ns);
      }
      for (double ns : free_ns) {
        NvtxRange step("free");
        NvtxRange cycle(size, ns);
      }
      run.add({allocate_path, median(allocate_ns) / 1e6, "", right});
      run.add({free_path, median(free_ns) / 1e6, "", right});
    }
  }
}

}  // namespace labbook::lab
