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
  // Bytes a deterministic generator wrote, identified by `recipe` (generator, element type,
  // shape: unique to the content) instead of their hash, which for a dense operand of
  // gigabytes costs seconds (SHA-256 runs at about 0.4 GB/s).
  static HostBytes generated(std::vector<std::byte> bytes, std::string recipe);
  // Bytes held elsewhere (a workload's own arrays: no second copy of a large graph), which
  // `owner` keeps alive and unchanged as long as any copy of the result lives.
  static HostBytes borrowed(const void* data, size_t size, std::shared_ptr<const void> owner);

  const std::byte* data() const { return impl_ ? impl_->data : nullptr; }
  size_t size() const { return impl_ ? impl_->size : 0; }
  bool empty() const { return size() == 0; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data()), size()}; }
  // What identifies the content: SHA-256 hex of the bytes, computed on first use and kept,
  // or the generator's recipe.
  const std::string& content_id() const;

 private:
  struct Impl {
    std::vector<std::byte> bytes;        // owned, or empty when borrowed
    std::shared_ptr<const void> owner;   // what holds borrowed bytes
    const std::byte* data = nullptr;     // bytes.data() or the borrowed bytes
    size_t size = 0;
    mutable std::once_flag hashed;
    mutable std::string hash;  // or the recipe, set at construction
  };
  std::shared_ptr<const Impl> impl_;
};

}  // namespace ktune
