#pragma once
// The vendor library calls the measurement worker can time (cuSPARSE, cuBLAS), by
// name. A family's VendorCall (kernels/vendor_call.h) names one and gives it the plan's
// buffers by role and the problem's sizes, so that no call here names a family's buffers.
#include <cuda.h>
#include <cusparse.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "gpu/cuda_driver.h"
#include "gpu/cusparse_api.h"
#include "kernels/precision.h"

namespace ktune {

struct VendorEnv {
  const CudaDriver& cu;
  CUstream stream;
  Precision precision;
  std::function<CUdeviceptr(const std::string& buffer)> address;  // of a plan buffer; throws when absent
  std::function<cusparseHandle_t()> cusparse;                     // the worker's handle, made on first use
  const CusparseApi* sparse = nullptr;                            // loaded by cusparse()
};

// One prepared call: its descriptors and workspace live as long as it does (preprocessing
// done); run() enqueues the call on the stream, as often as the harness times it.
class VendorInvocation {
 public:
  virtual ~VendorInvocation() = default;
  virtual void run() = 0;
};

// Whether the worker has a call of this name (a family's vendor_calls must all be known).
bool has_vendor_call(const std::string& name);

// Throws std::runtime_error for an unknown call or malformed arguments, CusparseError or
// CudaError when the library refuses them.
std::unique_ptr<VendorInvocation> prepare_vendor_call(const std::string& name, const nlohmann::json& args,
                                                      VendorEnv& env);

// The calls, one file each (gpu/cusparse_*_call.cpp).
std::unique_ptr<VendorInvocation> cusparse_spmv_call(const nlohmann::json& args, VendorEnv& env);
std::unique_ptr<VendorInvocation> cusparse_sddmm_call(const nlohmann::json& args, VendorEnv& env);
std::unique_ptr<VendorInvocation> cusparse_spmm_call(const nlohmann::json& args, VendorEnv& env);
// gpu/cublas_gemm_call.cpp: cuBLAS and cublasLt, loaded on first use (gpu/cublas_api.h).
std::unique_ptr<VendorInvocation> cublas_gemm_call(const nlohmann::json& args, VendorEnv& env);
std::unique_ptr<VendorInvocation> cublaslt_gemm_call(const nlohmann::json& args, VendorEnv& env);
// gpu/cublas_ttgt_call.cpp: a tensor contraction as transpose-transpose-GEMM-transpose.
std::unique_ptr<VendorInvocation> cublas_ttgt_call(const nlohmann::json& args, VendorEnv& env);

}  // namespace ktune
