#include "workload/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "workload/input_error.h"

namespace ktune {
namespace {

// zlib counts in 32-bit unsigned ints; larger buffers are fed in pieces of this size.
constexpr size_t kZlibChunk = size_t{1} << 30;
constexpr int kGzipWindowBits = 15 + 16;  // 15-bit window, gzip header and trailer

std::string size_text(size_t bytes) { return std::to_string(bytes) + " bytes"; }

// One byte more than the cap: room to notice that the content goes past it.
size_t one_past(size_t max_bytes) {
  return max_bytes < std::numeric_limits<size_t>::max() ? max_bytes + 1 : max_bytes;
}

// Deflate cannot expand data more than about 1032 times.
constexpr size_t kMaxInflateRatio = 1032;

// The trailer of the last member holds its size modulo 2^32: a good first guess for the
// output buffer, but only a claim, so never trusted beyond what deflate can produce from
// this input or beyond the caller's cap.
size_t guessed_output_size(std::string_view bytes, size_t max_output_bytes) {
  uint32_t last_member_size = 0;
  if (bytes.size() >= 18) std::memcpy(&last_member_size, bytes.data() + bytes.size() - 4, 4);
  const size_t guess = std::max<size_t>({last_member_size, bytes.size() * 4, 1 << 16});
  return std::min({guess, bytes.size() * kMaxInflateRatio + (1 << 16), one_past(max_output_bytes)});
}

class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) throw std::bad_alloc();
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  std::string run(std::string_view in, size_t max_output_bytes) {
    std::string out(guessed_output_size(in, max_output_bytes), '\0');
    size_t in_pos = 0;
    size_t out_pos = 0;
    for (;;) {
      if (out_pos == out.size()) {
        if (out.size() > max_output_bytes) {
          throw LimitError("gzip content is larger than the limit of " +
                           size_text(max_output_bytes));
        }
        out.resize(std::min(out.size() * 2, one_past(max_output_bytes)));
      }
      const size_t in_take = std::min(in.size() - in_pos, kZlibChunk);
      const size_t out_take = std::min(out.size() - out_pos, kZlibChunk);
      stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + in_pos));
      stream_.avail_in = static_cast<uInt>(in_take);
      stream_.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
      stream_.avail_out = static_cast<uInt>(out_take);
      const int rc = inflate(&stream_, Z_NO_FLUSH);
      in_pos += in_take - stream_.avail_in;
      out_pos += out_take - stream_.avail_out;
      if (out_pos > max_output_bytes) {
        throw LimitError("gzip content is larger than the limit of " + size_text(max_output_bytes));
      }
      if (rc == Z_STREAM_END) {
        if (!is_gzip(in.substr(in_pos))) {
          if (in_pos != in.size()) {
            throw InputError("gzip data is followed by " + size_text(in.size() - in_pos) +
                             " that are not another gzip member");
          }
          out.resize(out_pos);
          return out;
        }
        inflateReset(&stream_);  // another member follows: concatenate its content
        continue;
      }
      if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
        throw InputError(std::string("gzip data is corrupt: ") +
                         (stream_.msg ? stream_.msg : "invalid deflate stream"));
      }
      if (rc == Z_MEM_ERROR) throw std::bad_alloc();
      if (in_pos == in.size() && stream_.avail_out != 0) {
        throw InputError("gzip data is truncated: the stream ends before its end marker after " +
                         size_text(out_pos) + " of content");
      }
    }
  }

 private:
  z_stream stream_{};
};

}  // namespace

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip_if_compressed(std::string_view bytes, size_t max_output_bytes) {
  if (!is_gzip(bytes)) {
    if (bytes.size() > max_output_bytes) {
      throw LimitError("content of " + size_text(bytes.size()) + " is larger than the limit of " +
                       size_text(max_output_bytes));
    }
    return std::string(bytes);
  }
  return Inflater().run(bytes, max_output_bytes);
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

std::string read_file_limited(const std::string& path, size_t max_bytes) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw NotFoundError("file '" + path + "' does not exist");
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError("'" + path + "' is not a regular file");
  }
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw InputError("cannot read '" + path + "': " + error.message());
  if (size > max_bytes) {
    throw LimitError("'" + path + "' has " + size_text(size) + ", more than the limit of " +
                     size_text(max_bytes));
  }
  std::ifstream file(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!file.read(bytes.data(), static_cast<std::streamsize>(size))) {
    throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  }
  return gunzip_if_compressed(bytes, max_bytes);
}

}  // namespace ktune
