#include "workload/derived_cache.h"

namespace ktune {

DerivedCache& DerivedCache::operator=(const DerivedCache& other) {
  if (this != &other) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }
  return *this;
}

DerivedCache::DerivedCache(DerivedCache&& other) noexcept {
  std::lock_guard<std::mutex> lock(other.mutex_);
  entries_ = std::move(other.entries_);
}

DerivedCache& DerivedCache::operator=(DerivedCache&& other) noexcept {
  if (this != &other) {
    std::scoped_lock lock(mutex_, other.mutex_);
    entries_ = std::move(other.entries_);
  }
  return *this;
}

std::shared_ptr<const void> DerivedCache::get_any(const Key& key,
                                                  const std::function<std::shared_ptr<const void>()>& make) const {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<Entry>& slot = entries_[key];
    if (!slot) slot = std::make_shared<Entry>();
    entry = slot;
  }
  std::call_once(entry->made, [&] { entry->value = make(); });
  return entry->value;
}

}  // namespace ktune
