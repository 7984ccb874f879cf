#pragma once
// What families derive from one workload (its transpose, device-ready arrays, the digests their
// estimates read), computed once and kept as long as the workload: a tune prepares and
// estimates thousands of configurations of one workload, several at a time, and each derived
// form of a large graph costs a pass over its edges and as many bytes as the graph. Derive only
// from a workload that no longer changes: a copy starts with an empty cache (its matrix may then
// be changed), a move keeps it.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <utility>

namespace ktune {

class DerivedCache {
 public:
  DerivedCache() = default;
  DerivedCache(const DerivedCache&) {}
  DerivedCache& operator=(const DerivedCache& other);
  DerivedCache(DerivedCache&& other) noexcept;
  DerivedCache& operator=(DerivedCache&& other) noexcept;

  // The value under `key`, made by `make` on first use. Concurrent callers of one key wait for
  // one `make`; a `make` that throws leaves the key unset, to be tried again.
  template <typename T>
  std::shared_ptr<const T> get(const std::string& key, const std::function<T()>& make) const {
    return std::static_pointer_cast<const T>(
        get_any({std::type_index(typeid(T)), key}, [&]() -> std::shared_ptr<const void> {
          return std::make_shared<const T>(make());
        }));
  }

 private:
  using Key = std::pair<std::type_index, std::string>;
  struct Entry {
    std::once_flag made;
    std::shared_ptr<const void> value;
  };
  std::shared_ptr<const void> get_any(const Key& key, const std::function<std::shared_ptr<const void>()>& make) const;

  mutable std::mutex mutex_;
  mutable std::map<Key, std::shared_ptr<Entry>> entries_;
};

}  // namespace ktune
