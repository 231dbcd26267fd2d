#include "gzip_pieces.h"

#include <zlib.h>

#include "labbook/model/error.h"

namespace labbook::report {

namespace {
// Level 1: the trace's repetitive JSON still shrinks twentyfold, at a fraction of the
// default level's time, which the report step's wall time cannot spare.
constexpr int kLevel = 1;

void append_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}
}  // namespace

DeflatedPiece deflate_piece(std::string_view text) {
  DeflatedPiece piece;
  piece.length = text.size();
  piece.crc = static_cast<std::uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(text.data()), text.size()));
  z_stream z{};
  // Negative window bits: a raw deflate stream, without zlib's header and checksum.
  if (::deflateInit2(&z, kLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error("deflate: cannot start a compressor (zlib: out of memory)");
  piece.bytes.resize(::deflateBound(&z, text.size()) + 16);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  std::size_t done = 0;
  int status = Z_OK;
  do {   // Z_SYNC_FLUSH ends on a byte boundary with an empty stored block and no final bit
    if (done == piece.bytes.size()) piece.bytes.resize(2 * piece.bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(piece.bytes.data() + done);
    z.avail_out = static_cast<uInt>(piece.bytes.size() - done);
    status = ::deflate(&z, Z_SYNC_FLUSH);
    done = piece.bytes.size() - z.avail_out;
  } while (status == Z_OK && z.avail_out == 0);
  ::deflateEnd(&z);
  piece.bytes.resize(done);
  if (status != Z_OK || z.avail_in != 0)
    throw Error("deflate: the compressor stopped short (zlib status " + std::to_string(status) + ")");
  return piece;
}

GzipFileWriter::GzipFileWriter(const std::string& path) : file_(path), crc_(static_cast<std::uint32_t>(::crc32_z(0, nullptr, 0))) {
  // ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown (RFC 1952).
  static constexpr char kHeader[10] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, '\xff'};
  file_.write(std::string_view(kHeader, sizeof kHeader));
}

void GzipFileWriter::write(const DeflatedPiece& piece) {
  if (piece.length == 0) return;
  file_.write(piece.bytes);
  crc_ = static_cast<std::uint32_t>(::crc32_combine(crc_, piece.crc, static_cast<z_off_t>(piece.length)));
  length_ += piece.length;
}

void GzipFileWriter::commit() {
  std::string tail = "\x03";   // an empty final block of fixed codes: BFINAL 1, BTYPE 01, end code
  tail += '\0';
  append_le32(tail, crc_);
  append_le32(tail, static_cast<std::uint32_t>(length_));   // ISIZE: the length modulo 2^32
  file_.write(tail);
  file_.commit();
}

}  // namespace labbook::report
