// Lab 2 — host–device transfers: pageable, pinned, registered and write-combined copies, what
// pinned memory costs to allocate, streams, mapped (zero-copy) memory, UVA and unified memory.
//
// Reproduces the transfer experiments of 004_12112d3317679e06.txt (the matrix products with
// their nvprof tables, cudaHostRegister, write-combined memory, writes to mapped memory),
// 003_c67e0f909fb510d6.txt (pinned memory and its allocation cost, zero-copy, UVA, unified
// memory, a static __managed__ variable) and 000_e84d1941bb8bbaf9.txt (cudaMemcpy /
// cudaMemcpyAsync, streams) on today's GPU. Every experiment is one NVTX range such as
// "copy/pinned/h2d/bytes=4096"; what the host times itself (an allocation, a CPU read) is the
// payload of a range such as "alloc/pinned/allocate/bytes=1048576". Every result is checked
// on the host. Runs on its own; labbook only watches it.
//
//   lab2_transfers [--repeat R] [--only TEXT] [--max-bytes B] [--n N] [--products P]
//                  [--max-elements E] [--um-side S] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <cstdio>
#include <string>

#include "allocation_costs.cuh"
#include "arguments.h"
#include "copies.cuh"
#include "cpu_reads.cuh"
#include "cuda_check.h"
#include "lab_run.h"
#include "managed_variable.cuh"
#include "matrix_products.cuh"
#include "pcie_link.h"
#include "unified_memory.cuh"
#include "zero_copy.cuh"

namespace {

using labbook::lab::Options;

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab2_transfers",
                               "[--repeat R] [--only TEXT] [--max-bytes B] [--n N] [--products P] [--max-elements E] "
                               "[--um-side S] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--repeat") o.repeat = args.number<int>(1, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--max-bytes") o.max_copy_bytes = args.number<std::size_t>(4096, 1ull << 32);
    else if (args.flag() == "--n") o.mmm_n = args.number<unsigned>(16, 16384);
    else if (args.flag() == "--products") o.products = args.number<unsigned>(1, 64);
    else if (args.flag() == "--max-elements") o.max_elements = args.number<std::size_t>(1024, 1ull << 28);
    else if (args.flag() == "--um-side") o.um_side = args.number<unsigned>(32, 16384);
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  if (o.mmm_n % labbook::kernels::kMmmTile != 0) args.fail("--n must be a multiple of 16 (the tile edge)");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  std::printf("lab 2 on %s (CC %d.%d), unified addressing: %s, integrated: %s, async engines: %d\n", prop.name,
              prop.major, prop.minor, prop.unifiedAddressing ? "yes" : "no", prop.integrated ? "yes" : "no",
              prop.asyncEngineCount);
  labbook::lab::print_pcie_link(labbook::lab::query_pcie_link(0));
  std::printf("\n%-44s %13s  %-22s %s\n", "experiment (NVTX range)", "time", "", "check");

  labbook::lab::Run run(opt);
  labbook::lab::run_copies(run, labbook::lab::HostKind::Pageable, /*with_device_copies=*/false);
  labbook::lab::run_copies(run, labbook::lab::HostKind::Pinned, /*with_device_copies=*/true);
  labbook::lab::run_registered_copies(run);
  labbook::lab::run_write_combined_copies(run);
  labbook::lab::run_allocation_costs(run);
  {
    labbook::lab::MatrixProducts products(run);
    products.run_all();
  }
  labbook::lab::run_zero_copy(run);
  labbook::lab::run_cpu_reads(run);
  labbook::lab::run_unified_memory(run);
  labbook::lab::run_managed_variable(run);
  return run.finish();
}
