#pragma once
// Two-level cache of compiled kernels: an in-memory LRU in front of the persistent store.
// Tuning asks for the same source many times (repeated candidates, restarted jobs, several
// clients with one workload); each distinct request is compiled once.
#include <cstddef>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "gpu/compiled_kernel.h"
#include "gpu/nvrtc_compiler.h"

namespace ktune {

class CompileCache {
 public:
  // `store` may be null (memory only); it must outlive the cache, as must `compiler`, and
  // take calls from several threads at once (for different keys).
  CompileCache(const NvrtcCompiler& compiler, size_t capacity, CompileCacheStore* store);

  // Thread safe. Concurrent calls for one key compile once: later callers wait for the
  // first. Failed compiles are cached too, since the same request fails the same way.
  std::shared_ptr<const CompiledKernel> get(const CompileRequest& request);

  struct Stats {
    size_t hits_memory = 0;  // includes callers that waited for a compile in progress
    size_t hits_store = 0;
    size_t compiles = 0;
  };
  Stats stats() const;

 private:
  using Entry = std::shared_ptr<const CompiledKernel>;

  Entry find_in_memory(const std::string& key);  // marks it most recently used
  void remember(const std::string& key, Entry kernel);
  Entry load_or_compile(const std::string& key, const CompileRequest& request);

  const NvrtcCompiler& compiler_;
  const size_t capacity_;
  CompileCacheStore* const store_;

  mutable std::mutex mutex_;
  std::list<std::pair<std::string, Entry>> recency_;  // most recently used first
  std::unordered_map<std::string, decltype(recency_)::iterator> by_key_;
  std::unordered_map<std::string, std::shared_future<Entry>> in_flight_;
  Stats stats_;
};

}  // namespace ktune
