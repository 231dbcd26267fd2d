#include "resource_section.h"

#include <filesystem>

#include "format.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/text.h"
#include "resource_usage.h"

namespace labbook::report {

namespace {

/// Threads per block of the first recorded launch of `mangled`, or 0 when it never ran.
long long threads_per_block(const Measurement& m, const std::string& mangled) {
  for (const auto& k : m.kernels)
    if (k.mangled == mangled) return static_cast<long long>(k.block[0]) * k.block[1] * k.block[2];
  return 0;
}

std::string bytes(long n) { return n ? std::to_string(n) + " B" : "0"; }

}  // namespace

void add_resource_section(Sheet& sheet, const ResourceReport& report, const std::string& folder, const Measurement& m) {
  sheet.heading(3, report.title);
  if (!report.text.empty()) sheet.markdown(report.text);
  nlohmann::json data = {{"file", report.file}, {"kernels", nlohmann::json::array()}};
  if (!report.source_example.empty()) {
    sheet.lines({{"The source's report (" + report.citation + "):"}});
    sheet.code(report.source_example);
  }
  if (report.source_registers_per_block > 0 && report.source_threads_per_block > 0) {
    const long long per_thread = report.source_registers_per_block / report.source_threads_per_block;
    sheet.lines({{report.source_gpu + ": " + with_thousands(report.source_registers_per_block) + " registers per block / " +
                  with_thousands(report.source_threads_per_block) + " threads = " + std::to_string(per_thread) +
                  " registers per thread in a full block (" + report.citation + ")."}});
    data["source_registers_per_thread_full_block"] = per_thread;
  }
  const std::filesystem::path path = std::filesystem::path(folder) / report.file;
  const std::vector<KernelResources> kernels =
      std::filesystem::exists(path) ? parse_ptxas_report(read_file(path.string())) : std::vector<KernelResources>{};
  if (kernels.empty()) {
    sheet.lines({{"No compiler report: ", code(report.file), " is missing or names no kernel."}});
    sheet.data["resources"] = data;
    return;
  }
  Table t{{"Kernel", "Architecture", "Registers", "Barriers", "Stack frame", "Spill stores", "Spill loads", "Shared",
           "Constant", "Threads per block (launched)", "Registers per block"},
          {}};
  for (const auto& k : kernels) {
    long constant = 0;
    for (const auto& [bank, n] : k.constant_bytes) constant += n;
    const long long threads = threads_per_block(m, k.function);
    t.rows.push_back({Text{code(kernel_short_name(demangled(k.function)))}, k.architecture, std::to_string(k.registers), std::to_string(k.barriers),
                      bytes(k.stack_bytes), bytes(k.spill_store_bytes), bytes(k.spill_load_bytes), bytes(k.shared_bytes),
                      k.constant_bytes.empty() ? std::string("not reported") : bytes(constant),
                      threads ? with_thousands(threads) : std::string("not launched"),
                      threads ? with_thousands(threads * k.registers) : std::string("—")});
    nlohmann::json row = {{"function", k.function}, {"architecture", k.architecture}, {"registers", k.registers},
                          {"barriers", k.barriers}, {"stack_bytes", k.stack_bytes},
                          {"spill_store_bytes", k.spill_store_bytes}, {"spill_load_bytes", k.spill_load_bytes},
                          {"shared_bytes", k.shared_bytes}};
    if (!k.constant_bytes.empty()) row["constant_bytes"] = constant;
    if (threads) row["registers_per_block"] = threads * k.registers;
    data["kernels"].push_back(row);
  }
  sheet.table(std::move(t));
  sheet.data["resources"] = data;
}

}  // namespace labbook::report
