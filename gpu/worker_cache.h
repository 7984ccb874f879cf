#pragma once
// The worker's store of uploaded inputs, keyed by content (gpu/measure_request.h). A tuning
// job measures many configurations of one matrix; keeping its arrays spares re-sending them,
// and a byte budget with least-recently-used eviction keeps a long-lived worker from
// filling the device with the formats of matrices tuned hours ago.
#include <cstddef>
#include <list>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

namespace ktune {

template <typename Value>
class WorkerCache {
 public:
  explicit WorkerCache(size_t budget_bytes) : budget_(budget_bytes) {}

  // Null when absent; a hit becomes the most recently used entry.
  Value* find(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->value;
  }

  void insert(const std::string& key, Value value, size_t bytes) {
    erase(key);
    order_.push_front(Entry{key, std::move(value), bytes});
    index_[key] = order_.begin();
    bytes_ += bytes;
  }

  void erase(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    bytes_ -= it->second->bytes;
    order_.erase(it->second);
    index_.erase(it);
  }

  // Evicts least recently used entries, never one in `keep` (the request being served),
  // until `incoming` more bytes fit the budget or nothing evictable is left.
  void make_room(size_t incoming, const std::set<std::string>& keep) {
    for (auto it = order_.end(); it != order_.begin() && bytes_ + incoming > budget_;) {
      --it;
      if (keep.count(it->key)) continue;
      bytes_ -= it->bytes;
      index_.erase(it->key);
      it = order_.erase(it);
    }
  }

  size_t bytes() const { return bytes_; }
  size_t size() const { return order_.size(); }

 private:
  struct Entry {
    std::string key;
    Value value;
    size_t bytes;
  };
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
  size_t budget_;
  size_t bytes_ = 0;
};

}  // namespace ktune
