#pragma once
/// @file
/// A lab's data file (labs/NN_name/lab.toml): what to run, which metrics to collect, how
/// the sheet is laid out, every reference value from the sources with its citation, and
/// the sources' claims to check. Loading validates everything and names file:line.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"
#include "labbook/model/quantity.h"
#include "source_documents.h"

namespace labbook::report {

struct SheetProse {
  std::string goals, background, look_at;   ///< Markdown
  std::vector<std::string> questions;
};

/// One question of the sheet and its table of results: rows are experiments, columns quantities.
struct Section {
  std::string title, text;
  /// The question's short answer (Markdown, 2 to 4 sentences, "{range:quantity}" placeholders
  /// for what this run measured), shown under the question.
  std::string answer;
  std::vector<std::string> experiments;   ///< NVTX range paths
  std::vector<Quantity> quantities;
  /// An experiment every row is also shown against ("Of <baseline>": the measured value
  /// over the baseline's, same quantity), e.g. a device-to-device copy; "" for none.
  std::string baseline;
  /// The quantities shown against it, where the others mean nothing beside it (cuBLAS's
  /// instructions are not the same kind of work as a hand-written kernel's); empty: all.
  std::vector<Quantity> baseline_quantities = {};
};

/// A parameter sweep shown as one table: a row per parameter value.
struct Sweep {
  std::string title, text, parameter;
  std::string unit;                       ///< of the parameter's values: "bytes" prints them as sizes; "" as written
  std::vector<std::string> groups;        ///< range prefixes: "<group>/<parameter>=<value>"
  std::vector<Quantity> quantities;
};

/// A bar chart of one quantity over experiments: the source's value (from the references)
/// beside the value measured here.
struct Chart {
  std::string title, text;
  Quantity quantity;
  std::vector<std::string> experiments;
};

/// A line chart of one quantity over a sweep's parameter values ([[curve]]): one line per
/// group, from the ranges "<group>/<parameter>=<value>" (values must be numbers). A
/// [[reference]] for "<group>/<parameter>=<value>" and the same quantity is drawn as the
/// source's point; one for "<group>" itself (a figure for the whole group, such as a bus's
/// bandwidth) as a dashed level.
struct Curve {
  std::string title, text, parameter;
  Quantity quantity;
  std::vector<std::string> groups;
  std::string x_unit;         ///< unit of the parameter's values for the axis ("bytes", "" for a count)
  bool log_x = true, log_y = false;
};

/// nvprof's "GPU activities" table (Time(%), Time, Calls, Avg, Min, Max, Name) for the
/// kernels and copies of each range in `experiments`, each followed by the source's rows
/// from the [[reference]]s of that range for the quantities kernels_*, memcpy_htod_* and
/// memcpy_dtoh_* (see quantities.h).
struct ActivityTableSpec {
  std::string title, text;
  std::vector<std::string> experiments;
};

/// A timeline picture of each range in `experiments` ([[timeline]]): a lane per GPU stream
/// with the kernels and copies attributed to the range, from the first one's start to the
/// last one's end, all ranges of one [[timeline]] on the same time scale. The quantities
/// `copy_overlap_pct` and `max_concurrent_kernels` (quantities.h) put numbers on what it shows.
struct TimelineSpec {
  std::string title, text;
  std::vector<std::string> experiments;
  /// The lanes' names as the sheet names the streams ("stream A", "default stream", ...), in the
  /// order each range first uses them (stream_lanes.h); empty: labbook's own names.
  std::vector<std::string> streams;
};

/// A memory chart of one experiment ([[memory_chart]]): its kernels' traffic from the SM
/// through L1, shared memory and L2 to DRAM (memory_chart.h), with the lab's caption.
struct MemoryChartSpec {
  std::string experiment;   ///< a range the lab's sections, sweeps, references or claims name
  std::string caption;      ///< Markdown, shown above the chart ("" for none)
  /// `labbook run` adds a source run for this experiment, and the chart gets its "Lines that
  /// move memory". Counts cover one kernel's launches in a row: a kernel that another chart
  /// asking for lines also runs would be counted across both.
  bool source_lines = false;
  int line = 0;             ///< in lab.toml
};

/// A roofline of some experiments ([[roofline]]): each one's FLOPs per DRAM byte against its
/// FLOP rate under this GPU's DRAM roof and the lab's [[peak]]s (roofline.h).
struct RooflineSpec {
  std::string title;
  std::string caption;                   ///< Markdown, shown above the chart ("" for none)
  std::vector<std::string> experiments;  ///< ranges the lab already names
  int line = 0;                          ///< in lab.toml
};

/// The compiler's resource report ([resources]): the ptxas -v capture of the lab program's
/// build (cmake/AddLab.cmake writes build/labs/PROGRAM.ptxas.txt; the lab keeps a copy) as
/// a table, one row per kernel, with the launch's registers per block, beside a source's
/// own ptxas -v output and its per-block register arithmetic.
struct ResourceReport {
  std::string title, text;            ///< text: Markdown
  std::string file;                   ///< the capture, relative to the lab's folder
  std::string source_example;         ///< a source's ptxas -v output, verbatim ("" for none)
  std::string citation;               ///< where the example and the numbers below come from
  std::string source_gpu;
  /// The source's registers per block and threads per block (0 when it gives none): the
  /// sheet shows registers per thread in a full block, registers_per_block / threads_per_block.
  long long source_registers_per_block = 0, source_threads_per_block = 0;
};

/// A published arithmetic peak of one GPU generation ([[peak]]): `per_sm_per_clock` units of
/// the rate `quantity` per clock per SM (e.g. 256 FLOP for 128 FP32 FMA lanes). On a measured
/// GPU of that compute capability the peak is per_sm_per_clock x SMs x maximum SM clock (the
/// measurement's device facts), and "<quantity>_pct_of_peak" is the measured rate as a share
/// of it. The figures are NVIDIA's, cited in the lab data, never literals in report code.
struct ArithmeticPeak {
  Quantity quantity;                  ///< a rate, e.g. flop_rate_sp (unit ".../s")
  int cc_major = 0, cc_minor = 0;     ///< the compute capability the figure is for
  double per_sm_per_clock = 0;
  std::string text;                   ///< what the figure counts, e.g. "128 FP32 FMA lanes x 2 FLOP"
  std::string citation;               ///< where NVIDIA publishes it
  /// Where set, the peak of the units this counter counts (tensor_flop_count_dp: the FP64
  /// tensor cores), for a range where it counted work; other ranges keep the general peak.
  std::optional<Quantity> counter;
  /// The peak on `device`: nullopt when the device has another compute capability.
  std::optional<double> on(const DeviceFacts& device) const;
};

/// The general peak (no counter) among `peaks` for `quantity` on `device`, or nullptr.
const ArithmeticPeak* peak_for(const std::vector<ArithmeticPeak>& peaks, const Quantity& quantity,
                               const DeviceFacts& device);

/// A number a source printed.
struct ReferenceValue {
  std::string experiment;
  Quantity quantity;
  double value = 0;
  std::string unit;           ///< as the source printed it
  /// What the source printed where it is a word, not a number (« Non », an error's name): the
  /// Source column shows it; `value` is how labbook reads it, for the comparisons.
  std::string printed;
  std::string gpu, build, citation;
  std::string explanation;    ///< Markdown; "{range:quantity}" is replaced by the measured value
  std::string note;
  int line = 0;               ///< in lab.toml
};

/// A claim from a source, checked on the measurement (claim_verdict.h decides it): either
/// quantity(numerator) / quantity(denominator) lies in [min_ratio, max_ratio] (a speed-up:
/// numerator = the slower variant's time; max_ratio for a source's "slightly", "about",
/// "up to"), or `best` has the lowest (or highest) quantity among `candidates`, beyond the
/// run-to-run noise and beyond `tolerance` (relative) of the runner-up, or quantity(experiment)
/// lies in [at_least, at_most], in the quantity's unit, where no second experiment gives a ratio.
struct Claim {
  std::string text, citation;
  Quantity quantity;
  std::string numerator, denominator;
  double min_ratio = 0;
  std::optional<double> max_ratio;
  std::string best;
  std::vector<std::string> candidates;
  bool lowest = true;
  double tolerance = 0;
  std::string experiment;
  std::optional<double> at_least, at_most;
  /// The smallest difference that counts as one, as a share (0.2: 20 %), where the default
  /// for a timed quantity (claim_verdict.h, kTimedDrift) is too small: host-side times.
  std::optional<double> min_effect;
  /// Why the verdict can differ between GPUs of one family (their bandwidths, their hosts),
  /// for a reader: a lab's recordings that disagree on the claim must say so.
  std::string across_gpus;
  bool is_best_claim() const { return !best.empty(); }
  bool is_value_claim() const { return !experiment.empty(); }
};

/// Which warp-level model kernel stands for the experiments matching `experiments` (a glob).
/// Parameters written in the experiment's last path part ("offset=11", "block=256",
/// "block=32x8" for block_x and block_y; several joined by ',') override `params`.
struct ModelPattern {
  std::string experiments;
  std::string kernel;                 ///< a kernel the warp model knows (warp::kernel_models())
  std::string source_architecture;    ///< the architecture the source measured on, e.g. "fermi_ca"
  std::map<std::string, long long> params;   ///< e.g. offset = 11, unroll = 4
};

/// A known reason why measurements and the model for this GPU differ.
struct ModelGap {
  std::string experiments;            ///< glob
  Quantity quantity;
  std::string reason;
};

/// The [model] table: predictions beside every measurement.
struct ModelSettings {
  std::string this_architecture;      ///< e.g. "sm_90"
  /// Parameters of the sources' launches (e.g. n, the array size their numbers come from),
  /// for the predictions on the source's GPU; this GPU's come from the measured launch.
  std::map<std::string, long long> source_params;
  /// Largest |measured - model| still "as predicted": percentage points for %, else % of the model.
  double tolerance = 1.0;
  std::vector<ModelPattern> patterns;
  std::vector<ModelGap> gaps;
  std::vector<std::string> figures;   ///< experiments that get a one-warp picture per architecture
  /// Those of `figures` whose lesson is a store: their picture shows the warp's least
  /// efficient store, not its least efficient access (which may be a load).
  std::vector<std::string> figure_stores;
  /// The pattern for `experiment`, or nullptr.
  const ModelPattern* pattern_for(const std::string& experiment) const;
};

/// An acceptance check on a measurement of the lab (`labbook check`, the lab's GPU test).
/// `experiments` is a glob over the measured ranges; every match must pass, and a glob
/// that matches none fails. One kind per check:
///  - value: |measured - value| <= tolerance;
///  - at_least: measured >= at_least;
///  - at_most: measured <= at_most (e.g. a copy's bandwidth below its bus's peak);
///  - relative_to: measured >= fraction x the same quantity measured for that range;
///  - as_predicted: the verdict against the warp model for this GPU is "as predicted" (or
///    the lab data names the gap).
struct Check {
  std::string experiments;
  Quantity quantity;
  std::optional<double> value;
  double tolerance = 0;
  std::optional<double> at_least;
  std::optional<double> at_most;
  std::string relative_to;
  double fraction = 0;
  bool as_predicted = false;
  int line = 0;               ///< in lab.toml
};

/// An experiment of a source this lab does not reproduce ([[not_reproduced]]), and why: the
/// sheet says so instead of leaving it out silently.
struct NotReproduced {
  std::string experiment;   ///< what the source does, in a few words
  std::string citation;
  std::string reason;       ///< why not here, or what a lab would need to do it
};

struct LabData {
  std::string path;           ///< the lab.toml this came from
  std::string id, title, program, source;
  std::string summary;        ///< one line: what the lab teaches (the workbook's index)
  std::vector<std::string> args;
  /// Recordings, relative to the lab's folder, one per GPU: the first is the sheet's without
  /// a GPU, the others stand beside it.
  std::vector<std::string> recordings;
  std::vector<std::string> metrics;   ///< catalog names to collect
  SheetProse prose;
  std::vector<Section> sections;
  std::vector<Sweep> sweeps;
  std::vector<Chart> charts;
  std::vector<Curve> curves;
  std::vector<ActivityTableSpec> activity_tables;
  std::vector<TimelineSpec> timelines;
  std::vector<MemoryChartSpec> memory_charts;
  /// Whether a memory chart asks for its lines (MemoryChartSpec::source_lines).
  bool source_lines() const;
  std::vector<RooflineSpec> rooflines;
  std::optional<ResourceReport> resources;
  std::vector<ArithmeticPeak> peaks;
  std::vector<ReferenceValue> references;
  std::vector<Claim> claims;
  std::optional<ModelSettings> model;
  std::vector<Check> checks;
  std::vector<NotReproduced> not_reproduced;
  /// The documents the labs cite (labs/sources.toml beside the lab folders), when present:
  /// every citation of a source file must name one of them.
  std::vector<SourceDocument> sources;

  /// Folder holding lab.toml.
  std::string folder() const;
  /// Every experiment range the sheet uses (sections, claims, references, activity tables
  /// and timelines).
  std::vector<std::string> experiments() const;
  /// True when the sheet shows arithmetic peaks: as a roofline's ceilings or as the
  /// denominator of a "<rate>_pct_of_peak" quantity a table, chart, claim or check names.
  bool uses_peaks() const;
};

/// Parses and validates a lab data file, with the sources and peaks files of its labs folder
/// (<folder>/../sources.toml, <folder>/../peaks.toml) when there are. Throws labbook::Error "path:line: what is wrong".
LabData load_lab_data(const std::string& path);

/// Parses TOML text; `origin` is the name used in error messages.
/// `shared_peaks`: the [[peak]]s of labs/peaks.toml, which every lab may name besides its own.
LabData parse_lab_data(const std::string& toml_text, const std::string& origin,
                       std::vector<ArithmeticPeak> shared_peaks = {});

/// The [[peak]]s of a peaks file (labs/peaks.toml: published arithmetic peaks of GPU
/// generations, for every lab and for `labbook profile`'s roofline).
std::vector<ArithmeticPeak> load_arithmetic_peaks(const std::string& path);
std::vector<ArithmeticPeak> parse_arithmetic_peaks(const std::string& toml_text, const std::string& origin);

}  // namespace labbook::report
