#include "workload/text_source.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>

#include "workload/gzip.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr size_t kInputBlock = 256 << 10;
// zlib counts in 32-bit unsigned ints.
constexpr size_t kZlibMax = std::numeric_limits<uInt>::max();

// Raw bytes, before any inflation.
class ByteInput {
 public:
  virtual ~ByteInput() = default;
  virtual size_t read(char* out, size_t capacity) = 0;
};

class MemoryInput : public ByteInput {
 public:
  explicit MemoryInput(std::string_view bytes) : bytes_(bytes) {}
  size_t read(char* out, size_t capacity) override {
    const size_t n = std::min(capacity, bytes_.size() - pos_);
    std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

class FileInput : public ByteInput {
 public:
  FileInput(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  ~FileInput() override { std::fclose(file_); }
  size_t read(char* out, size_t capacity) override {
    const size_t n = std::fread(out, 1, capacity, file_);
    if (n == 0 && std::ferror(file_)) throw InputError("cannot read '" + path_ + "': " + std::strerror(errno));
    return n;
  }

 private:
  std::FILE* file_;
  std::string path_;
};

class PlainText : public TextSource {
 public:
  explicit PlainText(std::unique_ptr<ByteInput> in) : in_(std::move(in)) {}
  size_t read(char* out, size_t capacity) override { return in_->read(out, capacity); }

 private:
  std::unique_ptr<ByteInput> in_;
};

class GzipText : public TextSource {
 public:
  explicit GzipText(std::unique_ptr<ByteInput> in) : in_(std::move(in)), block_(kInputBlock, '\0') {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) throw std::bad_alloc();
  }
  ~GzipText() override { inflateEnd(&stream_); }

  size_t read(char* out, size_t capacity) override {
    stream_.next_out = reinterpret_cast<Bytef*>(out);
    stream_.avail_out = static_cast<uInt>(std::min(capacity, kZlibMax));
    const uInt wanted = stream_.avail_out;
    while (stream_.avail_out == wanted && !finished_) step();
    return wanted - stream_.avail_out;
  }

 private:
  // One inflate call, refilling the input first when it ran dry.
  void step() {
    if (stream_.avail_in == 0 && !refill()) {
      if (between_members_) {
        finished_ = true;
        return;
      }
      throw InputError("gzip data is truncated: the stream ends before its end marker after " +
                       std::to_string(stream_.total_out) + " bytes of content");
    }
    if (between_members_) {
      // Another member follows only if it starts with the magic bytes.
      if (stream_.avail_in < 2 && !top_up()) return trailing_garbage();
      if (!is_gzip({reinterpret_cast<const char*>(stream_.next_in), stream_.avail_in})) return trailing_garbage();
      inflateReset(&stream_);
      between_members_ = false;
    }
    const int rc = inflate(&stream_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      between_members_ = true;
    } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
      throw InputError(std::string("gzip data is corrupt: ") + (stream_.msg ? stream_.msg : "invalid deflate stream"));
    } else if (rc == Z_MEM_ERROR) {
      throw std::bad_alloc();
    }
  }

  bool refill() {
    const size_t n = in_->read(block_.data(), block_.size());
    stream_.next_in = reinterpret_cast<Bytef*>(block_.data());
    stream_.avail_in = static_cast<uInt>(n);
    return n > 0;
  }

  // One byte of input after a lone byte left over: enough to test for the magic.
  bool top_up() {
    block_[0] = static_cast<char>(*stream_.next_in);
    const size_t n = in_->read(block_.data() + 1, block_.size() - 1);
    stream_.next_in = reinterpret_cast<Bytef*>(block_.data());
    stream_.avail_in = static_cast<uInt>(n + 1);
    return n > 0;
  }

  [[noreturn]] void trailing_garbage() const {
    throw InputError("gzip data is followed by bytes that are not another gzip member");
  }

  std::unique_ptr<ByteInput> in_;
  std::string block_;
  z_stream stream_{};
  bool between_members_ = false;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<TextSource> text_from_bytes(std::string_view bytes) {
  auto in = std::make_unique<MemoryInput>(bytes);
  if (is_gzip(bytes)) return std::make_unique<GzipText>(std::move(in));
  return std::make_unique<PlainText>(std::move(in));
}

std::unique_ptr<TextSource> text_from_file(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw NotFoundError("file '" + path + "' does not exist");
  if (!std::filesystem::is_regular_file(status)) throw InputError("'" + path + "' is not a regular file");
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
  char magic[2] = {0, 0};
  const size_t got = std::fread(magic, 1, 2, file);
  std::rewind(file);
  auto in = std::make_unique<FileInput>(file, path);
  if (is_gzip({magic, got})) return std::make_unique<GzipText>(std::move(in));
  return std::make_unique<PlainText>(std::move(in));
}

}  // namespace ktune
