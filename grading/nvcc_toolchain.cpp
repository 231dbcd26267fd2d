#include "nvcc_toolchain.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "labbook/model/atomic_file.h"
#include "program_runner.h"
#include "submission_check.h"

namespace labbook::grading {

namespace fs = std::filesystem;

namespace {

/// The paths the sandbox must add: /usr (the CUDA toolkit with it) is always there.
std::vector<std::string> outside_usr(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths)
    if (p.rfind("/usr/", 0) != 0 && fs::exists(p)) out.push_back(p);
  return out;
}

class NvccToolchain : public Toolchain {
 public:
  NvccToolchain(ToolPaths paths, Runner& runner) : paths_(std::move(paths)), runner_(runner) {}

  Build build(const Exercise& e, const std::string& work) override {
    // Relocatable device code: a submission may launch child grids, which the collector
    // counts. -keep leaves the PTX and the cubin that went into submission.o: the device code
    // checked is the code linked, not another compile's. -lineinfo where the feedback shows the
    // student's lines (source_lines).
    const std::string nvcc = paths_.nvcc + " -O3 -rdc=true -arch=" + paths_.arch + (e.source_lines ? " -lineinfo" : "");
    const std::string includes = " -I" + paths_.data_dir + "/labs/common -I" + paths_.data_dir + "/kernels";
    const std::string stem = fs::path(e.student_file).stem().string();
    const std::string script = "mkdir -p kept && " + nvcc + " -c " + e.student_file + " -o submission.o -keep -keep-dir kept && " +
                               "mv kept/" + stem + ".ptx submission.ptx && mv kept/" + stem + ".sm_*.cubin submission.cubin && " +
                               "rm -rf kept && " + nvcc + includes + " -c " + e.harness + " -o harness.o && " + nvcc +
                               " harness.o submission.o -o harness -lseccomp";
    SandboxRequest r;
    r.command = {"/bin/sh", "-c", script};
    r.work_dir = work;
    r.env = environment(work);
    r.read_only = outside_usr({paths_.data_dir + "/labs/common", paths_.data_dir + "/kernels", e.folder()});
    r.limits.wall_seconds = 300;
    const SandboxResult result = runner_.run(r);
    Build b;
    b.built = result.end == SandboxResult::End::Exited && result.exit_code == 0 && fs::exists(work + "/harness");
    // The target, for the instructor who compares a student's times with the lab's own.
    b.log = result.out + result.err;
    if (!b.built && result.end != SandboxResult::End::Exited) b.log += result.describe() + "\n";
    b.log += "(nvcc -arch=" + paths_.arch + ")\n";
    return b;
  }

  std::string refusal(const Exercise& e, const std::string& work, const std::string& listings) override {
    const auto listing = [&](std::vector<std::string> command, const std::string& name) {
      const std::string path = listings + "/" + name;
      profiler::run_program(command, {}, path);
      return read_file(path);
    };
    const SymbolPolicy& policy = policy_of(e);
    if (std::string problem = object_problem(policy, listing({"readelf", "-SW", "-sW", "-rW", work + "/submission.o"}, "submission.readelf"),
                                             listing({"readelf", "-sW", work + "/harness.o"}, "harness.readelf"));
        !problem.empty())
      return problem;
    if (std::string problem = device_problem(policy, listing({"readelf", "-sW", work + "/submission.cubin"}, "cubin.readelf"));
        !problem.empty())
      return problem;
    if (std::string problem = device_instruction_problem(read_file(work + "/submission.ptx")); !problem.empty())
      return problem;
    return host_code_problem(listing({"objdump", "-d", "--no-show-raw-insn", work + "/submission.o"}, "submission.objdump"));
  }

  std::vector<std::pair<std::string, std::string>> environment(const std::string& home) const override {
    return {{"PATH", fs::path(paths_.nvcc).parent_path().string() + ":/usr/bin:/bin"}, {"HOME", home}};
  }

  std::vector<std::string> run_paths() const override { return outside_usr({paths_.collector_dir, paths_.cupti_dir}); }

 private:
  /// The exercise's allow-list, read once for the whole class (builds run on several threads).
  const SymbolPolicy& policy_of(const Exercise& e) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto it = policies_.find(e.path);
    if (it == policies_.end())
      it = policies_.emplace(e.path, load_symbol_policy(paths_.data_dir + "/grading/allowed_symbols.toml", e.host_calls,
                                                        e.entry_points)).first;
    return it->second;
  }

  ToolPaths paths_;
  Runner& runner_;
  std::mutex mutex_;
  std::map<std::string, SymbolPolicy> policies_;   // by exercise.toml
};

}  // namespace

std::unique_ptr<Toolchain> nvcc_toolchain(const ToolPaths& paths, Runner& runner) {
  return std::make_unique<NvccToolchain>(paths, runner);
}

}  // namespace labbook::grading
