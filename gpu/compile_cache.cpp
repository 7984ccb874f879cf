#include "gpu/compile_cache.h"

#include <stdexcept>
#include <utility>

#include "workload/cancellation.h"

namespace ktune {

CompileCache::CompileCache(const NvrtcCompiler& compiler, size_t capacity,
                           CompileCacheStore* store)
    : compiler_(compiler), capacity_(capacity), store_(store) {
  if (capacity == 0) throw std::invalid_argument("CompileCache needs a capacity of at least 1");
}

std::shared_ptr<const CompiledKernel> CompileCache::get(const CompileRequest& request) {
  // Only before the compile: once started it finishes, since other callers may share it.
  throw_if_cancelled();
  const std::string key = NvrtcCompiler::cache_key(request);
  std::promise<Entry> promise;
  std::shared_future<Entry> earlier_caller;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Entry hit = find_in_memory(key)) {
      ++stats_.hits_memory;
      return hit;
    }
    auto pending = in_flight_.find(key);
    if (pending != in_flight_.end()) {
      ++stats_.hits_memory;
      earlier_caller = pending->second;
    } else {
      in_flight_.emplace(key, promise.get_future().share());
    }
  }
  // Rethrows what the first caller's attempt threw.
  if (earlier_caller.valid()) return earlier_caller.get();

  try {
    Entry kernel = load_or_compile(key, request);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      remember(key, kernel);
      in_flight_.erase(key);
    }
    promise.set_value(kernel);
    return kernel;
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      in_flight_.erase(key);
    }
    promise.set_exception(std::current_exception());
    throw;
  }
}

CompileCache::Stats CompileCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

CompileCache::Entry CompileCache::find_in_memory(const std::string& key) {
  auto found = by_key_.find(key);
  if (found == by_key_.end()) return nullptr;
  recency_.splice(recency_.begin(), recency_, found->second);
  return found->second->second;
}

void CompileCache::remember(const std::string& key, Entry kernel) {
  recency_.emplace_front(key, std::move(kernel));
  by_key_[key] = recency_.begin();
  if (recency_.size() > capacity_) {
    by_key_.erase(recency_.back().first);
    recency_.pop_back();
  }
}

// Runs outside the lock: the store and NVRTC are slow, and other keys must not wait.
CompileCache::Entry CompileCache::load_or_compile(const std::string& key,
                                                  const CompileRequest& request) {
  if (store_) {
    if (std::optional<CompiledKernel> stored = store_->load(key)) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.hits_store;
      return std::make_shared<const CompiledKernel>(std::move(*stored));
    }
  }
  auto compiled = std::make_shared<const CompiledKernel>(compiler_.compile(request));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.compiles;
  }
  if (store_) store_->save(*compiled);
  return compiled;
}

}  // namespace ktune
