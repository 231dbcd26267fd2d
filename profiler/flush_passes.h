#pragma once
/// @file
/// The passes of the L2 flush (l2_flusher.h) over its buffer, twice the L2. The default, write
/// then discard, leaves L2 without the program's data, as `ncu --cache-control all` does; the
/// others exist to study what L2's counters see after each (LABBOOK_L2_FLUSH,
/// tools/probe-l2-hit-rate.sh). No CUDA here.
#include <string>
#include <vector>

namespace labbook::profiler {

/// Write stores 16 bytes a thread, so a 128-byte line is written by 8 threads; WriteLines
/// stores whole lines, each from the thread that Discard gives the same line.
enum class FlushPass { Write, Discard, Read, WriteLines };

/// "write,discard" and the like, in order. Throws labbook::Error naming the unknown word.
std::vector<FlushPass> parse_flush_passes(const std::string& text);

}  // namespace labbook::profiler
