#include "graph_node_copy.h"

#include <cstddef>

#include "driver_status.h"

namespace labbook::profiler {

namespace {

/// A kernel's parameters, by index: through its CUkernel where the node names one (the
/// runtime hands the driver CUkernels, possibly cast to CUfunction), else its CUfunction.
struct ParameterInfo {
  CUfunction function = nullptr;
  CUkernel kernel = nullptr;
  CUresult get(std::size_t index, std::size_t& offset, std::size_t& size) const {
    return kernel ? cuKernelGetParamInfo(kernel, index, &offset, &size)
                  : cuFuncGetParamInfo(function, index, &offset, &size);
  }
};

}  // namespace

std::string copy_kernel(const CUDA_KERNEL_NODE_PARAMS& p, CUfunction& function, unsigned (&grid)[3],
                        unsigned (&block)[3], unsigned& shared_bytes,
                        std::vector<std::vector<unsigned char>>& arguments) {
  if (p.extra) return "a kernel node whose arguments are passed through 'extra'";
  if (!p.func && p.ctx) {   // the context is ignored when func is set
    CUcontext current = nullptr;
    cuCtxGetCurrent(&current);
    if (p.ctx != current) return "a kernel node bound to another context";
  }
  CUfunction f = p.func;
  if (!f && p.kern) {
    if (CUresult r = cuKernelGetFunction(&f, p.kern); r != CUDA_SUCCESS) return describe_driver_call("cuKernelGetFunction", r);
  }
  if (!f) return "a kernel node without a function";
  ParameterInfo info{f, p.kern};
  std::size_t offset = 0, size = 0;
  if (!info.kernel && info.get(0, offset, size) != CUDA_SUCCESS &&
      cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), 0, &offset, &size) == CUDA_SUCCESS)
    info.kernel = reinterpret_cast<CUkernel>(f);   // a CUkernel passed as a CUfunction
  std::vector<std::vector<unsigned char>> copied;
  for (std::size_t i = 0;; ++i) {
    const CUresult r = info.get(i, offset, size);
    if (r == CUDA_ERROR_INVALID_VALUE) break;   // past the last parameter
    if (r != CUDA_SUCCESS) return describe_driver_call("cuFuncGetParamInfo", r);
    if (!p.kernelParams || !p.kernelParams[i]) return "a kernel node without its arguments";
    const auto* bytes = static_cast<const unsigned char*>(p.kernelParams[i]);
    copied.emplace_back(bytes, bytes + size);
  }
  function = f;
  grid[0] = p.gridDimX, grid[1] = p.gridDimY, grid[2] = p.gridDimZ;
  block[0] = p.blockDimX, block[1] = p.blockDimY, block[2] = p.blockDimZ;
  shared_bytes = p.sharedMemBytes;
  arguments = std::move(copied);
  return "";
}

std::string copy_attributes(CUgraphNode node, CUfunction function, std::vector<CUlaunchAttribute>& attributes) {
  const auto get = [&](CUlaunchAttributeID id, CUlaunchAttributeValue& v) {
    v = CUlaunchAttributeValue{};
    return cuGraphKernelNodeGetAttribute(node, id, &v) == CUDA_SUCCESS;
  };
  const auto keep = [&](CUlaunchAttributeID id, const CUlaunchAttributeValue& v) {
    CUlaunchAttribute a{};
    a.id = id;
    a.value = v;
    attributes.push_back(a);
  };
  attributes.clear();
  CUlaunchAttributeValue v;
  if (get(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, v) && v.deviceUpdatableKernelNode.deviceUpdatable)
    return "a kernel node updated from the device";
  if (get(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, v) && v.accessPolicyWindow.num_bytes > 0)
    keep(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, v);
  if (get(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, v) && v.cooperative) keep(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, v);
  int compiled_cluster = 0;
  cuFuncGetAttribute(&compiled_cluster, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, function);
  if (compiled_cluster == 0 && get(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, v) &&
      v.clusterDim.x * v.clusterDim.y * v.clusterDim.z > 1)
    keep(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, v);
  if (get(CU_LAUNCH_ATTRIBUTE_PRIORITY, v) && v.priority != 0) keep(CU_LAUNCH_ATTRIBUTE_PRIORITY, v);
  return "";
}

}  // namespace labbook::profiler
