#include "gpu/cuda_driver.h"

#include <dlfcn.h>

namespace ktune {
namespace {

struct LoadedDriver {
  CudaDriver driver;
  std::string why_not;  // empty when the driver is usable
};

LoadedDriver load_driver() {
  LoadedDriver loaded;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* reason = dlerror();
    loaded.why_not = std::string("no CUDA driver: ") + (reason ? reason : "libcuda.so.1 not found");
    return loaded;
  }
  // cuGetProcAddress hands out the ABI version of each entry point that matches the
  // headers we were compiled with, which plain dlsym of the base name would not.
  auto get_proc = reinterpret_cast<decltype(&::cuGetProcAddress)>(dlsym(library, "cuGetProcAddress_v2"));
  if (!get_proc) {
    loaded.why_not = "the CUDA driver is too old: it lacks cuGetProcAddress_v2 (CUDA 12 or newer is needed)";
    return loaded;
  }
  CudaDriver& d = loaded.driver;
  auto resolve = [&](const char* name, void** slot, bool required) {
    CUdriverProcAddressQueryResult status{};
    // cuda.h 13 declares cuCtxSynchronize(void) and cuCtxGetDevice(CUdevice*) under their old
    // names while CUDA 13's ABI of those names takes a context (_v2): ask for the ABI of the
    // prototype we call.
    const std::string symbol = name;
    const int version = symbol == "cuCtxSynchronize" || symbol == "cuCtxGetDevice" ? 12000 : CUDA_VERSION;
    if (get_proc(name, slot, version, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS || !*slot) {
      *slot = nullptr;
      if (required && loaded.why_not.empty()) loaded.why_not = std::string("the CUDA driver lacks ") + name;
    }
  };
#define KTUNE_CUDA_DRIVER_REQUIRE(symbol, member) resolve(#symbol, reinterpret_cast<void**>(&d.member), true);
#define KTUNE_CUDA_DRIVER_OPTIONAL(symbol, member) resolve(#symbol, reinterpret_cast<void**>(&d.member), false);
  KTUNE_CUDA_DRIVER_FUNCTIONS(KTUNE_CUDA_DRIVER_REQUIRE)
  KTUNE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(KTUNE_CUDA_DRIVER_OPTIONAL)
#undef KTUNE_CUDA_DRIVER_REQUIRE
#undef KTUNE_CUDA_DRIVER_OPTIONAL
  if (!loaded.why_not.empty()) return loaded;
  const CUresult init = d.init(0);
  if (init != CUDA_SUCCESS) loaded.why_not = "cuInit failed: " + d.describe(init);
  return loaded;
}

}  // namespace

const CudaDriver* CudaDriver::load(std::string* why_not) {
  static const LoadedDriver loaded = load_driver();
  if (why_not) *why_not = loaded.why_not;
  return loaded.why_not.empty() ? &loaded.driver : nullptr;
}

bool CudaDriver::has_conditional_graphs() const {
  bool all = true;
#define KTUNE_CUDA_DRIVER_PRESENT(symbol, member) all = all && member != nullptr;
  KTUNE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(KTUNE_CUDA_DRIVER_PRESENT)
#undef KTUNE_CUDA_DRIVER_PRESENT
  return all;
}

std::string CudaDriver::describe(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_error_name(result, &name) != CUDA_SUCCESS || !name) name = "unknown CUDA error";
  if (get_error_string(result, &text) != CUDA_SUCCESS || !text) text = "";
  return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + (*text ? ": " : "") + text + ")";
}

void CudaDriver::check(CUresult result, const std::string& what) const {
  if (result != CUDA_SUCCESS) throw CudaError(result, what + ": " + describe(result));
}

}  // namespace ktune
