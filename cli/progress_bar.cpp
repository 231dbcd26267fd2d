#include "progress_bar.h"

#include <unistd.h>

#include <cstdio>

namespace labbook::cli {

namespace {
constexpr std::size_t kWidth = 30;
}

ProgressBar::ProgressBar(std::string phase, std::size_t total)
    : phase_(std::move(phase)), total_(total), terminal_(::isatty(STDERR_FILENO) == 1) {}

void ProgressBar::step(const std::string& item, const std::string& result) {
  ++done_;
  if (!terminal_) {
    std::fprintf(stderr, "[%zu/%zu] %s %s: %s\n", done_, total_, phase_.c_str(), item.c_str(), result.c_str());
    return;
  }
  const std::size_t filled = total_ ? kWidth * done_ / total_ : kWidth;
  std::fprintf(stderr, "\r%-8s [%s%s] %zu/%zu  %s: %s\033[K", phase_.c_str(), std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), done_, total_, item.c_str(), result.c_str());
  std::fflush(stderr);
}

void ProgressBar::done() {
  if (terminal_ && done_ > 0) std::fputc('\n', stderr);
}

}  // namespace labbook::cli
