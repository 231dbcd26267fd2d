#pragma once
/// @file
/// Copies of what a graph's kernel node launches (function, shape, the bytes of every argument)
/// and of the launch attributes that change what it computes, for graph replay to launch the
/// node itself after the program's graph and its arguments are gone. Driver API only.
#include <string>
#include <vector>

#include <cuda.h>

namespace labbook::profiler {

/// Copies a kernel node's launch: function, shape and the bytes of every argument; "" or why
/// it cannot be copied (the outputs then left as they were).
std::string copy_kernel(const CUDA_KERNEL_NODE_PARAMS& p, CUfunction& function, unsigned (&grid)[3],
                        unsigned (&block)[3], unsigned& shared_bytes,
                        std::vector<std::vector<unsigned char>>& arguments);

/// The launch attributes a kernel node sets that change what or how it computes. A node
/// updated from the device cannot be copied; a cluster size compiled into the kernel must not
/// be given again at launch. "" or why the node cannot be copied.
std::string copy_attributes(CUgraphNode node, CUfunction function, std::vector<CUlaunchAttribute>& attributes);

}  // namespace labbook::profiler
