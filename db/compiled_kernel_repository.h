#pragma once
// The persistent level of the NVRTC compile cache, keyed by the hash of (source, options, arch).
// The server adapts it to gpu/'s CompileCacheStore; db/ does not depend on gpu/.
#include <optional>
#include <string>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class CompiledKernelRepository {
 public:
  explicit CompiledKernelRepository(Database& db) : db_(db) {}

  std::optional<CompiledKernelRecord> load(const std::string& key);
  // Inserts, or replaces the record with the same key.
  void save(const CompiledKernelRecord& kernel);

 private:
  Database& db_;
};

}  // namespace ktune
