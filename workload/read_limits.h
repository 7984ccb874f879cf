#pragma once
// What a client may make the daemon read or generate. Every reader checks a workload's sizes
// against these before allocating for it, and stops a text as soon as it runs past what its
// entries can need, so that memory and time follow the entries, never the bytes a client
// sends or the dimensions it declares. Beyond them a reader throws LimitError.
#include <cstddef>
#include <cstdint>

namespace ktune {

struct ReadLimits {
  int64_t max_rows = int64_t{1} << 24;
  int64_t max_cols = int64_t{1} << 24;
  // Stored entries, before symmetric mirroring. At 2^23 a tune's peak memory stays within
  // about 1 GB (the upload, its CSR, and the plans the candidates prepare side by side).
  int64_t max_entries = int64_t{1} << 23;
  // Rows and columns cost memory and time whether or not they hold entries (row pointers,
  // vectors, per-row features): a matrix may have this many of each for free and this
  // many more for each entry, so a few bytes cannot declare a matrix of 2^28 empty rows.
  int64_t free_dimension = int64_t{1} << 20;
  int64_t dimension_per_entry = 16;
  // Text beyond the entries (banner, comments, blank lines), and bytes per entry line.
  size_t text_slack_bytes = size_t{1} << 20;
  size_t bytes_per_entry = 256;
};

// Throws LimitError, naming the limit and its flag, when a rows x cols matrix with
// `entries` stored entries is beyond `limits`.
void check_matrix_size(int64_t rows, int64_t cols, int64_t entries, const ReadLimits& limits);

// The most bytes of text a file with `entries` entries may take.
uint64_t max_text_bytes(int64_t entries, const ReadLimits& limits);

}  // namespace ktune
