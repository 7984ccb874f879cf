#include "model/saake/ptx_module_cache.h"

#include "model/ptx/ptx_parser.h"
#include "workload/input_error.h"

namespace ktune {

PtxModuleCache::PtxModuleCache(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

std::shared_ptr<const ptx::PtxModule> PtxModuleCache::get(const CompiledKernel& kernel) {
  if (!kernel.ok) throw InputError("cannot emulate a kernel that failed to compile:\n" + kernel.log);
  if (kernel.ptx.empty()) throw InputError("the compiled kernel carries no PTX to emulate");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_key_.find(kernel.key);
    if (it != by_key_.end()) {
      recency_.splice(recency_.begin(), recency_, it->second);
      return it->second->second;
    }
  }
  // Parsed outside the lock: two threads asking for one new key both parse, which is
  // harmless and keeps other keys from waiting on a long parse.
  Entry module = std::make_shared<const ptx::PtxModule>(ptx::parse_ptx(kernel.ptx));
  std::lock_guard<std::mutex> lock(mutex_);
  ++parses_;
  if (by_key_.count(kernel.key) == 0) {
    recency_.emplace_front(kernel.key, module);
    by_key_[kernel.key] = recency_.begin();
    if (recency_.size() > capacity_) {
      by_key_.erase(recency_.back().first);
      recency_.pop_back();
    }
  }
  return module;
}

size_t PtxModuleCache::parses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return parses_;
}

PtxModuleCache& shared_ptx_module_cache() {
  static PtxModuleCache cache;
  return cache;
}

}  // namespace ktune
