#include "clients/cpp/answer_kernel.h"

#include <map>
#include <mutex>

#include "clients/cpp/disk_compile_store.h"
#include "gpu/compile_cache.h"

namespace ktune {
namespace {

constexpr const char* kArchOption = "--gpu-architecture=";
// Kernels a process keeps in memory: a handful of matrices and families.
constexpr size_t kMemoryCapacity = 64;

// One compile cache per cache directory, for the life of the process.
struct CacheOverDirectory {
  explicit CacheOverDirectory(const std::string& dir) : store(dir), cache(compiler, kMemoryCapacity, dir.empty() ? nullptr : &store) {}
  NvrtcCompiler compiler;
  DiskCompileStore store;
  CompileCache cache;
};

CompileCache& cache_for(const std::string& dir) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CacheOverDirectory>> caches;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<CacheOverDirectory>& c = caches[dir];
  if (!c) c = std::make_unique<CacheOverDirectory>(dir);
  return c->cache;
}

bool renders_as_answer(const nlohmann::json& answer, const KernelFamily& family, const Problem& problem,
                       const Config& config) {
  if (!answer.is_object() || !answer.contains("source_code") || !answer.contains("entry")) return false;
  const nlohmann::json provenance = answer.value("provenance", nlohmann::json::object());
  if (provenance.value("kernel_version", "") != family_version(family)) return false;
  if (answer.value("problem", nlohmann::json::object()) != problem.params) return false;
  if (answer.value("dtype", "") != to_string(problem.precision)) return false;
  return answer_config(answer, family, problem) == config;
}

}  // namespace

std::optional<Config> answer_config(const nlohmann::json& answer, const KernelFamily& family, const Problem& problem) {
  if (!answer.is_object() || !answer.contains("parameters")) return std::nullopt;
  try {
    return family.space(problem).from_json(answer["parameters"]);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

CompileRequest compile_request_for(const nlohmann::json& answer, const KernelFamily& family, const Problem& problem,
                                   const Config& config, const std::string& arch) {
  CompileRequest request;
  request.arch = arch;
  if (renders_as_answer(answer, family, problem, config)) {
    request.code = answer["source_code"].get<std::string>();
    request.entries = answer["entry"].get<std::vector<std::string>>();
    for (const std::string& option : answer.value("compile_options", std::vector<std::string>{})) {
      // The answer's device may differ from this one; an architecture-specific kernel stays so.
      if (option.rfind(kArchOption, 0) != 0) request.options.push_back(option);
      else if (option.back() == 'a') request.arch = arch + "a";
    }
    return request;
  }
  KernelSource source = family.source(problem, config);
  request.arch = compile_arch(source, arch);
  request.code = std::move(source.code);
  request.entries = std::move(source.entries);
  request.options = std::move(source.options);
  return request;
}

std::shared_ptr<const CompiledKernel> compiled_kernel(const CompileRequest& request, const std::string& cache_dir) {
  return cache_for(cache_dir).get(request);
}

}  // namespace ktune
