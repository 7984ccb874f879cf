#include "kernels/host_bytes.h"

#include <iterator>
#include <map>
#include <vector>

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

namespace {

// What generated() shares. One maker at a time: a second caller of a recipe being made waits
// for it, not makes another.
struct Generated {
  std::mutex mutex;
  std::map<std::string, std::weak_ptr<const void>> live;
  int keepers = 0;                               // Keep objects alive
  std::vector<std::shared_ptr<const void>> kept;  // what they hold
};

Generated& generated_bytes() {
  static Generated g;
  return g;
}

}  // namespace

HostBytes HostBytes::generated(const std::string& recipe, const std::function<std::vector<std::byte>()>& make) {
  Generated& g = generated_bytes();
  std::lock_guard<std::mutex> lock(g.mutex);
  HostBytes out;
  if ((out.impl_ = std::static_pointer_cast<const Impl>(g.live[recipe].lock()))) return out;
  out = HostBytes(make());
  auto impl = std::const_pointer_cast<Impl>(out.impl_);
  std::call_once(impl->hashed, [&] { impl->hash = "generated:" + recipe; });
  for (auto it = g.live.begin(); it != g.live.end();) it = it->second.expired() ? g.live.erase(it) : std::next(it);
  g.live[recipe] = out.impl_;
  if (g.keepers > 0) g.kept.push_back(out.impl_);
  return out;
}

HostBytes::Keep::Keep() {
  Generated& g = generated_bytes();
  std::lock_guard<std::mutex> lock(g.mutex);
  ++g.keepers;
}

HostBytes::Keep::~Keep() {
  Generated& g = generated_bytes();
  std::vector<std::shared_ptr<const void>> released;  // freed outside the lock
  std::lock_guard<std::mutex> lock(g.mutex);
  if (--g.keepers == 0) released.swap(g.kept);
}

const std::string& HostBytes::content_id() const {
  static const std::string empty_hash = sha256_hex("");
  if (!impl_) return empty_hash;
  std::call_once(impl_->hashed, [this] { impl_->hash = sha256_hex(view()); });
  return impl_->hash;
}

}  // namespace ktune
