#pragma once
/// @file
/// HostTablesPreload: loads a chip's metric tables on a thread of its own while the program
/// starts. A process's first Profiler Host object costs about 0.3 s (GH100: CUPTI loads the
/// chip's tables), later ones a few ms (docs/performance.md), so a metrics run that knows its
/// chip from an earlier run (CollectorRun::chip) pays that while the program creates its
/// context and data, not at its first profiled launch.
#include <string>
#include <thread>

struct CUpti_Profiler_Host_Object;

namespace labbook::profiler {

class HostTablesPreload {
 public:
  /// Starts loading `chip`'s tables ("GH100"); without a thread to be had, loads nothing.
  explicit HostTablesPreload(std::string chip);
  /// Waits for the thread and releases its host object: call after the profiler has made its
  /// own (the tables stay loaded while one object holds them), and before the process's end.
  ~HostTablesPreload();
  HostTablesPreload(const HostTablesPreload&) = delete;
  HostTablesPreload& operator=(const HostTablesPreload&) = delete;

  /// Waits until the tables are loaded (or failed to: the profiler's own host object then says
  /// why), so that the Profiler Host API is never called from two threads at once.
  void wait();
  const std::string& chip() const { return chip_; }
  /// Seconds the load took on its thread, and seconds wait() blocked (valid after wait()).
  double load_seconds() const { return load_seconds_; }
  double waited_seconds() const { return waited_seconds_; }

 private:
  std::string chip_;
  std::thread thread_;
  CUpti_Profiler_Host_Object* host_ = nullptr;   // written by thread_, read after joining it
  double load_seconds_ = 0, waited_seconds_ = 0;
};

}  // namespace labbook::profiler
