#pragma once
/// @file
/// The toolchain `labbook grade` builds student code with: nvcc inside the sandbox, then the
/// object inspected outside it (readelf, objdump) against the allow-list
/// (submission_check.h).
#include <memory>
#include <string>

#include "grade_pipeline.h"

namespace labbook::grading {

/// Where labbook's own tools and files are.
struct ToolPaths {
  std::string nvcc;              ///< the CUDA compiler; its folder goes on the sandbox's PATH
  std::string arch;              ///< nvcc's -arch for student code, e.g. "sm_90"
  std::string data_dir;          ///< labs/common, kernels, grading/allowed_symbols.toml: sources or installed
  std::string collector_dir;     ///< the collector library's folder
  std::string cupti_dir;         ///< CUPTI's libraries
};

/// Builds in sandboxes run by `runner`.
std::unique_ptr<Toolchain> nvcc_toolchain(const ToolPaths& paths, Runner& runner);

}  // namespace labbook::grading
