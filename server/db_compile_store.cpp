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
  for (const auto& [entry, u] : r->usage.items()) {
    ResourceUsage& usage = k.usage[entry];
    usage.registers = u.value("registers", 0);
    usage.shared_bytes = u.value("shared_bytes", 0);
    usage.stack_bytes = u.value("stack_bytes", 0);
    usage.spill_stores = u.value("spill_stores", 0);
    usage.spill_loads = u.value("spill_loads", 0);
    usage.constant_bytes = u.value("constant_bytes", 0);
  }
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
  for (const auto& [entry, u] : k.usage)
    r.usage[entry] = {{"registers", u.registers},       {"shared_bytes", u.shared_bytes},
                      {"stack_bytes", u.stack_bytes},   {"spill_stores", u.spill_stores},
                      {"spill_loads", u.spill_loads},   {"constant_bytes", u.constant_bytes}};
  CompiledKernelRepository(db_).save(r);
}

}  // namespace ktune
