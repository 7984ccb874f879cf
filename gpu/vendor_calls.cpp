#include "gpu/vendor_calls.h"

#include <map>
#include <stdexcept>

namespace ktune {

namespace {

using Factory = std::unique_ptr<VendorInvocation> (*)(const nlohmann::json&, VendorEnv&);

const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> calls = {
      {"cusparse_spmv", cusparse_spmv_call},
      {"cusparse_sddmm", cusparse_sddmm_call},
      {"cusparse_spmm", cusparse_spmm_call},
      {"cublas_gemm", cublas_gemm_call},
      {"cublaslt_gemm", cublaslt_gemm_call},
      {"cublas_ttgt", cublas_ttgt_call},
  };
  return calls;
}

}  // namespace

bool has_vendor_call(const std::string& name) { return registry().count(name) > 0; }

std::unique_ptr<VendorInvocation> prepare_vendor_call(const std::string& name, const nlohmann::json& args,
                                                      VendorEnv& env) {
  auto it = registry().find(name);
  if (it == registry().end()) throw std::runtime_error("the worker has no vendor call '" + name + "'");
  try {
    return it->second(args, env);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("malformed arguments of vendor call " + name + ": " + e.what());
  }
}

}  // namespace ktune
