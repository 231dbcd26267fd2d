#include <filesystem>
#include <random>

#include <gtest/gtest.h>
#include <zlib.h>

#include "labbook/model/atomic_file.h"

#include "gzip_pieces.h"
#include "trace_writer.h"

using namespace labbook;

namespace {
/// The text of a gzip file's first member, as readers that stop at a member's end (Perfetto's)
/// read it; `trailing` says how many bytes follow that member.
std::string gunzip_first_member(const std::string& gz, std::size_t* trailing) {
  z_stream z{};
  EXPECT_EQ(::inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  std::string text;
  char buffer[1 << 16];
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    status = ::inflate(&z, Z_NO_FLUSH);
    text.append(buffer, sizeof buffer - z.avail_out);
  }
  EXPECT_EQ(status, Z_STREAM_END) << "a whole member, its CRC and length checked";
  *trailing = z.avail_in;
  ::inflateEnd(&z);
  return text;
}

std::filesystem::path fresh_folder(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
}  // namespace

TEST(GzipPieces, PiecesCompressedApartReadBackAsOneMember) {
  const auto dir = fresh_folder("labbook-gzip-pieces-test");
  std::mt19937 random(7);
  std::string noise(3u << 20, ' ');   // incompressible: stored blocks, and more than deflateBound's guess
  for (char& c : noise) c = static_cast<char>(random());
  const std::vector<std::string> texts = {"{\"traceEvents\": [\n", "", std::string(100000, 'x'), noise, "\n]}\n"};
  std::vector<report::DeflatedPiece> pieces(texts.size());
  for (std::size_t i = texts.size(); i-- > 0;) pieces[i] = report::deflate_piece(texts[i]);   // any order
  report::GzipFileWriter file((dir / "t.gz").string());
  std::string whole;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    file.write(pieces[i]);
    whole += texts[i];
  }
  file.commit();
  std::size_t trailing = 1;
  EXPECT_EQ(gunzip_first_member(read_file((dir / "t.gz").string()), &trailing), whole);
  EXPECT_EQ(trailing, 0u) << "one member, nothing after it";
  std::filesystem::remove_all(dir);
}

TEST(GzipPieces, ATraceNamedGzIsTheTraceCompressedTenfold) {
  const auto dir = fresh_folder("labbook-gzip-trace-test");
  Measurement m;
  for (std::uint32_t i = 0; i < 20000; ++i) {   // several spans, compressed side by side
    Kernel k;
    k.name = "k" + std::to_string(i % 7);
    k.launch = i;
    k.correlation = i + 1;
    k.start_ns = 1000ull * i + 20;
    k.end_ns = 1000ull * i + 500;
    m.kernels.push_back(k);
    m.api_calls.push_back({"cudaLaunchKernel", 1, i + 1, 1000ull * i, 1000ull * i + 10});
  }
  const std::string path = (dir / "trace.json.gz").string();
  report::write_chrome_trace(m, path);
  const std::string gz = read_file(path);
  const std::string text = report::chrome_trace(m);
  std::size_t trailing = 1;
  EXPECT_EQ(gunzip_first_member(gz, &trailing), text);
  EXPECT_EQ(trailing, 0u);
  EXPECT_LT(gz.size() * 8, text.size()) << gz.size() << " bytes compressed of " << text.size();
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "trace.json.gz") << "a temporary file was left behind";
  std::filesystem::remove_all(dir);
}
