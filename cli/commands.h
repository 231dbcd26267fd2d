#pragma once
// The CLI's subcommands; each returns the process exit code and throws labbook::Error for
// failures the user should read about.
#include <string>
#include <vector>

namespace labbook::cli {

struct RunOptions {
  std::string lab;
  std::string out_dir = "reports";
  bool force_recorded = false;
  std::vector<std::string> lab_args;
};
int run_lab(const RunOptions&);

struct RenderOptions {
  std::string lab;
  std::string measurement;
  std::string out_dir = "reports";
  std::string note;
};
int render_lab(const RenderOptions&);

struct ProfileOptions {
  std::vector<std::string> metrics;
  std::string out_dir;
  std::vector<std::string> command;
};
int profile(const ProfileOptions&);

/// The catalog; with `lab`, that lab's CUPTI metrics as one comma-separated line.
int list_metrics(const std::string& lab);

}  // namespace labbook::cli
