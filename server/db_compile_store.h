#pragma once
// The persistent level of the compile cache: gpu/ sees a CompileCacheStore, db/ stores records.
#include "db/compiled_kernel_repository.h"
#include "gpu/compiled_kernel.h"

namespace ktune {

class DbCompileStore : public CompileCacheStore {
 public:
  explicit DbCompileStore(Database& db) : db_(db) {}
  std::optional<CompiledKernel> load(const std::string& key) override;
  void save(const CompiledKernel& kernel) override;

 private:
  Database& db_;
};

}  // namespace ktune
