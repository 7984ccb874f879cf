#include "kernels/host_bytes.h"

#include "workload/sha256.h"

namespace ktune {

HostBytes::HostBytes(std::vector<std::byte> bytes) {
  auto impl = std::make_shared<Impl>();
  impl->bytes = std::move(bytes);
  impl_ = std::move(impl);
}

const std::string& HostBytes::sha256() const {
  static const std::string empty_hash = sha256_hex("");
  if (!impl_) return empty_hash;
  std::call_once(impl_->hashed, [this] { impl_->hash = sha256_hex(view()); });
  return impl_->hash;
}

}  // namespace ktune
