#include "workload/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "workload/input_error.h"
#include "workload/text_source.h"

namespace ktune {
namespace {

// zlib counts in 32-bit unsigned ints; larger buffers are fed in pieces of this size.
constexpr size_t kZlibChunk = size_t{1} << 30;

std::string size_text(size_t bytes) { return std::to_string(bytes) + " bytes"; }

}  // namespace

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip_if_compressed(std::string_view bytes, size_t max_output_bytes) {
  const std::unique_ptr<TextSource> source = text_from_bytes(bytes);
  std::string out;
  constexpr size_t kPiece = size_t{1} << 20;
  for (;;) {
    const size_t held = out.size();
    out.resize(held + std::min(kPiece, max_output_bytes - held) + 1);
    const size_t n = source->read(out.data() + held, out.size() - held);
    out.resize(held + n);
    if (n == 0) return out;
    if (out.size() > max_output_bytes)
      throw LimitError("content is larger than the limit of " + size_text(max_output_bytes));
  }
}

std::string gzip_compress(std::string_view bytes, int level) {
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw InputError("gzip level must be 1..9, got " + std::to_string(level));
  }
  std::string out;
  size_t in_pos = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t in_take = std::min(bytes.size() - in_pos, kZlibChunk);
    const bool last = in_pos + in_take == bytes.size();
    const size_t out_pos = out.size();
    const size_t out_take = std::min<size_t>(deflateBound(&stream, in_take) + 64, kZlibChunk);
    out.resize(out_pos + out_take);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + in_pos));
    stream.avail_in = static_cast<uInt>(in_take);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
    stream.avail_out = static_cast<uInt>(out_take);
    rc = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH);
    in_pos += in_take - stream.avail_in;
    out.resize(out_pos + out_take - stream.avail_out);
  }
  deflateEnd(&stream);
  return out;
}

}  // namespace ktune
