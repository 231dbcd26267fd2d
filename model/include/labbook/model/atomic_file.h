#pragma once
#include <string>

namespace labbook {

/// Writes `contents` to `path` through a temporary file in the same folder and a rename,
/// so a reader never sees a partial file and an old file survives a failed write.
/// Creates missing parent folders. Throws labbook::Error naming the path.
void write_file_atomically(const std::string& path, const std::string& contents);

/// Reads a whole file. Throws labbook::Error naming the path.
std::string read_file(const std::string& path);

}  // namespace labbook
