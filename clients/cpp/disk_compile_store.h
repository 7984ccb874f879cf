#pragma once
// The client's persistent level of the compile cache (gpu/compile_cache.h): one file per
// compiled kernel under a directory, named by NvrtcCompiler::cache_key, which hashes the
// source, its options, the target architecture (the device's sm_XY) and NVRTC's version. A
// second process with the same answer loads the cubin instead of running NVRTC.
#include <optional>
#include <string>

#include "gpu/compiled_kernel.h"

namespace ktune {

class DiskCompileStore : public CompileCacheStore {
 public:
  // The directory is made on the first save; an unwritable one only costs the caching.
  explicit DiskCompileStore(std::string directory);

  // A missing, truncated or foreign file is a miss, never an error: it is compiled again.
  std::optional<CompiledKernel> load(const std::string& key) override;
  // Written to a temporary file and renamed, so that two processes saving one kernel at
  // once, or a crash half-way, never leave a partial file under the key's name.
  void save(const CompiledKernel& kernel) override;

  std::string path_of(const std::string& key) const;

 private:
  std::string directory_;
};

}  // namespace ktune
