#pragma once
// Parsed PTX of compiled kernels, by CompiledKernel::key. A tune emulates one compiled kernel
// on several workloads (and the accuracy bench every kernel on many), and parsing NVRTC's
// text costs more than interpreting a few sampled blocks: each key is parsed once.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "gpu/compiled_kernel.h"
#include "model/ptx/ptx_module.h"

namespace ktune {

class PtxModuleCache {
 public:
  explicit PtxModuleCache(size_t capacity = 512);

  // Thread safe. Throws InputError when the kernel did not compile or its PTX is something
  // the parser does not cover (the message names the instruction). Failures are not cached:
  // they are cheap to repeat and rare.
  std::shared_ptr<const ptx::PtxModule> get(const CompiledKernel& kernel);

  size_t parses() const;  // how many times get() had to parse

 private:
  using Entry = std::shared_ptr<const ptx::PtxModule>;
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<std::pair<std::string, Entry>> recency_;  // most recently used first
  std::unordered_map<std::string, decltype(recency_)::iterator> by_key_;
  size_t parses_ = 0;
};

// The process-wide cache emulate_candidate uses unless given another.
PtxModuleCache& shared_ptx_module_cache();

}  // namespace ktune
