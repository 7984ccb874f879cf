// cuSPARSE's CSR SDDMM, C = (A·Bᵀ)∘spy(C) (alpha 1, beta 0): args rows, cols, nnz, k, and the
// buffers row_ptr, col_idx (C's pattern), a (rows x k), b (cols x k), both row-major, and c (C's
// values, the output). B is given as it is stored and transposed by the call (opB), so that
// op(B) is k x cols as cuSPARSE takes it. Preprocessed once, as a client calling it again on the
// same pattern would.
#include "gpu/cuda_resources.h"
#include "gpu/cusparse_handles.h"
#include "gpu/vendor_calls.h"

namespace ktune {
namespace {

class CusparseSddmm : public VendorInvocation {
 public:
  CusparseSddmm(const nlohmann::json& args, VendorEnv& env) : env_(env), sp_(*env.sparse) {
    type_ = cuda_value_type(env.precision.input);
    const int64_t rows = args.at("rows").get<int64_t>(), cols = args.at("cols").get<int64_t>();
    const int64_t k = args.at("k").get<int64_t>();
    nlohmann::json pattern = args;
    pattern["values"] = args.at("c");  // C's values are the output
    c_ = csr_descriptor(sp_, env, pattern, rows, cols, type_);
    a_ = dense_row_major(sp_, env.address(args.at("a").get<std::string>()), rows, k, type_);
    b_ = dense_row_major(sp_, env.address(args.at("b").get<std::string>()), cols, k, type_);
    size_t work_bytes = 0;
    sp_.check(sp_.sddmm_buffer_size(env.cusparse(), kOpA, kOpB, scalars_.one(type_), a_.get(), b_.get(),
                                    scalars_.zero(type_), c_.get(), type_, CUSPARSE_SDDMM_ALG_DEFAULT, &work_bytes),
              "sizing the SDDMM workspace");
    work_ = DeviceMemory(env.cu, work_bytes);
    sp_.check(sp_.sddmm_preprocess(env.cusparse(), kOpA, kOpB, scalars_.one(type_), a_.get(), b_.get(),
                                   scalars_.zero(type_), c_.get(), type_, CUSPARSE_SDDMM_ALG_DEFAULT, workspace()),
              "preprocessing for SDDMM");
  }

  void run() override {
    sp_.check(sp_.sddmm(env_.cusparse(), kOpA, kOpB, scalars_.one(type_), a_.get(), b_.get(), scalars_.zero(type_),
                        c_.get(), type_, CUSPARSE_SDDMM_ALG_DEFAULT, workspace()),
              "cusparseSDDMM");
  }

 private:
  static constexpr cusparseOperation_t kOpA = CUSPARSE_OPERATION_NON_TRANSPOSE;
  static constexpr cusparseOperation_t kOpB = CUSPARSE_OPERATION_TRANSPOSE;
  void* workspace() { return reinterpret_cast<void*>(work_.get()); }

  VendorEnv& env_;
  const CusparseApi& sp_;
  cudaDataType type_;
  Scalars scalars_;
  SpMatrix c_;
  DnMatrix a_, b_;
  DeviceMemory work_;
};

}  // namespace

std::unique_ptr<VendorInvocation> cusparse_sddmm_call(const nlohmann::json& args, VendorEnv& env) {
  return std::make_unique<CusparseSddmm>(args, env);
}

}  // namespace ktune
