// Lab 7 — memory layouts: pitched 2-D and 3-D memory, CUDA arrays and textures, constant
// memory, and every copy function between them.
//
// Follows 000_e84d1941bb8bbaf9.txt (chapter V « La mémoire », V-B to V-F),
// 001_a3a2ccee8305185b.txt (cudaMallocPitch, cudaMalloc3D, cudaExtent, cudaPitchedPtr) and
// 004_12112d3317679e06.txt (constant memory). Every experiment is one NVTX range such as
// "rows/pitched"; numbers found on the host (a pitch, a size) travel as the range's payload;
// every result is checked on the host, bit for bit. Runs on its own; labbook only watches it.
//
//   lab7_layouts [--width W] [--height H] [--side S] [--repeat R] [--only TEXT] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <cstdio>

#include "allocation_facts.cuh"
#include "arguments.h"
#include "constant_reads.cuh"
#include "copies.cuh"
#include "cuda_check.h"
#include "host_memory.h"
#include "lab_run.h"
#include "pitched_layouts.cuh"
#include "random_data.h"
#include "stencil.cuh"

namespace {

labbook::lab::Options parse_options(int argc, char** argv) {
  labbook::lab::Options o;
  labbook::lab::Arguments args(argc, argv, "lab7_layouts",
                               "[--width W] [--height H] [--side S] [--repeat R] [--only TEXT] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--width") o.width = args.number<unsigned>(2, 65536);
    else if (args.flag() == "--height") o.height = args.number<unsigned>(2, 65536);
    else if (args.flag() == "--side") o.side = args.number<unsigned>(8, 1024);
    else if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace labbook::lab;
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = require_gpu();
  std::printf("lab 7 on %s (CC %d.%d): %zu bytes of constant memory, texture pitch alignment %zu, max pitch %zu; "
              "image %u x %u floats, volumes of %u^3 floats, %d calls per experiment\n",
              prop.name, prop.major, prop.minor, prop.totalConstMem, prop.texturePitchAlignment, prop.memPitch, opt.width,
              opt.height, opt.side, 1 + opt.repeat);

  LabRun run(opt);
  HostMemory<float> image(HostKind::Pinned, std::size_t{opt.width} * opt.height);
  RandomFloats random(opt.seed);
  for (std::size_t i = 0; i < image.size(); ++i) image[i] = random.next();

  allocation_facts(run);
  pitch_sweep(run, prop);
  rows(run, image);
  volumes(run, opt.seed + 1);
  copies_2d(run, image);
  copies_symbol(run);
  copies_3d(run, opt.seed + 2);
  copy_returns(run);
  call_errors(run, prop);
  stencils(run, image);
  constant_reads(run, prop);
  return run.finish();
}
