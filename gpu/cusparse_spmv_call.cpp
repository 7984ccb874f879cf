// cuSPARSE's CSR SpMV (y = A x): args rows, cols, nnz, alg ("csr_alg1" | "csr_alg2", the
// latter preprocessed once), and the buffers row_ptr, col_idx, values, x, y.
#include <stdexcept>

#include "gpu/cuda_resources.h"
#include "gpu/cusparse_handles.h"
#include "gpu/vendor_calls.h"

namespace ktune {
namespace {

class CusparseSpmv : public VendorInvocation {
 public:
  CusparseSpmv(const nlohmann::json& args, VendorEnv& env) : env_(env), sp_(*env.sparse) {
    const std::string alg = args.at("alg").get<std::string>();
    if (alg != "csr_alg1" && alg != "csr_alg2") throw std::runtime_error("unknown cuSPARSE SpMV algorithm " + alg);
    alg_ = alg == "csr_alg2" ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
    type_ = cuda_value_type(env.precision.input);
    const int64_t rows = args.at("rows").get<int64_t>(), cols = args.at("cols").get<int64_t>();
    matrix_ = csr_descriptor(sp_, env, args, rows, cols, type_);
    x_ = dense_vector(sp_, env.address(args.at("x").get<std::string>()), cols, type_);
    y_ = dense_vector(sp_, env.address(args.at("y").get<std::string>()), rows, type_);
    size_t work_bytes = 0;
    sp_.check(sp_.spmv_buffer_size(env.cusparse(), kOp, scalars_.one(type_), matrix_.get(), x_.get(),
                                   scalars_.zero(type_), y_.get(), type_, alg_, &work_bytes),
              "sizing the SpMV workspace");
    work_ = DeviceMemory(env.cu, work_bytes);
    if (alg_ == CUSPARSE_SPMV_CSR_ALG2)
      sp_.check(sp_.spmv_preprocess(env.cusparse(), kOp, scalars_.one(type_), matrix_.get(), x_.get(),
                                    scalars_.zero(type_), y_.get(), type_, alg_, workspace()),
                "preprocessing for SpMV");
  }

  void run() override {
    sp_.check(sp_.spmv(env_.cusparse(), kOp, scalars_.one(type_), matrix_.get(), x_.get(), scalars_.zero(type_),
                       y_.get(), type_, alg_, workspace()),
              "cusparseSpMV");
  }

 private:
  static constexpr cusparseOperation_t kOp = CUSPARSE_OPERATION_NON_TRANSPOSE;
  void* workspace() { return reinterpret_cast<void*>(work_.get()); }

  VendorEnv& env_;
  const CusparseApi& sp_;
  cusparseSpMVAlg_t alg_;
  cudaDataType type_;
  Scalars scalars_;
  SpMatrix matrix_;
  DnVector x_, y_;
  DeviceMemory work_;
};

}  // namespace

std::unique_ptr<VendorInvocation> cusparse_spmv_call(const nlohmann::json& args, VendorEnv& env) {
  return std::make_unique<CusparseSpmv>(args, env);
}

}  // namespace ktune
