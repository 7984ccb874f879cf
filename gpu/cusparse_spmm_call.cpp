// cuSPARSE's CSR SpMM (C = A B, B and C row-major): args rows, cols, nnz, k, alg ("alg_default" |
// "csr_alg1" | "csr_alg2" | "csr_alg3"; csr_alg1 and csr_alg3 preprocessed once, the only ones
// cuSPARSE's preprocessing speeds up), and the buffers row_ptr, col_idx, values, b, c.
#include <map>
#include <stdexcept>

#include "gpu/cuda_resources.h"
#include "gpu/cusparse_handles.h"
#include "gpu/vendor_calls.h"

namespace ktune {
namespace {

cusparseSpMMAlg_t spmm_algorithm(const std::string& name) {
  static const std::map<std::string, cusparseSpMMAlg_t> algorithms = {{"alg_default", CUSPARSE_SPMM_ALG_DEFAULT},
                                                                      {"csr_alg1", CUSPARSE_SPMM_CSR_ALG1},
                                                                      {"csr_alg2", CUSPARSE_SPMM_CSR_ALG2},
                                                                      {"csr_alg3", CUSPARSE_SPMM_CSR_ALG3}};
  auto it = algorithms.find(name);
  if (it == algorithms.end()) throw std::runtime_error("unknown cuSPARSE SpMM algorithm " + name);
  return it->second;
}

// cuSPARSE, loaded by the first use of the worker's handle (which says why when it cannot be).
const CusparseApi& loaded_api(VendorEnv& env) {
  env.cusparse();
  return *env.sparse;
}

class CusparseSpmm : public VendorInvocation {
 public:
  CusparseSpmm(const nlohmann::json& args, VendorEnv& env)
      : env_(env), sp_(loaded_api(env)), alg_(spmm_algorithm(args.at("alg").get<std::string>())) {
    type_ = cuda_value_type(env.precision.input);
    const int64_t rows = args.at("rows").get<int64_t>(), cols = args.at("cols").get<int64_t>();
    const int64_t k = args.at("k").get<int64_t>();
    matrix_ = csr_descriptor(sp_, env, args, rows, cols, type_);
    b_ = dense_row_major(sp_, env.address(args.at("b").get<std::string>()), cols, k, type_);
    c_ = dense_row_major(sp_, env.address(args.at("c").get<std::string>()), rows, k, type_);
    size_t work_bytes = 0;
    sp_.check(sp_.spmm_buffer_size(env.cusparse(), kOp, kOp, scalars_.one(type_), matrix_.get(), b_.get(),
                                   scalars_.zero(type_), c_.get(), type_, alg_, &work_bytes),
              "sizing the SpMM workspace");
    work_ = DeviceMemory(env.cu, work_bytes);
    if (alg_ == CUSPARSE_SPMM_CSR_ALG1 || alg_ == CUSPARSE_SPMM_CSR_ALG3)
      sp_.check(sp_.spmm_preprocess(env.cusparse(), kOp, kOp, scalars_.one(type_), matrix_.get(), b_.get(),
                                    scalars_.zero(type_), c_.get(), type_, alg_, workspace()),
                "preprocessing for SpMM");
  }

  void run() override {
    sp_.check(sp_.spmm(env_.cusparse(), kOp, kOp, scalars_.one(type_), matrix_.get(), b_.get(), scalars_.zero(type_),
                       c_.get(), type_, alg_, workspace()),
              "cusparseSpMM");
  }

 private:
  static constexpr cusparseOperation_t kOp = CUSPARSE_OPERATION_NON_TRANSPOSE;
  void* workspace() { return reinterpret_cast<void*>(work_.get()); }

  VendorEnv& env_;
  const CusparseApi& sp_;
  cusparseSpMMAlg_t alg_;
  cudaDataType type_;
  Scalars scalars_;
  SpMatrix matrix_;
  DnMatrix b_, c_;
  DeviceMemory work_;
};

}  // namespace

std::unique_ptr<VendorInvocation> cusparse_spmm_call(const nlohmann::json& args, VendorEnv& env) {
  return std::make_unique<CusparseSpmm>(args, env);
}

}  // namespace ktune
