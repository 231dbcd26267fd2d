#include "profile_outputs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <future>
#include <optional>

#include "install_layout.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/measurement_json.h"
#include "profile_summary.h"
#include "sheet_files.h"
#include "stopwatch.h"
#include "timeline_svg.h"
#include "trace_writer.h"

namespace labbook::cli {

namespace {

struct Output {
  const char* what;
  std::function<void()> write;
  bool trace_alone;   // needs nothing of the measurement but its trace (no program fields, no issues)
  std::string failure = "";
  double seconds = 0;
  const OutputSeconds* early = nullptr;    // written early, and still right: not written now
};

/// The four outputs of `*shown`, read when each is written: after a failure, `shown` points
/// to a copy that says so. Those that show the program go to `program_out`.
std::vector<Output> outputs_of(const Measurement* const& shown, const std::string& out, const std::string& program_out,
                               std::size_t* pictures) {
  return {
      {"trace.json.gz", [&shown, out] { report::write_chrome_trace(*shown, out + "/trace.json.gz"); }, true},
      {"timeline.svg", [&shown, out] { write_file_atomically(out + "/timeline.svg", report::timeline_svg(*shown)); },
       true},
      {"summary.md/html/json",
       [&shown, out = program_out, pictures] {
         // The roofline's FMA ceilings: the labs' published peaks, where this labbook has them.
         const std::string peaks_file = install_layout().labs() + "/peaks.toml";
         const auto peaks = std::filesystem::exists(peaks_file) ? report::load_arithmetic_peaks(peaks_file)
                                                                : std::vector<report::ArithmeticPeak>{};
         const report::Sheet summary = report::build_profile_summary(*shown, "timeline.svg", peaks);
         report::write_sheet(summary, out, "summary");
         if (pictures) *pictures = summary.figures.size();
       },
       false},
      {"measurements.json",
       [&shown, out = program_out] {
         write_measurement(*shown, out + "/measurements.json", MeasurementWriting::SideBySide);
       },
       false},
  };
}

/// Moves the files in `staged` into `out`, each renamed into place. False where one could not
/// be, or there was no folder: those outputs are then written again.
bool move_into_place(const std::string& staged, const std::string& out) {
  std::error_code error;
  std::filesystem::directory_iterator f(staged, error), end;
  for (; !error && f != end; f.increment(error)) {
    std::filesystem::rename(f->path(), out + "/" + f->path().filename().string(), error);
    if (error) return false;
  }
  return !error;
}

/// Whether `a` and `b` say the same of a run: all the file holds of it, and the issues.
bool same_run(const ProgramRun& a, const std::vector<Issue>& a_issues, const ProgramRun& b,
              const std::vector<Issue>& b_issues) {
  const auto same_issue = [](const Issue& x, const Issue& y) { return x.code == y.code && x.message == y.message; };
  return to_json(a) == to_json(b) &&
         std::equal(a_issues.begin(), a_issues.end(), b_issues.begin(), b_issues.end(), same_issue);
}

void attempt(Output& o) {
  const auto started = std::chrono::steady_clock::now();
  try {
    o.write();
  } catch (const std::exception& e) {
    o.failure = e.what();
  }
  o.seconds += profiler::seconds_since(started);
}

/// The writers only read the measurement, so they run side by side: a user waits for the
/// slowest of them (trace.json.gz), not for all four.
void attempt_side_by_side(std::vector<Output*> outputs) {
  std::vector<std::future<void>> running;
  for (Output* o : outputs) running.push_back(std::async(std::launch::async, attempt, std::ref(*o)));
  for (auto& r : running) r.get();
}

}  // namespace

EarlyOutputs write_outputs_early(const Measurement& m, const std::string& out_dir) {
  const Measurement* shown = &m;
  EarlyOutputs early{{}, m.program, m.issues};
  const std::string staged = early_folder(out_dir);
  std::error_code error;
  std::filesystem::remove_all(staged, error);
  std::filesystem::create_directories(staged, error);
  std::vector<Output> outputs = outputs_of(shown, out_dir, staged, &early.pictures);
  std::vector<Output*> all;
  for (Output& o : outputs) all.push_back(&o);
  attempt_side_by_side(all);
  for (const Output& o : outputs)
    if (o.failure.empty()) early.written.push_back({o.what, o.seconds, true});
  return early;
}

void discard_early_outputs(const EarlyOutputs& early, const std::string& out_dir) {
  std::error_code error;
  std::filesystem::remove_all(early_folder(out_dir), error);
  const Measurement* none = nullptr;   // the outputs' names only: none is written
  for (const Output& o : outputs_of(none, out_dir, out_dir, nullptr))
    for (const OutputSeconds& e : early.written)
      if (o.trace_alone && e.what == o.what) std::filesystem::remove(out_dir + "/" + o.what, error);
}

int write_profile_outputs(const Measurement& measured, const std::string& out, std::size_t* pictures,
                          std::vector<OutputSeconds>* seconds, const EarlyOutputs& early) {
  // 10^5 launches are too many to copy on every run: the measurement is copied only once an
  // output failed, to say so.
  const Measurement* shown = &measured;
  std::optional<Measurement> with_failures;
  std::vector<Output> outputs = outputs_of(shown, out, out, pictures);
  // Written early, an output is kept where it still shows `measured`: those drawn from the
  // trace always, the others (held apart until now) where the exit changed nothing they show.
  const std::string staged = early_folder(out);
  const bool program_outputs_kept = !early.written.empty() &&
                                    same_run(early.program, early.issues, measured.program, measured.issues) &&
                                    move_into_place(staged, out);
  std::error_code error;
  std::filesystem::remove_all(staged, error);
  for (Output& o : outputs)
    if (o.trace_alone || program_outputs_kept)
      for (const OutputSeconds& e : early.written)
        if (e.what == o.what) o.early = &e;
  if (pictures && program_outputs_kept) *pictures = early.pictures;   // a summary written again sets its own
  std::vector<Output*> now;
  for (Output& o : outputs)
    if (!o.early) now.push_back(&o);
  attempt_side_by_side(now);
  int written = 0;
  const auto record_failure = [&](const Output& o) {
    std::fprintf(stderr, "labbook: could not write %s: %s\n", o.what, o.failure.c_str());
    if (!with_failures) with_failures = measured, shown = &*with_failures;
    with_failures->issues.push_back({"report_failed", std::string("could not write ") + o.what + ": " + o.failure});
  };
  for (const Output& o : outputs) {
    if (o.failure.empty()) ++written;
    else record_failure(o);
  }
  // The summary and the measurement say what could not be written: written again when
  // something failed, now that the measurement holds the failure.
  if (written < static_cast<int>(outputs.size()))
    for (Output& o : outputs) {
      if (o.trace_alone || !o.failure.empty()) continue;
      o.early = nullptr;
      attempt(o);
      if (!o.failure.empty()) {
        --written;
        record_failure(o);
      }
    }
  if (seconds)
    for (const Output& o : outputs)
      seconds->push_back(o.early ? *o.early : OutputSeconds{o.what, o.seconds});
  return written;
}

}  // namespace labbook::cli
