#pragma once
// ProgressBar: how far a batch (building or running a class's submissions) has got, on
// stderr: a bar redrawn in place on a terminal, one line per step otherwise (logs, CI).
#include <cstddef>
#include <string>

namespace labbook::cli {

class ProgressBar {
 public:
  ProgressBar(std::string phase, std::size_t total);
  /// One more item done; `result` says how it went ("built", "87.50 / 100.00").
  void step(const std::string& item, const std::string& result);
  /// Ends the bar's line on a terminal.
  void done();

 private:
  std::string phase_;
  std::size_t total_, done_ = 0;
  bool terminal_;
};

}  // namespace labbook::cli
