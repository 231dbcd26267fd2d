#include "harness_records.h"

#include "call_audit.h"

#include <cstring>

#include <nlohmann/json.hpp>

namespace labbook::grading {

namespace {

/// No record line of the protocol comes near this (its outputs travel as raw bytes).
constexpr std::size_t kLongestRecord = 64 << 10;

/// Reads the stream record by record; `fail` says where it first broke the protocol.
class RecordReader {
 public:
  explicit RecordReader(const std::string& stream) : stream_(stream) {}
  bool at_end() const { return at_ == stream_.size(); }
  /// The next JSON line, or a discarded value with `problem` set.
  nlohmann::json next(std::string& problem) {
    const std::size_t eol = stream_.find('\n', at_);
    if (eol == std::string::npos) {
      problem = "its last record is cut off";
      return {};
    }
    if (eol - at_ > kLongestRecord) {
      problem = "record " + std::to_string(count_ + 1) + " is longer than any record of the protocol";
      return {};
    }
    const std::string line = stream_.substr(at_, eol - at_);
    at_ = eol + 1;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.size() < 1) problem = "record " + std::to_string(count_ + 1) + " is not a record";
    ++count_;
    return j;
  }
  /// The `n` raw bytes that follow a record, as floats (copied: the stream gives them no
  /// alignment); false when the stream holds fewer or `n` is no whole number of floats.
  bool floats(std::uint64_t n, std::vector<float>& out) {
    if (n > stream_.size() - at_ || n % sizeof(float) != 0) return false;
    out.resize(n / sizeof(float));
    std::memcpy(out.data(), stream_.data() + at_, n);
    at_ += n;
    return true;
  }

 private:
  const std::string& stream_;
  std::size_t at_ = 0;
  int count_ = 0;
};

/// Why `out` is not the output of this call ("" when it is).
std::string check_output(const OutputCheck& check, std::uint64_t seed, const std::vector<std::uint64_t>& shape,
                         const float* out, const lab::Tolerance& tolerance) {
  if (check.kind == "transpose") return lab::check_transpose(seed, shape.at(0), shape.at(1), out, tolerance);
  if (check.kind == "local_array") return lab::check_local_array(seed, shape.at(0), out);   // words: exact
  if (check.kind == "affine_rounds")   // labs 2 and 8: words, exact; constants [rounds]
    return lab::check_affine_rounds(seed, shape.at(0), static_cast<std::uint32_t>(check.constants.at(0)), out);
  if (check.kind == "stencil5")   // lab 7: shape [width, height], weights [c0, c1]
    return lab::check_stencil(seed, shape.at(0), shape.at(1), check.constants.at(0), check.constants.at(1), out, tolerance);
  if (check.kind == "matmul")   // lab 6: shape [m, k, n], C = A B within the tolerance scaled by the terms
    return lab::check_matmul(seed, shape.at(0), shape.at(1), shape.at(2), out, tolerance);
  return lab::check_add_constants(seed, shape.at(0), check.constants, check.outputs, out, tolerance);
}

}  // namespace

HarnessResult judge_harness_records(const std::string& stream, const Exercise& exercise, std::uint64_t base_seed,
                                    const lab::Tolerance& tolerance) {
  HarnessResult result;
  std::string protocol;   // the first way the stream broke the protocol
  const auto broken = [&](const std::string& why) {
    if (protocol.empty()) protocol = why;
  };
  RecordReader reader(stream);
  const OutputCheck& check = exercise.check;
  std::size_t student_calls = 0;
  std::uint64_t last_seed = base_seed * 1000;
  bool ended = false, call_open = false;
  std::vector<float> out;
  // The first problem in the stream's order, the harness's own (a changed input, a CUDA
  // error) or an output labbook found wrong: what a student running the harness alone sees.
  const auto wrong = [&](const std::string& problem) {
    if (result.problem.empty()) result.problem = problem;
  };
  if (reader.at_end()) broken("it sent no records");
  for (bool first = true; !reader.at_end() && protocol.empty(); first = false) {
    std::string bad;
    const nlohmann::json r = reader.next(bad);
    if (!bad.empty()) {
      broken(bad);
      break;
    }
    if (ended) {
      broken("it sent records after its last");
      break;
    }
    if (first) {
      const auto version = r.find("labbook_harness");
      if (version == r.end() || !version->is_number_integer() || version->get<long long>() != lab::kHarnessProtocol)
        broken("its records are not labbook's harness protocol " + std::to_string(lab::kHarnessProtocol) + " (rebuild it against this labbook)");
      continue;
    }
    if (r.contains("labbook_harness")) {
      broken("it began its records a second time");
      break;
    } else if (r.contains("setup_failed") && r["setup_failed"].is_string()) {
      // The harness could not set up before any student code ran: labbook's trouble.
      if (!result.calls.empty()) {
        broken("it said the harness could not set up after its calls had begun");
        break;
      }
      result.setup_failure = r["setup_failed"].get<std::string>();
    } else if (r.contains("call") && r["call"].is_string() && r.contains("seconds") && r["seconds"].is_number()) {
      result.calls.push_back({r["call"].get<std::string>(), r["seconds"].get<double>(), 0, 0});
      // Only a call of the student's has an output; the reference's never does.
      call_open = !within(result.calls.back().range, exercise.reference_range);
    } else if (r.contains("output") && r["output"].is_number_unsigned() && r.contains("shape") && r["shape"].is_array() &&
               r.contains("bytes") && r["bytes"].is_number_unsigned()) {
      const auto seed = r["output"].get<std::uint64_t>();
      std::vector<std::uint64_t> shape;
      for (const auto& d : r["shape"]) {
        if (!d.is_number_unsigned()) break;
        shape.push_back(d.get<std::uint64_t>());
      }
      const auto bytes = r["bytes"].get<std::uint64_t>();
      if (!call_open) {
        broken("it sent an output with no call of the student's just before it");
        break;
      }
      call_open = false;
      if (student_calls >= check.calls.size()) {
        broken("it sent more outputs than the exercise's " + std::to_string(check.calls.size()) + " calls");
        break;
      }
      const auto& want_shape = check.calls[student_calls];
      if (shape != want_shape) {
        broken("output " + std::to_string(student_calls + 1) + " is not of the size the exercise calls with");
        break;
      }
      // Every call draws a seed of its own, from labbook's: never one used before.
      if (seed <= last_seed || seed / 1000 != base_seed) {
        broken("output " + std::to_string(student_calls + 1) + " is for inputs labbook did not ask for");
        break;
      }
      last_seed = seed;
      if (bytes != check.output_floats(shape) * sizeof(float) || !reader.floats(bytes, out)) {
        broken("output " + std::to_string(student_calls + 1) + " is cut off or of the wrong size");
        break;
      }
      HarnessCall& call = result.calls.back();
      call.compulsory_read_bytes = check.compulsory_read_bytes(shape);
      call.compulsory_write_bytes = check.compulsory_bytes(shape);
      ++student_calls;
      if (result.problem.empty())
        if (std::string why = check_output(check, seed, shape, out.data(), tolerance); !why.empty())
          wrong(lab::call_name(static_cast<int>(student_calls), shape) + ": " + why);
    } else if (r.contains("problem") && r["problem"].is_string()) {
      wrong(r["problem"].get<std::string>());
    } else if (r.contains("flag") && r["flag"].is_string() && r.contains("message") && r["message"].is_string()) {
      result.flags.push_back({r["flag"].get<std::string>(), r["message"].get<std::string>()});
    } else if (r.contains("end") && r["end"] == true) {
      ended = true;
    } else {
      // ASCII only (ensure_ascii), so that cutting it never splits a character.
      broken("record " + r.dump(-1, ' ', true).substr(0, 80) + " is not one labbook knows");
    }
  }
  // A problem found before the stream broke stands (the run is wrong either way); a broken
  // stream comes next; then a stream that stopped short.
  if (!result.problem.empty()) {
    if (!ended) result.problem += " (and the program did not finish)";
  } else if (!protocol.empty()) {
    result.problem = "the program's records to labbook are not to be trusted: " + protocol;
  } else if (!ended || student_calls != check.calls.size()) {
    result.problem = "the program stopped after " + std::to_string(student_calls) + " of the exercise's " +
                     std::to_string(check.calls.size()) + " calls, without finishing";
  }
  result.correct = result.problem.empty();
  return result;
}

}  // namespace labbook::grading
