#pragma once
/// @file
/// Where labbook's own files are at run time: its two executables, the collector, the labs'
/// programs and the labs' data. The one place that knows; nothing else in labbook names a build
/// or source path.
#include <string>

namespace labbook::cli {

struct InstallLayout {
  std::string labbook;        ///< the labbook executable
  std::string grader;         ///< labbook-grade, which `labbook grade` runs
  std::string collector;      ///< libcupti-collector.so, injected into every profiled program
  std::string lab_programs;   ///< folder of the labs' executables (lab.toml's `program`)
  /// Folder holding labs/ (lab.toml, recordings, exercises, labs/common), kernels/ and
  /// grading/allowed_symbols.toml: the source tree in a build, PREFIX/share/labbook installed.
  std::string data;
  std::string labs() const { return data + "/labs"; }
};

/// The layout of this labbook: relative to its own executable when installed, the build and
/// source trees when it is one of the build folder's executables. Found once.
const InstallLayout& install_layout();

}  // namespace labbook::cli
