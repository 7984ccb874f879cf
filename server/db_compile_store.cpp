#include "server/db_compile_store.h"

namespace ktune {

std::optional<CompiledKernel> DbCompileStore::load(const std::string& key) {
  std::optional<CompiledKernelRecord> r = CompiledKernelRepository(db_).load(key);
  if (!r) return std::nullopt;
  CompiledKernel k;
  k.key = r->key;
  k.ok = r->ok;
  k.log = r->log;
  k.ptx = r->ptx;
  k.cubin = r->cubin;
  k.compile_seconds = r->compile_seconds;
  k.lowered_names = r->lowered_names.get<std::map<std::string, std::string>>();
  k.usage = r->usage.get<std::map<std::string, ResourceUsage>>();
  return k;
}

void DbCompileStore::save(const CompiledKernel& k) {
  CompiledKernelRecord r;
  r.key = k.key;
  r.ok = k.ok;
  r.log = k.log;
  r.ptx = k.ptx;
  r.cubin = k.cubin;
  r.compile_seconds = k.compile_seconds;
  r.lowered_names = k.lowered_names;
  // The arch is part of the key; it is stored for inspection, read off the PTX target.
  const size_t target = k.ptx.find(".target ");
  r.arch = target == std::string::npos ? "" : k.ptx.substr(target + 8, k.ptx.find_first_of(" ,\n", target + 8) - target - 8);
  r.usage = k.usage;
  CompiledKernelRepository(db_).save(r);
}

}  // namespace ktune
