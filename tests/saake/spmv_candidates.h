#pragma once
// SpMV candidates for the SAAKE glue tests: configurations by their canonical key, compiled
// for sm_90 through NVRTC (PTX and ptxas usage, no GPU), once per process.
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "gpu/compile_cache.h"
#include "kernels/spmv/spmv_family.h"

namespace ktune::testing_support {

inline Config spmv_config(const std::string& canonical) {
  const SpmvFamily family;
  const ParameterSpace space = family.space({});
  for (const Config& c : space.enumerate())
    if (space.canonical(c) == canonical) return c;
  throw std::runtime_error("no spmv configuration " + canonical);
}

inline std::shared_ptr<const CompiledKernel> compile_spmv(const Config& config, Dtype dtype) {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 64, nullptr);
  const KernelSource s = SpmvFamily().source(Problem::of(dtype), config);
  CompileRequest request{s.code, s.entries, s.options, "sm_90"};
  std::shared_ptr<const CompiledKernel> k = cache.get(request);
  if (!k->ok) throw std::runtime_error("NVRTC failed:\n" + k->log);
  return k;
}

}  // namespace ktune::testing_support
