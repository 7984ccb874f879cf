#include "gpu/cusparse_api.h"

#include <dlfcn.h>

namespace ktune {
namespace {

struct LoadedCusparse {
  CusparseApi api;
  std::string why_not;
};

LoadedCusparse load_cusparse() {
  LoadedCusparse loaded;
  void* library = nullptr;
  std::string errors;
  for (const char* soname : {"libcusparse.so.12", "libcusparse.so.13", "libcusparse.so"}) {
    library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library) break;
    const char* reason = dlerror();
    errors += std::string(errors.empty() ? "" : "; ") + (reason ? reason : soname);
  }
  if (!library) {
    loaded.why_not = "cuSPARSE is not installed: " + errors;
    return loaded;
  }
  auto resolve = [&](const char* name, void** slot) {
    *slot = dlsym(library, name);
    if (!*slot && loaded.why_not.empty()) loaded.why_not = std::string("cuSPARSE lacks ") + name + " (too old?)";
  };
#define KTUNE_CUSPARSE_RESOLVE(symbol, member) resolve(#symbol, reinterpret_cast<void**>(&loaded.api.member));
  KTUNE_CUSPARSE_FUNCTIONS(KTUNE_CUSPARSE_RESOLVE)
#undef KTUNE_CUSPARSE_RESOLVE
  return loaded;
}

}  // namespace

const CusparseApi* CusparseApi::load(std::string* why_not) {
  static const LoadedCusparse loaded = load_cusparse();
  if (why_not) *why_not = loaded.why_not;
  return loaded.why_not.empty() ? &loaded.api : nullptr;
}

void CusparseApi::check(cusparseStatus_t status, const std::string& what) const {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  const char* text = get_error_string(status);
  throw CusparseError(what + ": " + (text ? text : "cuSPARSE error") + " (" + std::to_string(static_cast<int>(status)) +
                      ")");
}

}  // namespace ktune
