#pragma once
// gzip in and out of memory (workload/text_source.h reads it a piece at a time).
#include <cstddef>
#include <string>
#include <string_view>

namespace ktune {

// zlib's windowBits for gzip: a 15-bit window, with the gzip header and trailer.
constexpr int kGzipWindowBits = 15 + 16;

bool is_gzip(std::string_view bytes);

// `bytes` inflated when they start with the gzip magic (all members of a multi-member
// file), else `bytes` unchanged. Output beyond `max_output_bytes` throws LimitError (having
// inflated at most a megabyte more), a corrupt or truncated stream InputError.
std::string gunzip_if_compressed(std::string_view bytes, size_t max_output_bytes);

// A single gzip member holding `bytes`; level 1 (fastest) to 9 (smallest).
std::string gzip_compress(std::string_view bytes, int level = 6);

}  // namespace ktune
