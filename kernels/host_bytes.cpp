#include "kernels/host_bytes.h"

#include "workload/sha256.h"

namespace ktune {

HostBytes::HostBytes(std::vector<std::byte> bytes) {
  auto impl = std::make_shared<Impl>();
  impl->bytes = std::move(bytes);
  impl->data = impl->bytes.data();
  impl->size = impl->bytes.size();
  impl_ = std::move(impl);
}

HostBytes HostBytes::borrowed(const void* data, size_t size, std::shared_ptr<const void> owner) {
  auto impl = std::make_shared<Impl>();
  impl->owner = std::move(owner);
  impl->data = static_cast<const std::byte*>(data);
  impl->size = size;
  HostBytes out;
  out.impl_ = std::move(impl);
  return out;
}

HostBytes HostBytes::generated(std::vector<std::byte> bytes, std::string recipe) {
  HostBytes out(std::move(bytes));
  auto impl = std::const_pointer_cast<Impl>(out.impl_);
  std::call_once(impl->hashed, [&] { impl->hash = "generated:" + std::move(recipe); });
  return out;
}

const std::string& HostBytes::content_id() const {
  static const std::string empty_hash = sha256_hex("");
  if (!impl_) return empty_hash;
  std::call_once(impl_->hashed, [this] { impl_->hash = sha256_hex(view()); });
  return impl_->hash;
}

}  // namespace ktune
