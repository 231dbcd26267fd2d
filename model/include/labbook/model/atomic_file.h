#pragma once
#include <fstream>
#include <string>
#include <string_view>

namespace labbook {

/// A file written piece by piece into a temporary file in the same folder, which commit()
/// renames to `path`: a reader never sees a partial file, and an old file survives a failed
/// or abandoned write (the destructor removes the temporary). Creates missing parent folders.
/// Throws labbook::Error naming the path.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::string& path);
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  void write(std::string_view text);
  /// Replaces `path` with what was written.
  void commit();

 private:
  std::string path_, tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

/// Writes `contents` to `path` through a temporary file in the same folder and a rename,
/// so a reader never sees a partial file and an old file survives a failed write.
/// Creates missing parent folders. Throws labbook::Error naming the path.
void write_file_atomically(const std::string& path, const std::string& contents);

/// Reads a whole file. Throws labbook::Error naming the path.
std::string read_file(const std::string& path);

}  // namespace labbook
