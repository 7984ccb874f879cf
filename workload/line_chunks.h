#pragma once
// Whole lines of a TextSource, a large piece at a time, with the line number and offset each
// piece starts at: parsers hold one piece, scan it on several threads and still name lines
// as they are in the whole text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "workload/text_source.h"

namespace ktune {

class LineChunks {
 public:
  static constexpr size_t kChunkBytes = size_t{16} << 20;
  // The Matrix Market format allows 1024 characters a line; this is generous beyond it.
  static constexpr size_t kMaxLineBytes = size_t{1} << 20;

  explicit LineChunks(TextSource& source, size_t chunk_bytes = kChunkBytes, size_t max_line_bytes = kMaxLineBytes);

  // The next piece: whole lines (the text's last may lack its newline); empty at the end.
  // A line longer than max_line_bytes throws InputError naming it.
  std::string_view next();

  int64_t first_line() const { return first_line_; }   // 1-based number of the piece's first line
  uint64_t offset() const { return offset_; }           // bytes of text before the piece
  uint64_t bytes_read() const { return offset_ + piece_; }  // bytes up to the piece's end

 private:
  TextSource& source_;
  size_t chunk_bytes_, max_line_bytes_;
  std::string buffer_;
  size_t held_ = 0;   // bytes in buffer_: the piece, then the next piece's start
  size_t piece_ = 0;  // bytes of the current piece at the front of buffer_
  bool ended_ = false;
  int64_t first_line_ = 1;
  uint64_t offset_ = 0;
};

}  // namespace ktune
