#include "gpu/compile_cache.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace ktune {
namespace {

// The persistent level as db/ will provide it, reduced to a map.
class MapStore : public CompileCacheStore {
 public:
  std::optional<CompiledKernel> load(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = kernels_.find(key);
    if (found == kernels_.end()) return std::nullopt;
    return found->second;
  }
  void save(const CompiledKernel& kernel) override {
    std::lock_guard<std::mutex> lock(mutex_);
    kernels_[kernel.key] = kernel;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return kernels_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, CompiledKernel> kernels_;
};

// A distinct, cheap kernel per tag.
CompileRequest request(int tag) {
  return {"extern \"C\" __global__ void k(float* y) { y[threadIdx.x] += " + std::to_string(tag) +
              ".0f; }\n",
          {"k"}, {}, "sm_90"};
}

TEST(CompileCache, SecondGetIsAMemoryHit) {
  NvrtcCompiler compiler;
  CompileCache cache(compiler, 4, nullptr);
  const auto first = cache.get(request(1));
  const auto second = cache.get(request(1));
  ASSERT_TRUE(first->ok) << first->log;
  EXPECT_EQ(first, second);  // the very same object
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().hits_memory, 1u);
  EXPECT_EQ(cache.stats().hits_store, 0u);
}

TEST(CompileCache, FreshCacheOverTheSameStoreHitsTheStore) {
  NvrtcCompiler compiler;
  MapStore store;
  std::string cubin;
  {
    CompileCache cache(compiler, 4, &store);
    cubin = cache.get(request(2))->cubin;
    EXPECT_EQ(cache.stats().compiles, 1u);
  }
  EXPECT_EQ(store.size(), 1u);
  CompileCache restarted(compiler, 4, &store);
  const auto kernel = restarted.get(request(2));
  EXPECT_EQ(kernel->cubin, cubin);
  EXPECT_EQ(restarted.stats().hits_store, 1u);
  EXPECT_EQ(restarted.stats().compiles, 0u);
  restarted.get(request(2));
  EXPECT_EQ(restarted.stats().hits_memory, 1u);
  EXPECT_EQ(restarted.stats().hits_store, 1u);
}

TEST(CompileCache, FailedCompilesAreCachedToo) {
  NvrtcCompiler compiler;
  CompileCache cache(compiler, 4, nullptr);
  const CompileRequest broken{"this is not CUDA", {}, {}, "sm_90"};
  EXPECT_FALSE(cache.get(broken)->ok);
  EXPECT_FALSE(cache.get(broken)->ok);
  EXPECT_EQ(cache.stats().compiles, 1u);
}

TEST(CompileCache, ConcurrentGetsOfOneKeyCompileOnce) {
  NvrtcCompiler compiler;
  CompileCache cache(compiler, 4, nullptr);
  constexpr int kThreads = 8;
  std::vector<std::shared_ptr<const CompiledKernel>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { results[t] = cache.get(request(3)); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().hits_memory, kThreads - 1u);
  for (const auto& r : results) EXPECT_EQ(r, results[0]);
}

TEST(CompileCache, EvictsTheLeastRecentlyUsed) {
  NvrtcCompiler compiler;
  CompileCache cache(compiler, 2, nullptr);
  cache.get(request(10));
  cache.get(request(11));
  cache.get(request(10));  // 11 is now the least recently used
  cache.get(request(12));  // evicts 11
  ASSERT_EQ(cache.stats().compiles, 3u);
  cache.get(request(10));
  EXPECT_EQ(cache.stats().compiles, 3u) << "10 was used recently and must have stayed";
  cache.get(request(11));
  EXPECT_EQ(cache.stats().compiles, 4u) << "11 was the least recently used and must be gone";
}

TEST(CompileCache, RefusesZeroCapacity) {
  NvrtcCompiler compiler;
  EXPECT_THROW(CompileCache(compiler, 0, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace ktune
