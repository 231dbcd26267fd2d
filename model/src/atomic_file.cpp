#include "labbook/model/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "labbook/model/error.h"

namespace labbook {

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw Error(path + ": cannot create folder: " + ec.message());
  // The pid keeps two processes writing the same file from sharing a temporary.
  tmp_ = path + ".tmp." + std::to_string(::getpid());
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw Error(tmp_ + ": cannot open for writing: " + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (committed_) return;
  out_.close();
  std::remove(tmp_.c_str());
}

void AtomicFileWriter::write(std::string_view text) {
  out_.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out_) throw Error(tmp_ + ": write failed");
}

void AtomicFileWriter::commit() {
  out_.close();
  if (!out_) throw Error(tmp_ + ": write failed");
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw Error(path_ + ": cannot replace: " + std::strerror(errno));
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFileWriter file(path);
  file.write(contents);
  file.commit();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) {   // not a regular file (a pipe): read to its end
    in.clear();
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(text.data(), size)) throw Error(path + ": cannot read: " + std::strerror(errno));
  return text;
}

}  // namespace labbook
