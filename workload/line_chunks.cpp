#include "workload/line_chunks.h"

#include <algorithm>
#include <cstring>

#include "workload/input_error.h"

namespace ktune {
namespace {
constexpr size_t kFirstReadBytes = size_t{64} << 10;
}  // namespace

LineChunks::LineChunks(TextSource& source, size_t chunk_bytes, size_t max_line_bytes)
    : source_(source), chunk_bytes_(std::max<size_t>(chunk_bytes, 1)), max_line_bytes_(max_line_bytes) {}

std::string_view LineChunks::next() {
  first_line_ += std::count(buffer_.data(), buffer_.data() + piece_, '\n');
  offset_ += piece_;
  std::memmove(buffer_.data(), buffer_.data() + piece_, held_ - piece_);
  held_ -= piece_;
  piece_ = 0;
  size_t want = chunk_bytes_;
  for (;;) {
    while (held_ < want && !ended_) {
      // The buffer grows as text arrives: a short text (most uploads) must
      // not cost a whole piece of zeroed memory.
      if (held_ == buffer_.size()) buffer_.resize(std::min(want, std::max(2 * held_, kFirstReadBytes)));
      const size_t n = source_.read(buffer_.data() + held_, std::min(want, buffer_.size()) - held_);
      held_ += n;
      ended_ = n == 0;
    }
    if (ended_) {
      piece_ = held_;
      break;
    }
    const char* start = buffer_.data();
    const void* last_newline = memrchr(start, '\n', held_);
    if (last_newline) {
      piece_ = static_cast<size_t>(static_cast<const char*>(last_newline) - start) + 1;
      break;
    }
    // One line fills the buffer: read further, up to the longest line allowed.
    if (held_ > max_line_bytes_)
      throw InputError("line " + std::to_string(first_line_) + " is longer than " + std::to_string(max_line_bytes_) +
                       " bytes");
    want = std::min(want * 2, max_line_bytes_ + 1);
  }
  return {buffer_.data(), piece_};
}

}  // namespace ktune
