#pragma once
/// @file
/// The measurement data model: what the collector writes and the report reads.
/// Plain values, no CUDA dependency. Serialized by measurement_json.h with a schema version.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace labbook {

/// Version of the measurement JSON schema. Bump on any incompatible change.
/// Version 2 added stop_reason, unified-memory events, process-wide ranges and the
/// metric scope; readers accept version 1 files with those left empty. Version 4 added a
/// kernel's per-instruction SASS counts (`sass`), absent from older files. Version 5 writes
/// the records as tables (a row of cells per record, strings listed once, times counted from
/// `time_origin_ns`); lists of objects, as earlier versions wrote them, still read. Version 6
/// lets a metrics run carry only its profiled kernels (`launch_tally`, a kernel's `ordinal`).
inline constexpr int kMeasurementSchemaVersion = 6;

/// Facts about one GPU, read from the driver when the program ran.
struct DeviceFacts {
  int ordinal = 0;
  std::string name;              ///< e.g. "NVIDIA H100 80GB HBM3"
  std::string chip;              ///< CUPTI chip name, e.g. "GH100"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_memory_bytes = 0;
  int memory_bus_width_bits = 0;
  int memory_clock_khz = 0;      ///< maximum memory clock
  int sm_clock_khz = 0;          ///< maximum SM clock
  int driver_version = 0;        ///< cuDriverGetVersion, e.g. 13000
  /// 2 (DDR) x memory clock x bus width / 8, in bytes per second.
  double peak_dram_bytes_per_second() const;
};

/// An NVTX range as the program opened it (push/pop or start/end), in CUPTI's ns time base.
struct Range {
  std::uint64_t id = 0;
  std::string name;              ///< the message of this range alone
  std::string path;              ///< names of enclosing ranges on the thread joined by '/'
  std::uint32_t thread = 0;
  int depth = 0;                 ///< 0 for an outermost range
  std::uint64_t start_ns = 0;
  std::optional<std::uint64_t> end_ns;   ///< missing when the program never closed it
  bool process_wide = false;     ///< nvtxRangeStart/End: may end on another thread, no nesting
  /// The number the program attached to the range (an nvtxEventAttributes_t payload): how a
  /// program reports a host-side value, such as the pitch cudaMallocPitch returned.
  std::optional<double> payload = std::nullopt;
};

/// One SASS instruction of a kernel launch and what CUPTI's SASS metrics counted at it
/// (`labbook profile --source`), with the source line it came from where the code was built
/// with -lineinfo.
struct SassInstruction {
  std::string function;          ///< mangled name of the function the instruction lies in
  std::uint32_t pc_offset = 0;   ///< byte offset within that function
  std::string file;              ///< source file, "" when the cubin carries no line information
  int line = 0;                  ///< 1-based; 0 when unknown
  /// SASS metric name (as the GPU names it, e.g. smsp__sass_sectors_mem_global) -> value,
  /// summed over the GPU.
  std::map<std::string, double> metrics;
};

/// One kernel launch. Timing comes from the trace run, metrics from the metrics run.
/// Which default stream a launch named, if any: the legacy one (stream 0, cudaStreamLegacy)
/// or the calling thread's own (cudaStreamPerThread, or stream 0 under
/// `nvcc --default-stream per-thread`). CUPTI numbers both like any other stream.
enum class DefaultStream { None, Legacy, PerThread };

struct Kernel {
  std::uint64_t launch = 0;      ///< 0-based launch order in the process
  std::string name;              ///< demangled
  std::string mangled;
  std::string range;             ///< NVTX path open on the launching thread ("" if none)
  std::uint32_t thread = 0;
  int device = 0;
  std::uint32_t stream = 0;
  DefaultStream default_stream = DefaultStream::None;   ///< the stream handle the launch named
  std::uint32_t correlation = 0;
  int grid[3] = {0, 0, 0};
  int block[3] = {0, 0, 0};
  int registers_per_thread = 0;
  int static_shared_bytes = 0;
  int dynamic_shared_bytes = 0;
  int local_bytes_per_thread = 0;
  std::optional<std::uint64_t> start_ns, end_ns;   ///< from the trace run
  std::map<std::string, double> metrics;           ///< CUPTI metric name -> value
  /// From the source pass; empty without one. CUPTI 13.0 gives a function's per-instruction
  /// counts once per run (tools/probes/sass_relaunch.cu), so they are the sums over
  /// `sass_launches` launches: this one, the function's first, and its later ones on the
  /// same device (sass_covered() lists them).
  std::vector<SassInstruction> sass;
  std::uint64_t sass_launches = 1;
  /// In a run that carries only its profiled kernels (Measurement::launch_tally): how many
  /// launches of this kernel in this range came before it. Elsewhere its place in `kernels`.
  std::optional<std::uint64_t> ordinal;
  std::optional<double> duration_ns() const;
  /// The NVTX path, or for a kernel launched outside any range its short name, so that
  /// programs without NVTX still get one "range" per kernel.
  std::string range_or_name() const;
};

/// The launches whose counts `with_sass.sass` sums (Kernel::sass_launches), in launch order:
/// itself and the next launches of the same function on the same device.
std::vector<const Kernel*> sass_covered(const std::vector<Kernel>& kernels, const Kernel& with_sass);

/// "readSegment" for "readSegment(float const*, float*, int, int)": the demangled name up
/// to its parameter list (template arguments kept).
std::string kernel_short_name(const std::string& demangled);

/// True when NVTX path `path` is `ancestor` or a path below it ("a/b" is below "a", "ab" is not).
bool nvtx_path_within(const std::string& path, const std::string& ancestor);

enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice, HostToHost, PeerToPeer, Unknown };
enum class HostMemoryKind { Pageable, Pinned, Device, Managed, Array, Unknown };

struct Copy {
  CopyKind kind = CopyKind::Unknown;
  HostMemoryKind src = HostMemoryKind::Unknown, dst = HostMemoryKind::Unknown;
  std::uint64_t bytes = 0;
  std::uint64_t start_ns = 0, end_ns = 0;
  int device = 0;
  std::uint32_t stream = 0;
  std::uint32_t correlation = 0;
  std::string range;
  bool is_memset = false;        ///< a memset is stored as a copy with kind Unknown
};

/// A CUDA runtime API call (for the timeline and API statistics).
struct ApiCall {
  std::string name;
  std::uint32_t thread = 0;
  std::uint32_t correlation = 0;
  std::uint64_t start_ns = 0, end_ns = 0;
};

/// Unified (managed) memory activity: a migration, a page fault or a throttling event.
struct UnifiedMemoryEvent {
  std::string kind;              ///< "htod", "dtoh", "dtod", "gpu_page_fault", "cpu_page_fault",
                                 ///< "thrashing", "throttling", "remote_map"
  std::uint64_t value = 0;       ///< bytes for migrations, fault groups for a GPU fault, the faulting
                                 ///< instruction's address for a CPU fault (one record = one fault)
  std::uint64_t address = 0;
  std::uint64_t start_ns = 0, end_ns = 0;   ///< end_ns == start_ns for instant events
  int device = -1;               ///< the GPU involved; -1 for the CPU
};

/// Something the collector could not do; shown in the sheet, never silently dropped.
struct Issue {
  std::string code;              ///< stable identifier, e.g. "counters_denied"
  std::string message;           ///< one sentence for a person, with how to fix it if known
};

/// How the profiled program ran.
struct ProgramRun {
  std::vector<std::string> command;
  std::optional<int> exit_code;  ///< filled in by the launcher; the collector cannot know it
  std::string started_at;        ///< ISO 8601, UTC
  std::string mode;              ///< "trace", "metrics" or "trace+metrics" after merging
  /// Why collection ended: "exit" (main returned or exit() was called) or "signal SIGSEGV"
  /// etc.; "" in files from version 1.
  std::string stop_reason;
  std::string collector_version;
  int cupti_version = 0;
  /// A source run: the kernels (mangled names) its filter chose, in the order of their first
  /// chosen launches. It counts one of them (Kernel::sass); the session runs the program once
  /// per kernel, naming the one to count.
  std::vector<std::string> source_kernels;
};

/// How many times one NVTX range launched one kernel in a run.
struct LaunchTally {
  std::string range;     ///< NVTX path ("" if none)
  std::string mangled;
  std::uint64_t launches = 0;
};

/// One file of measurements: one program run (or a trace run merged with a metrics run).
struct Measurement {
  int schema_version = kMeasurementSchemaVersion;
  ProgramRun program;
  std::vector<DeviceFacts> devices;
  std::vector<Range> ranges;
  std::vector<Kernel> kernels;
  std::vector<Copy> copies;
  std::vector<ApiCall> api_calls;
  std::vector<UnifiedMemoryEvent> memory_events;
  std::vector<std::string> metrics_requested;   ///< CUPTI metric names
  std::string metric_scope;      ///< which launches got metrics, e.g. "nvtx 'a/*'"; "" for all
  int metric_passes = 0;         ///< replay passes the metric set needed per kernel
  /// How metrics were replayed: "kernel" (each kernel replayed in one run, its memory put back
  /// between passes; collectors before 2026-11-28 let CUPTI replay it, later passes warm) or
  /// "application" (the program runs once per pass); "" before version 3 (kernel).
  std::string metric_replay;
  /// "all": L2 flushed and invalidated before every profiled kernel, like `ncu
  /// --cache-control all` (before every pass); "none": kernels
  /// start with what earlier work left in L2; "" before version 3 (none).
  std::string cache_control;
  /// A metrics run that joins a measurement of every launch (the trace run's, or the first
  /// metrics run's) carries only the kernels it profiled and counts every launch here, so that
  /// merging still checks that both runs launched the same kernels. Absent: `kernels` lists
  /// every launch.
  std::optional<std::vector<LaunchTally>> launch_tally;
  std::vector<Issue> issues;

  const DeviceFacts* device(int ordinal) const;
  bool has_issue(const std::string& code) const;
};

/// The earliest time any record gives (a start or an end), none without one: where the
/// file's tables and the trace count their times from (0 without one). A record may hold 0
/// itself (CUPTI's copy whose times it could not collect).
std::optional<std::uint64_t> earliest_time_ns(const Measurement&);

/// The earlier of two times, either of which may be missing.
inline std::optional<std::uint64_t> earlier_ns(std::optional<std::uint64_t> a, std::optional<std::uint64_t> b) {
  return a && (!b || *a < *b) ? a : b;
}

/// Launches by (NVTX path, mangled name); the keys view strings held elsewhere.
using LaunchCounts = std::map<std::pair<std::string_view, std::string_view>, std::uint64_t>;

/// A launch tally's launches, a pair listed twice summed; the keys view `tally`'s strings.
LaunchCounts launches_by_range_and_kernel(const std::vector<LaunchTally>& tally);
LaunchCounts launches_by_range_and_kernel(const std::vector<LaunchTally>&& tally) = delete;   // keys would dangle

const char* to_string(CopyKind);
const char* to_string(HostMemoryKind);
CopyKind copy_kind_from_string(const std::string&);
HostMemoryKind host_memory_kind_from_string(const std::string&);

}  // namespace labbook
