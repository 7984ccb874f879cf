#pragma once
// gzip in and out of memory, and reading client files with a size cap.
#include <cstddef>
#include <string>
#include <string_view>

namespace ktune {

bool is_gzip(std::string_view bytes);

// `bytes` inflated when they start with the gzip magic (all members of a multi-member
// file), else `bytes` unchanged. Output beyond `max_output_bytes` throws LimitError, a
// corrupt or truncated stream InputError.
std::string gunzip_if_compressed(std::string_view bytes, size_t max_output_bytes);

// A single gzip member holding `bytes`; level 1 (fastest) to 9 (smallest).
std::string gzip_compress(std::string_view bytes, int level = 6);

// The content of the file at `path`, inflated if it is gzip. Both the file and its inflated
// content are capped at `max_bytes` (LimitError); a missing file is a NotFoundError, an
// unreadable one an InputError.
std::string read_file_limited(const std::string& path, size_t max_bytes);

}  // namespace ktune
