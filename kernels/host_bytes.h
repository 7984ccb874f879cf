#pragma once
// Immutable host bytes of a device input, shared between the plans of one tune: a matrix of a
// gigabyte is converted once and hashed once however many configurations run on it.
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ktune {

class HostBytes {
 public:
  HostBytes() = default;
  explicit HostBytes(std::vector<std::byte> bytes);

  const std::byte* data() const { return impl_ ? impl_->bytes.data() : nullptr; }
  size_t size() const { return impl_ ? impl_->bytes.size() : 0; }
  bool empty() const { return size() == 0; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data()), size()}; }
  // SHA-256 hex of the bytes, computed on first use and kept.
  const std::string& sha256() const;

 private:
  struct Impl {
    std::vector<std::byte> bytes;
    mutable std::once_flag hashed;
    mutable std::string hash;
  };
  std::shared_ptr<const Impl> impl_;
};

}  // namespace ktune
