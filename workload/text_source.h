#pragma once
// Text pulled in pieces from memory or a file, inflated on the way when it is gzip (by its
// magic bytes, not its name), so that a reader never holds a whole decompressed file and can
// stop one that goes on too long after the first piece too many.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace ktune {

class TextSource {
 public:
  virtual ~TextSource() = default;
  // Up to `capacity` bytes of text into `out`; 0 only at the end. A corrupt or truncated
  // gzip stream throws InputError.
  virtual size_t read(char* out, size_t capacity) = 0;
};

// `bytes` (which must outlive the source), inflated if gzip (every member of a multi-member file).
std::unique_ptr<TextSource> text_from_bytes(std::string_view bytes);

// The regular file at `path`, read as it is consumed. A missing file is a NotFoundError,
// anything else that is not a readable regular file an InputError.
std::unique_ptr<TextSource> text_from_file(const std::string& path);

}  // namespace ktune
