#pragma once
// The result of one NVRTC compilation, as cached in memory and in the database.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ktune {

struct CompileRequest {
  std::string code;
  std::vector<std::string> entries;  // extern "C" names or name expressions
  std::vector<std::string> options;  // besides --gpu-architecture, added from `arch`
  std::string arch = "sm_90";
};

// ptxas resource usage of one kernel (from -Xptxas=-v).
struct ResourceUsage {
  int registers = 0;
  int shared_bytes = 0;   // static shared memory
  int stack_bytes = 0;
  int spill_stores = 0;
  int spill_loads = 0;
  int constant_bytes = 0;
};
// As stored (database, disk cache) and answered: {"registers": 32, ...}; absent fields are 0.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ResourceUsage, registers, shared_bytes, stack_bytes, spill_stores,
                                                spill_loads, constant_bytes)

struct CompiledKernel {
  std::string key;  // SHA-256 of (code, options, arch): the cache key
  bool ok = false;
  std::string log;  // NVRTC + ptxas log; on failure the compile error
  std::string ptx;
  std::string cubin;                                   // binary, may contain NUL bytes
  std::map<std::string, std::string> lowered_names;    // entry -> symbol in the cubin
  std::map<std::string, ResourceUsage> usage;          // entry -> ptxas usage
  double compile_seconds = 0;
};

// Persistent second level of the compile cache; db/ implements it, gpu/ only sees this.
class CompileCacheStore {
 public:
  virtual ~CompileCacheStore() = default;
  virtual std::optional<CompiledKernel> load(const std::string& key) = 0;
  virtual void save(const CompiledKernel& kernel) = 0;
};

}  // namespace ktune
