#include "gpu/cublas_api.h"

#include <dlfcn.h>

namespace ktune {
namespace {

template <typename Api>
struct Loaded {
  Api api;
  std::string why_not;
};

template <typename Api, typename Resolve>
Loaded<Api> load_library(const char* const* sonames, size_t count, const std::string& what, Resolve resolve_all) {
  Loaded<Api> loaded;
  void* library = open_first_library(sonames, count, what, &loaded.why_not);
  if (!library) return loaded;
  auto resolve = [&](const char* name, void** slot) {
    *slot = dlsym(library, name);
    if (!*slot && loaded.why_not.empty()) loaded.why_not = what + " lacks " + name + " (too old?)";
  };
  resolve_all(loaded.api, resolve);
  return loaded;
}

std::string status_text(const char* text, cublasStatus_t status) {
  return std::string(text ? text : "cuBLAS error") + " (" + std::to_string(static_cast<int>(status)) + ")";
}

}  // namespace

void* open_first_library(const char* const* sonames, size_t count, const std::string& what, std::string* why_not) {
  std::string errors;
  for (size_t i = 0; i < count; ++i) {
    if (void* library = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL)) return library;
    const char* reason = dlerror();
    errors += std::string(errors.empty() ? "" : "; ") + (reason ? reason : sonames[i]);
  }
  if (why_not) *why_not = what + " is not installed: " + errors;
  return nullptr;
}

const CublasApi* CublasApi::load(std::string* why_not) {
  static const char* const sonames[] = {"libcublas.so.13", "libcublas.so.12"};
  static const Loaded<CublasApi> loaded = load_library<CublasApi>(sonames, 2, "cuBLAS", [](CublasApi& api, auto resolve) {
#define KTUNE_CUBLAS_RESOLVE(symbol, member) resolve(#symbol, reinterpret_cast<void**>(&api.member));
    KTUNE_CUBLAS_FUNCTIONS(KTUNE_CUBLAS_RESOLVE)
#undef KTUNE_CUBLAS_RESOLVE
    resolve("cublasGemmStridedBatchedEx", reinterpret_cast<void**>(&api.gemm_strided_batched_ex));
  });
  if (why_not) *why_not = loaded.why_not;
  return loaded.why_not.empty() ? &loaded.api : nullptr;
}

const CublasLtApi* CublasLtApi::load(std::string* why_not) {
  static const char* const sonames[] = {"libcublasLt.so.13", "libcublasLt.so.12"};
  static const Loaded<CublasLtApi> loaded =
      load_library<CublasLtApi>(sonames, 2, "cublasLt", [](CublasLtApi& api, auto resolve) {
#define KTUNE_CUBLAS_RESOLVE(symbol, member) resolve(#symbol, reinterpret_cast<void**>(&api.member));
        KTUNE_CUBLASLT_FUNCTIONS(KTUNE_CUBLAS_RESOLVE)
#undef KTUNE_CUBLAS_RESOLVE
      });
  if (why_not) *why_not = loaded.why_not;
  return loaded.why_not.empty() ? &loaded.api : nullptr;
}

void CublasApi::check(cublasStatus_t status, const std::string& what) const {
  if (status != CUBLAS_STATUS_SUCCESS) throw CublasError(what + ": " + status_text(status_string(status), status));
}

void CublasLtApi::check(cublasStatus_t status, const std::string& what) const {
  if (status != CUBLAS_STATUS_SUCCESS) throw CublasError(what + ": " + status_text(nullptr, status));
}

}  // namespace ktune
