// labbook: run the labs under labbook's CUPTI collector and write their sheets.
//
//   labbook run lab4                 measure lab 4 and write reports/lab4.{md,html,json,trace.json.gz}
//   labbook render lab4 --measurement FILE   write the sheet from a measurement file
//   labbook check lab4 [--measurement FILE]  the lab's acceptance checks on a measurement
//   labbook compare lab4 A B         two measurements side by side ("recorded": the lab's recording)
//   labbook workbook [--recorded]    every lab's sheet and reports/index.{md,html}
//   labbook exercise lab4 --out DIR  an exercise's starter file and instructions
//   labbook exercise --list          every exercise, a line each
//   labbook grade lab4 SUBMISSIONS --out DIR [--rubric FILE] [--force] [--jobs N] [--build-only] [--memcheck] [--arch sm_NN]   grade a class
//   labbook grade lab4 SUBMISSIONS --out DIR --slurm [--per-task N] ...   a Slurm job array for it
//   labbook grade --collect DIR      the class files from what the array's tasks graded
//   labbook profile [--metrics a,b] [--nvtx GLOB] [--kernel GLOB] [--launch-skip N]
//                   [--launch-count N] [--replay auto|application|kernel] [--cache-control all|none]
//                   -- PROGRAM ARGS...   profile any CUDA program
//   labbook summary MEASUREMENT --out DIR     summary files from a measurement file
//   labbook metrics                  list the metric catalog
//   labbook help, labbook            this list; labbook --version: the version and its CUDA
//
// Exit codes (cli/exit_codes.h): 0 success; 1 failure (bad input, wrong lab result, I/O);
// 2 bad usage, found before anything runs; 77 no GPU to profile on. `profile` exits with the
// profiled program's own exit code (128 + signal number when a signal ended it); labbook's
// own problems go to stderr and the measurement's issues, and only when the program
// succeeded but labbook could write nothing at all does `profile` exit 70.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli_validators.h"
#include "commands.h"
#include "format.h"
#include "help_formatter.h"
#include "huge_pages.h"
#include "install_layout.h"
#include "labbook/model/error.h"
#include "labbook/model/text.h"

namespace {

/// CLI11 reads a word that names no subcommand as a stray argument ("A subcommand is
/// required"): name it, and the closest command, instead.
std::string unknown_command(const CLI::App& app, const std::string& word) {
  std::string closest;
  std::size_t best = word.size();
  for (const CLI::App* sub : app.get_subcommands({})) {
    const std::size_t d = labbook::edit_distance(word, sub->get_name());
    if (d < best) best = d, closest = sub->get_name();
  }
  std::string message = "unknown command '" + labbook::report::cut_text(word, 80) + "'";
  if (!closest.empty() && best <= 3) message += "; did you mean '" + closest + "'?";
  return message + " (labbook help lists the commands)";
}

/// `labbook grade ARGS`: labbook-grade ARGS in this process's place, so that its exit code,
/// output and signals are labbook's. Returns only when it cannot start.
int run_grader(int argc, char** argv) {
  const std::string& grader = labbook::cli::install_layout().grader;
  std::vector<char*> args{const_cast<char*>(grader.c_str())};
  args.insert(args.end(), argv + 2, argv + argc);
  args.push_back(nullptr);
  execv(grader.c_str(), args.data());
  std::fprintf(stderr, "labbook: grade: cannot run %s (%s): it is the target labbook-grade, which `make` builds "
                       "and `cmake --install` puts beside labbook\n",
               grader.c_str(), std::strerror(errno));
  return labbook::cli::kExitFailure;
}

/// A count option's check: CLI11's own range message prints the whole range of a double.
CLI::Validator at_least(long long minimum) {
  return CLI::Validator(
      [minimum](std::string& value) -> std::string {
        try {
          std::size_t used = 0;
          const long long n = std::stoll(value, &used);
          if (used == value.size() && n >= minimum) return "";
        } catch (const std::exception&) {
        }
        return "must be a whole number, at least " + std::to_string(minimum) + " (not '" + value + "')";
      },
      "N>=" + std::to_string(minimum));
}

}  // namespace

int main(int argc, char** argv) {
  labbook::cli::run_with_huge_pages(argv);
  using labbook::cli::output_folder;
  CLI::App app{"labbook: the CUDA memory hierarchy as lab work, measured with CUPTI", "labbook"};
  app.formatter(std::make_shared<labbook::cli::HelpFormatter>());   // before the subcommands: they copy it
  app.require_subcommand(1);
  app.set_version_flag("--version", "labbook " LABBOOK_VERSION ", built with CUDA " LABBOOK_CUDA_VERSION
                                    " (its nvcc for the labs and its CUPTI for the collector)");

  labbook::cli::RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "Measure a lab on this GPU (or use its recording) and write its sheet");
  run_cmd->add_option("lab", run.lab, "Lab id, e.g. lab4")->required();
  run_cmd->add_option("--out", run.out_dir, "Folder for the sheet and its files")->check(output_folder())->capture_default_str();
  run_cmd->add_flag("--recorded", run.force_recorded, "Use the lab's recorded measurements even if a GPU is present");
  run_cmd->add_flag("--force", run.force, "Replace the sheet in --out even by one from a recording or with fewer values");
  run_cmd->add_option("--compare", run.compare, "Also set this run beside a measurement (\"recorded\": the lab's recording)");
  run_cmd->add_option("lab_args", run.lab_args, "Extra arguments for the lab program (after --)");

  labbook::cli::RenderOptions render;
  auto* render_cmd = app.add_subcommand("render", "Write a lab's sheet from a measurement file");
  render_cmd->add_option("lab", render.lab, "Lab id, e.g. lab4")->required();
  render_cmd->add_option("--measurement", render.measurement, "Measurement JSON file")->required()->check(CLI::ExistingFile);
  render_cmd->add_option("--out", render.out_dir, "Folder for the sheet and its files")->check(output_folder())->capture_default_str();
  render_cmd->add_option("--note", render.note, "A line for the top of the sheet (e.g. where the data came from)");
  render_cmd->add_flag("--force", render.force, "Replace the sheet in --out even by one with fewer measured values");

  labbook::cli::CompareOptions compare;
  auto* compare_cmd = app.add_subcommand("compare", "Set two measurements of a lab side by side: what differs beyond the noise");
  compare_cmd->add_option("lab", compare.lab, "Lab id, e.g. lab4")->required();
  compare_cmd->add_option("a", compare.a, "Measurement file A, or \"recorded\" for the lab's recording")->required();
  compare_cmd->add_option("b", compare.b, "Measurement file B, or \"recorded\"")->required();
  compare_cmd->add_option("--out", compare.out_dir, "Folder for <lab>.compare.md, .html and .json")
      ->check(output_folder())->capture_default_str();

  std::string check_lab, check_measurement;
  auto* check_cmd = app.add_subcommand("check", "Run a lab's acceptance checks on a measurement");
  check_cmd->add_option("lab", check_lab, "Lab id, e.g. lab4")->required();
  check_cmd->add_option("--measurement", check_measurement, "Measurement JSON file (default: the lab's recording)")
      ->check(CLI::ExistingFile);

  labbook::cli::RunOptions book;
  auto* workbook_cmd = app.add_subcommand("workbook", "Write every lab's sheet and the index that links them");
  workbook_cmd->add_option("--out", book.out_dir, "Folder for the sheets and the index")->check(output_folder())->capture_default_str();
  workbook_cmd->add_flag("--recorded", book.force_recorded, "Use the labs' recordings even if a GPU is present");
  workbook_cmd->add_flag("--force", book.force, "Replace sheets even by ones from recordings or with fewer values");

  std::string handout_exercise, handout_out = "handout";
  auto* exercise_cmd = app.add_subcommand("exercise", "Write an exercise's starter file and instructions for students");
  bool list_exercises = false;
  auto* handout_arg = exercise_cmd->add_option("exercise", handout_exercise, "Exercise id, or a lab with one exercise (e.g. lab4)");
  exercise_cmd->add_flag("--list", list_exercises, "List every exercise (id, lab, title) and write nothing")->excludes(handout_arg);
  exercise_cmd->add_option("--out", handout_out, "Folder for the handout")->check(output_folder())->capture_default_str();

  // `labbook grade` is labbook-grade's (grade_main.cpp), run before parsing; listed here for the help.
  app.add_subcommand("grade", "Build, check, measure and score every submission of a class (sandboxed)");

  labbook::cli::ProfileOptions profile;
  auto* profile_cmd = app.add_subcommand("profile", "Profile any CUDA program: timeline and metrics per NVTX range");
  profile_cmd->add_option("--metrics", profile.metrics, "Catalog or CUPTI metric names (comma-separated)")->delimiter(',');
  profile_cmd->add_option("--nvtx", profile.nvtx,
                          "Metrics only for kernels in NVTX ranges matching these globs, e.g. 'transpose/*' (comma-separated)")
      ->delimiter(',');
  profile_cmd->add_option("--kernel", profile.kernels, "Metrics only for kernels whose name matches these globs (comma-separated)")
      ->delimiter(',');
  profile_cmd->add_option("--launch-skip", profile.launch_skip, "Skip this many matching launches before collecting metrics")
      ->check(at_least(0));
  profile_cmd->add_option("--launch-count", profile.launch_count, "Collect metrics for at most this many matching launches")
      ->check(at_least(1));
  profile_cmd->add_flag("--source", profile.source,
                        "One more run per kernel --kernel names (all by default), counting each of its instructions "
                        "over all its launches: the summary's \"Lines that move memory\" (build the program with nvcc "
                        "-lineinfo to see source lines)");
  profile_cmd->add_flag("--no-trace", profile.no_trace,
                        "Run the program once, for metrics only: no timeline, copies or API calls (faster)");
  profile_cmd->add_option("--replay", profile.replay,
                          "auto: after the trace run, kernel replay for a program of few launches and one host "
                          "thread, else application (default); application: run the program once per pass; kernel: "
                          "one run, each profiled kernel launched once per pass, its memory put back and L2 flushed "
                          "before each, like ncu's kernel replay")
      ->check(CLI::IsMember({"auto", "application", "kernel"}))
      ->capture_default_str();
  profile_cmd->add_option("--cache-control", profile.cache_control,
                          "all: flush and invalidate L2 before each profiled kernel, like ncu (default); none: "
                          "kernels find what earlier work left in L2")
      ->check(CLI::IsMember({"all", "none"}))
      ->capture_default_str();
  profile_cmd->add_option("--out", profile.out_dir, "Output folder (default labbook-out/PROGRAM-DATE)")->check(output_folder());
  profile_cmd->add_option("command", profile.command, "Program and arguments, after --")->required();

  std::string summary_measurement, summary_out;
  auto* summary_cmd = app.add_subcommand("summary", "Write summary.md, timeline.svg and trace.json.gz from a measurement file");
  summary_cmd->add_option("measurement", summary_measurement, "Measurement JSON file")->required()->check(CLI::ExistingFile);
  summary_cmd->add_option("--out", summary_out, "Output folder")->check(output_folder())->required();

  std::string metrics_lab;
  bool metrics_all = false;
  auto* metrics_cmd = app.add_subcommand("metrics", "List the metric catalog");
  auto* lab_option = metrics_cmd->add_option("--lab", metrics_lab, "Print only the CUPTI metrics lab LAB collects, comma-separated");
  metrics_cmd->add_flag("--cupti-all", metrics_all, "Print every CUPTI metric the catalog uses, comma-separated")
      ->excludes(lab_option);

  // `labbook` alone and `labbook help` print the help; a first word that names no command is
  // named (with the closest command) before CLI11 calls it a stray argument.
  if (argc == 1 || std::string(argv[1]) == "help") {
    std::printf("%s", app.help().c_str());
    return 0;
  }
  const std::string first = argv[1];
  if (first[0] == '-' && first != "--help" && first != "-h" && first != "--version") {
    std::fprintf(stderr, "labbook: unknown option '%s': a command comes first (labbook COMMAND [OPTIONS]; labbook help lists the commands)\n",
                 labbook::report::cut_text(first, 80).c_str());
    return labbook::cli::kExitUsage;
  }
  const auto subcommands = app.get_subcommands({});
  if (argv[1][0] != '-' && std::none_of(subcommands.begin(), subcommands.end(),
                                        [&](const CLI::App* sub) { return sub->get_name() == argv[1]; })) {
    std::fprintf(stderr, "labbook: %s\n", unknown_command(app, argv[1]).c_str());
    return labbook::cli::kExitUsage;
  }
  if (first == "grade") return run_grader(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : labbook::cli::kExitUsage;
  }
  return labbook::cli::with_errors_reported([&] {
    if (*run_cmd) return labbook::cli::run_lab(run);
    if (*render_cmd) return labbook::cli::render_lab(render);
    if (*check_cmd) return labbook::cli::check_lab(check_lab, check_measurement);
    if (*compare_cmd) return labbook::cli::compare_lab(compare);
    if (*workbook_cmd) return labbook::cli::workbook(book);
    if (*exercise_cmd && list_exercises) return labbook::cli::list_exercises();
    if (*exercise_cmd) {
      if (handout_exercise.empty())
        throw labbook::cli::UsageError("name an exercise (`labbook exercise --list` shows them)");
      return labbook::cli::exercise_handout(handout_exercise, handout_out);
    }
    if (*profile_cmd) return labbook::cli::profile(profile);
    if (*summary_cmd) return labbook::cli::summarize(summary_measurement, summary_out);
    if (*metrics_cmd) return labbook::cli::list_metrics(metrics_lab, metrics_all);
    return labbook::cli::kExitUsage;
  });
}
