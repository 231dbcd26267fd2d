#pragma once
// A gzip file made of pieces compressed side by side: each piece is a deflate stream of its
// own that ends on a byte boundary without a final block, so the pieces in order are one
// deflate stream, and the file one gzip member, which every gzip reader (and Perfetto's,
// which stops at a member's end) reads whole.
#include <cstdint>
#include <string>
#include <string_view>

#include "labbook/model/atomic_file.h"

namespace labbook::report {

/// Text compressed on its own (raw deflate, flushed to a byte boundary, not final), with
/// the CRC-32 and length of the text it holds.
struct DeflatedPiece {
  std::string bytes;
  std::uint32_t crc = 0;
  std::uint64_t length = 0;
};

/// Compresses `text` into a piece; safe to call from several threads at once.
DeflatedPiece deflate_piece(std::string_view text);

/// A .gz file written piece by piece, atomically (AtomicFileWriter). Throws labbook::Error.
class GzipFileWriter {
 public:
  explicit GzipFileWriter(const std::string& path);
  void write(const DeflatedPiece& piece);
  /// Ends the deflate stream, writes the gzip trailer and renames the file into place.
  void commit();

 private:
  AtomicFileWriter file_;
  std::uint32_t crc_ = 0;
  std::uint64_t length_ = 0;
};

}  // namespace labbook::report
