// Checks what `labbook profile` wrote for the test programs in tests/programs.
//   check_profile threads DIR LAUNCHES      threads_streams ran to the end with
//                                           --nvtx 'worker0/*' metrics
//   check_profile stopped DIR EXIT REASON KERNELS   it ended early (crash or exit())
//   check_profile transpose DIR             transpose, with every catalog metric
//   check_profile filtered DIR              transpose with --kernel 'transpose*' --launch-skip 1
//                                           --launch-count 1 and a metric no GPU has
// DIR holds measurements.json and summary.json. Prints each failed expectation; exit 0
// when all hold, 1 otherwise.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/metric_catalog.h"

namespace {

int g_failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++g_failures;
}

/// NaN when missing, so that every comparison with it fails.
double catalog_value(const labbook::Kernel& k, const std::string& name) {
  const auto* c = labbook::find_catalog_metric(name);
  const auto v = c ? c->evaluate(k.metrics) : std::nullopt;
  return v ? *v : std::nan("");
}

void check_threads(const labbook::Measurement& m, std::size_t launches) {
  expect(m.program.exit_code == 0, "exit code 0");
  expect(m.program.stop_reason == "exit", "stopped by exit, got '" + m.program.stop_reason + "'");
  std::map<std::string, std::set<std::uint32_t>> threads, streams;
  std::map<std::string, std::size_t> count;
  for (const auto& k : m.kernels) {
    ++count[k.range];
    threads[k.range].insert(k.thread);
    streams[k.range].insert(k.stream);
  }
  for (const char* range : {"main/scale", "worker0/scale", "worker1/scale"})
    expect(count[range] == launches, std::string(range) + ": " + std::to_string(count[range]) + " kernels");
  for (const auto& r : m.ranges) {
    if (r.path == "worker0/scale" || r.path == "worker1/scale")
      expect(r.payload == static_cast<double>(launches), r.path + " carries its launch count as payload");
    if (r.path == "main/scale") expect(!r.payload, "main/scale carries no payload");
  }
  expect(count["managed"] == 1, "managed: one kernel");
  expect(threads["worker0/scale"].size() == 1 && threads["worker1/scale"].size() == 1 &&
             threads["worker0/scale"] != threads["worker1/scale"] && threads["main/scale"] != threads["worker0/scale"],
         "each worker's kernels come from one thread of their own");
  expect(streams["worker0/scale"].size() == 1 && streams["worker0/scale"] != streams["worker1/scale"] &&
             streams["worker0/scale"] != streams["main/scale"],
         "each worker's kernels run on a stream of their own");
  // With two GPUs, worker1 runs on the second: its kernels must say so, and the devices list
  // must hold both.
  std::set<int> devices0, devices1;
  for (const auto& k : m.kernels) {
    if (k.range == "worker0/scale") devices0.insert(k.device);
    if (k.range == "worker1/scale") devices1.insert(k.device);
  }
  if (m.devices.size() > 1)
    expect(devices0 == std::set<int>{0} && devices1 == std::set<int>{1},
           "two GPUs: worker0's kernels on GPU 0, worker1's on GPU 1");
  else
    expect(devices0 == std::set<int>{0} && devices1 == std::set<int>{0}, "one GPU: every kernel on GPU 0");
  std::printf("(%zu GPU%s in the measurement)\n", m.devices.size(), m.devices.size() > 1 ? "s" : "");
  // Every kernel's thread launched it: an API call with its correlation id on that thread.
  // Each call recorded once, with its own times (labbook records launch calls itself, CUPTI
  // the rest), and each kernel begun after its call did.
  std::map<std::uint32_t, const labbook::ApiCall*> call_of;
  std::size_t twice = 0, untimed = 0;
  for (const auto& a : m.api_calls) {
    twice += !call_of.emplace(a.correlation, &a).second;
    untimed += a.start_ns == 0 || a.start_ns > a.end_ns;
  }
  expect(twice == 0, std::to_string(twice) + " API calls recorded twice (by correlation id)");
  expect(untimed == 0, std::to_string(untimed) + " API calls without a beginning before their end");
  std::size_t correlated = 0, after_call = 0;
  for (const auto& k : m.kernels) {
    const auto call = call_of.find(k.correlation);
    if (call == call_of.end() || call->second->thread != k.thread) continue;
    ++correlated;
    after_call += k.start_ns >= call->second->start_ns;
  }
  expect(correlated == m.kernels.size(), std::to_string(correlated) + " of " + std::to_string(m.kernels.size()) +
                                             " kernels correlate with a launch call on their own thread");
  expect(after_call == correlated, std::to_string(after_call) + " of " + std::to_string(correlated) +
                                       " kernels start after their launch call began");
  // The filter: metrics for worker0's kernels only.
  std::size_t with_metrics = 0, right_range = 0;
  for (const auto& k : m.kernels) {
    if (k.metrics.empty()) continue;
    ++with_metrics;
    right_range += k.range == "worker0/scale";
  }
  expect(with_metrics == launches && right_range == launches,
         "metrics for exactly worker0's " + std::to_string(launches) + " kernels (got " + std::to_string(with_metrics) + ")");
  for (const auto& k : m.kernels)
    if (!k.metrics.empty()) {
      expect(catalog_value(k, "gld_efficiency") == 100.0, "worker0 scale gld_efficiency 100 %");
      break;
    }
  expect(m.metric_scope.find("worker0/*") != std::string::npos, "metric scope says 'worker0/*': " + m.metric_scope);
  // Copies: pageable and pinned, both directions, and the memset.
  std::set<std::string> copies;
  for (const auto& c : m.copies)
    copies.insert(c.is_memset ? "memset" : std::string(to_string(c.kind)) + " " + to_string(c.kind == labbook::CopyKind::HostToDevice ? c.src : c.dst));
  for (const char* want : {"HtoD pageable", "DtoH pageable", "HtoD pinned", "DtoH pinned", "memset"})
    expect(copies.count(want) == 1, std::string("a copy ") + want);
  // Ranges: the process-wide one is closed and flagged; push/pop ones are nested.
  bool whole = false;
  for (const auto& r : m.ranges)
    if (r.name == "whole program") whole = r.process_wide && r.end_ns.has_value();
  expect(whole, "the nvtxRangeStart/End range 'whole program' is recorded, process-wide and closed");
  std::map<std::string, std::size_t> uvm;
  for (const auto& e : m.memory_events) ++uvm[e.kind];
  expect(uvm["htod"] > 0 && uvm["gpu_page_fault"] > 0, "unified memory: migrations to the GPU and GPU page faults (" +
                                                           std::to_string(uvm["htod"]) + ", " + std::to_string(uvm["gpu_page_fault"]) + ")");
}

void check_stopped(const labbook::Measurement& m, int exit_code, const std::string& reason, std::size_t kernels) {
  expect(m.program.exit_code == exit_code, "exit code " + std::to_string(exit_code) + " passed on (got " +
                                               std::to_string(m.program.exit_code.value_or(-1)) + ")");
  expect(m.program.stop_reason == reason, "stop reason '" + reason + "' (got '" + m.program.stop_reason + "')");
  expect(m.kernels.size() == kernels, std::to_string(kernels) + " kernels kept (got " + std::to_string(m.kernels.size()) + ")");
  std::size_t timed = 0;
  for (const auto& k : m.kernels) timed += k.start_ns.has_value();
  expect(timed == kernels, "each kept kernel has its GPU time");
}

void check_transpose(const labbook::Measurement& m, const nlohmann::json& summary) {
  expect(m.program.exit_code == 0, "exit code 0");
  std::map<std::string, const labbook::Kernel*> by_name;
  for (const auto& k : m.kernels) by_name[labbook::kernel_short_name(k.name)] = &k;
  expect(by_name.size() == 5, "five kernels");
  for (const auto& [name, k] : by_name) expect(k->range.empty() && k->range_or_name() == name, name + " is its own range");
  auto value = [&](const char* kernel, const char* metric) {
    return by_name.count(kernel) ? catalog_value(*by_name[kernel], metric) : std::nan("");
  };
  const auto shown = [&](const char* kernel, const char* metric) {
    return std::string(" (") + kernel + " " + metric + " = " + std::to_string(value(kernel, metric)) + ")";
  };
  expect(value("transposeShared<0>", "shared_load_transactions_per_request") > 30,
         "unpadded tile: about 32 wavefronts per shared load" + shown("transposeShared<0>", "shared_load_transactions_per_request"));
  expect(value("transposeShared<1>", "shared_load_transactions_per_request") < 1.1,
         "padded tile: one wavefront per shared load" + shown("transposeShared<1>", "shared_load_transactions_per_request"));
  expect(value("transposeShared<1>", "shared_load_bank_conflicts") >= 0 &&
             value("transposeShared<1>", "shared_load_bank_conflicts") < 0.05 * value("transposeShared<0>", "shared_load_bank_conflicts"),
         "load bank conflicts: many unpadded, few padded" + shown("transposeShared<0>", "shared_load_bank_conflicts") +
             shown("transposeShared<1>", "shared_load_bank_conflicts"));
  expect(value("reverseThroughLocal", "local_load_transactions") > 0 && value("reverseThroughLocal", "local_store_transactions") > 0,
         "the local array moves local-memory sectors" + shown("reverseThroughLocal", "local_load_transactions"));
  expect(value("transposeNaive", "gst_efficiency") < 20 && value("copy", "gst_efficiency") == 100,
         "naive transpose stores are uncoalesced, the copy's are not" + shown("transposeNaive", "gst_efficiency"));
  // summary.json: nvprof's GPU activities.
  std::map<std::string, nlohmann::json> rows;
  for (const auto& r : summary["gpu_activities"]) rows[r["name"].get<std::string>()] = r;
  expect(rows.count("[CUDA memcpy HtoD]") && rows["[CUDA memcpy HtoD]"]["calls"] == 1, "one [CUDA memcpy HtoD]");
  expect(rows.count("[CUDA memcpy DtoH]") && rows["[CUDA memcpy DtoH]"]["calls"] == 5, "five [CUDA memcpy DtoH]");
  expect(rows.count("[CUDA memset]") && rows["[CUDA memset]"]["calls"] == 1, "one [CUDA memset]");
  double share = 0;
  for (const auto& [name, r] : rows) share += r["share_pct"].get<double>();
  expect(share > 99.99 && share < 100.01, "GPU activity shares add up to 100 %");
}

void check_filtered(const labbook::Measurement& m) {
  expect(m.program.exit_code == 0, "exit code 0: an unknown Perfworks metric does not fail the run");
  std::vector<std::string> with_metrics;
  for (const auto& k : m.kernels)
    if (!k.metrics.empty()) with_metrics.push_back(labbook::kernel_short_name(k.name));
  expect(with_metrics == std::vector<std::string>{"transposeShared<0>"},
         "metrics only for the second kernel matching 'transpose*' (transposeShared<0>), got " +
             std::to_string(with_metrics.size()));
  bool named = false;
  for (const auto& i : m.issues) named |= i.code == "metric_unavailable" && i.message.find("foo__bar.sum") != std::string::npos;
  expect(named, "the unavailable metric is named in a metric_unavailable issue");
  for (const auto& k : m.kernels)
    if (!k.metrics.empty())
      expect(k.metrics.count("dram__bytes_read.sum") == 1 && k.metrics.count("foo__bar.sum") == 0,
             "the available metric was collected, the unavailable one left out");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 3) throw labbook::Error("usage: check_profile threads|stopped|transpose DIR ...");
    const std::string mode = argv[1], dir = argv[2];
    const labbook::Measurement m = labbook::read_measurement(dir + "/measurements.json");
    if (mode == "threads" && argc == 4) check_threads(m, std::stoul(argv[3]));
    else if (mode == "stopped" && argc == 6) check_stopped(m, std::stoi(argv[3]), argv[4], std::stoul(argv[5]));
    else if (mode == "filtered" && argc == 3) check_filtered(m);
    else if (mode == "transpose" && argc == 3) {
      std::ifstream in(dir + "/summary.json");
      check_transpose(m, nlohmann::json::parse(in));
    } else throw labbook::Error("bad arguments for mode " + mode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "check_profile: %s\n", e.what());
    return 1;
  }
  std::printf("%d expectations failed\n", g_failures);
  return g_failures ? 1 : 0;
}
