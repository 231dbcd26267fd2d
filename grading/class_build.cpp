#include "class_build.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::grading {

namespace fs = std::filesystem;

std::string fresh_folder(const std::string& path, uid_t uid) {
  fs::remove_all(path);
  fs::create_directories(path);
  if (geteuid() == 0 && ::chown(path.c_str(), uid, uid) != 0) throw Error("cannot hand " + path + " to the sandbox's user");
  return fs::absolute(path).string();
}

namespace {

/// OUT/<student>/build.log: the verdict on the build, then the compiler's whole output.
void write_build_log(const Student& s) {
  const SubmissionOutcome& o = s.outcome;
  write_file_atomically(s.dir + "/build.log", !o.problem.empty() ? "refused: " + o.problem + "\n" + o.build_log
                                              : o.built          ? "builds\n" + o.build_log
                                                                 : "does not build\n" + o.build_log);
}

void build_one(const Exercise& e, Toolchain& toolchain, Student& s) {
  SubmissionOutcome& o = s.outcome;
  o.student = s.submission.student;
  if (s.submission.file.empty()) {
    o.build_log = "no " + e.student_file + " in the submission\n";
    fs::create_directories(s.dir);
    write_build_log(s);
    return;
  }
  try {
    fs::create_directories(s.dir);
    fs::remove_all(s.listings());
    fs::create_directories(s.listings());
    s.work = fresh_folder(s.dir + "/work", s.uid);
    const fs::path copy = fs::path(s.work) / e.student_file;
    fs::copy_file(s.submission.file, copy);
    if (geteuid() == 0 && ::chown(copy.c_str(), s.uid, s.uid) != 0) throw Error("cannot hand " + copy.string() + " to the sandbox's user");
    const Toolchain::Build build = toolchain.build(e, s.work);
    o.built = build.built;
    o.build_log = build.log;
    if (o.built) {
      const std::string refused = toolchain.refusal(e, s.work, s.listings());
      if (!refused.empty()) {
        o.built = false;
        o.problem = refused;
      }
    }
    write_build_log(s);
  } catch (const std::exception& error) {
    s.labbook_error = error.what();
  }
}

}  // namespace

void build_all(const ClassSettings& settings, Toolchain& toolchain, std::vector<Student>& students, const Progress& progress) {
  std::atomic<std::size_t> next{0};
  std::mutex report;
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < students.size();) {
      build_one(settings.exercise, toolchain, students[i]);
      const std::lock_guard<std::mutex> lock(report);
      const SubmissionOutcome& o = students[i].outcome;
      progress.step(students[i].submission.student, o.built ? "built" : !o.problem.empty() ? "refused" : "does not build");
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(settings.jobs, static_cast<int>(students.size())); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}


}  // namespace labbook::grading
