// cuBLAS's GEMMs on the GEMM family's buffers, column-major as kernels/gemm/gemm_vendor.h maps
// the row-major problem: "cublas_gemm" is cublasGemmStridedBatchedEx (cublasGemmEx batched) with
// the default algorithm; "cublaslt_gemm" is cublasLtMatmul with the `candidate`-th algorithm of
// cublasLt's heuristic. Args: m, n, k, batch, transpose_first, transpose_second, ld_first,
// ld_second, ldc, stride_first, stride_second, stride_c and the buffers first, second, c.
// Inputs in the precision's input type, C in its output type, accumulating in f64 for f64 and
// in f32 otherwise (tf32 inputs: f32 read by the tensor cores as tf32, FAST_TF32).
#include <memory>
#include <stdexcept>

#include "gpu/cublas_api.h"
#include "gpu/cuda_resources.h"
#include "gpu/vendor_calls.h"

namespace ktune {
namespace {

// The most workspace a cublasLt algorithm may ask for (CUTLASS's split-K and Stream-K kernels
// among them).
constexpr uint64_t kLtWorkspaceBytes = 64ull << 20;

cudaDataType cublas_type(Dtype d) {
  switch (d) {
    case Dtype::F32:
    case Dtype::TF32: return CUDA_R_32F;  // tf32 is f32 in memory; the compute type says how it is read
    case Dtype::F64: return CUDA_R_64F;
    case Dtype::BF16: return CUDA_R_16BF;
    case Dtype::F16: return CUDA_R_16F;
    default: throw std::runtime_error(std::string("cuBLAS GEMM takes no ") + to_string(d) + " values");
  }
}

// What both calls read of their arguments.
struct GemmOperands {
  int64_t m, n, k, batch, ld_first, ld_second, ldc, stride_first, stride_second, stride_c;
  cublasOperation_t op_first, op_second;
  void *first, *second, *c;
  cudaDataType in, out, scale;
  cublasComputeType_t compute;
  double alpha64 = 1, beta64 = 0;
  float alpha32 = 1, beta32 = 0;

  GemmOperands(const nlohmann::json& a, VendorEnv& env) {
    m = a.at("m").get<int64_t>();
    n = a.at("n").get<int64_t>();
    k = a.at("k").get<int64_t>();
    batch = a.at("batch").get<int64_t>();
    ld_first = a.at("ld_first").get<int64_t>();
    ld_second = a.at("ld_second").get<int64_t>();
    ldc = a.at("ldc").get<int64_t>();
    stride_first = a.at("stride_first").get<int64_t>();
    stride_second = a.at("stride_second").get<int64_t>();
    stride_c = a.at("stride_c").get<int64_t>();
    op_first = a.at("transpose_first").get<bool>() ? CUBLAS_OP_T : CUBLAS_OP_N;
    op_second = a.at("transpose_second").get<bool>() ? CUBLAS_OP_T : CUBLAS_OP_N;
    auto address = [&](const char* role) { return reinterpret_cast<void*>(env.address(a.at(role).get<std::string>())); };
    first = address("first");
    second = address("second");
    c = address("c");
    in = cublas_type(env.precision.input);
    out = cublas_type(env.precision.output);
    const bool f64 = env.precision.accumulate == Dtype::F64;
    scale = f64 ? CUDA_R_64F : CUDA_R_32F;
    compute = f64 ? CUBLAS_COMPUTE_64F
                  : env.precision.input == Dtype::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                       : CUBLAS_COMPUTE_32F;
  }
  const void* alpha() const { return scale == CUDA_R_64F ? static_cast<const void*>(&alpha64) : &alpha32; }
  const void* beta() const { return scale == CUDA_R_64F ? static_cast<const void*>(&beta64) : &beta32; }
};

const CublasApi& cublas() {
  std::string why_not;
  const CublasApi* api = CublasApi::load(&why_not);
  if (!api) throw CublasError(why_not);
  return *api;
}

const CublasLtApi& cublas_lt() {
  std::string why_not;
  const CublasLtApi* api = CublasLtApi::load(&why_not);
  if (!api) throw CublasError(why_not);
  return *api;
}

class CublasGemm : public VendorInvocation {
 public:
  CublasGemm(const nlohmann::json& args, VendorEnv& env) : api_(cublas()), g_(args, env) {
    cublasHandle_t raw = nullptr;
    api_.check(api_.create(&raw), "creating a cuBLAS handle");
    handle_ = std::unique_ptr<cublasContext, Destroy>(raw, Destroy{&api_});
    api_.check(api_.set_stream(raw, reinterpret_cast<cudaStream_t>(env.stream)), "setting cuBLAS's stream");
  }

  void run() override {
    api_.check(api_.gemm_strided_batched_ex(handle_.get(), g_.op_first, g_.op_second, static_cast<int>(g_.m),
                                            static_cast<int>(g_.n), static_cast<int>(g_.k), g_.alpha(), g_.first, g_.in,
                                            static_cast<int>(g_.ld_first), g_.stride_first, g_.second, g_.in,
                                            static_cast<int>(g_.ld_second), g_.stride_second, g_.beta(), g_.c, g_.out,
                                            static_cast<int>(g_.ldc), g_.stride_c, static_cast<int>(g_.batch),
                                            g_.compute, CUBLAS_GEMM_DEFAULT),
               "cublasGemmStridedBatchedEx");
  }

 private:
  struct Destroy {
    const CublasApi* api;
    void operator()(cublasHandle_t h) const { api->destroy(h); }
  };
  const CublasApi& api_;
  GemmOperands g_;
  std::unique_ptr<cublasContext, Destroy> handle_;
};

class CublasLtGemm : public VendorInvocation {
 public:
  CublasLtGemm(const nlohmann::json& args, VendorEnv& env)
      : lt_(cublas_lt()), g_(args, env), env_(env), candidate_(args.at("candidate").get<int>()) {
    lt_.check(lt_.create(&handle_), "creating a cublasLt handle");
    lt_.check(lt_.desc_create(&desc_, g_.compute, g_.scale), "describing the matmul");
    lt_.check(lt_.desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &g_.op_first, sizeof g_.op_first), "setting TRANSA");
    lt_.check(lt_.desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &g_.op_second, sizeof g_.op_second), "setting TRANSB");
    const bool t_first = g_.op_first == CUBLAS_OP_T, t_second = g_.op_second == CUBLAS_OP_T;
    first_ = layout(g_.in, t_first ? g_.k : g_.m, t_first ? g_.m : g_.k, g_.ld_first, g_.stride_first);
    second_ = layout(g_.in, t_second ? g_.n : g_.k, t_second ? g_.k : g_.n, g_.ld_second, g_.stride_second);
    c_ = layout(g_.out, g_.m, g_.n, g_.ldc, g_.stride_c);
    cublasLtMatmulPreference_t preference = nullptr;
    lt_.check(lt_.preference_create(&preference), "creating the heuristic's preference");
    uint64_t workspace = kLtWorkspaceBytes;
    lt_.preference_set(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace);
    cublasLtMatmulHeuristicResult_t results[8] = {};
    int returned = 0;
    const cublasStatus_t status =
        lt_.heuristic(handle_, desc_, first_, second_, c_, c_, preference, 8, results, &returned);
    lt_.preference_destroy(preference);
    lt_.check(status, "cublasLt's heuristic");
    if (candidate_ >= returned)
      throw CublasError("cublasLt's heuristic offers " + std::to_string(returned) + " algorithms, not candidate " +
                        std::to_string(candidate_));
    algo_ = results[candidate_].algo;
    work_bytes_ = results[candidate_].workspaceSize;
    work_ = DeviceMemory(env.cu, work_bytes_);
  }

  ~CublasLtGemm() override {
    for (cublasLtMatrixLayout_t l : {first_, second_, c_})
      if (l) lt_.layout_destroy(l);
    if (desc_) lt_.desc_destroy(desc_);
    if (handle_) lt_.destroy(handle_);
  }

  void run() override {
    lt_.check(lt_.matmul(handle_, desc_, g_.alpha(), g_.first, first_, g_.second, second_, g_.beta(), g_.c, c_, g_.c, c_,
                         &algo_, reinterpret_cast<void*>(work_.get()), work_bytes_,
                         reinterpret_cast<cudaStream_t>(env_.stream)),
              "cublasLtMatmul");
  }

 private:
  cublasLtMatrixLayout_t layout(cudaDataType type, int64_t rows, int64_t cols, int64_t ld, int64_t stride) {
    cublasLtMatrixLayout_t l = nullptr;
    lt_.check(lt_.layout_create(&l, type, static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), ld),
              "describing a matrix");
    const int32_t batch = static_cast<int32_t>(g_.batch);
    lt_.layout_set(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof batch);
    lt_.layout_set(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
    return l;
  }

  const CublasLtApi& lt_;
  GemmOperands g_;
  VendorEnv& env_;
  int candidate_;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t first_ = nullptr, second_ = nullptr, c_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  size_t work_bytes_ = 0;
  DeviceMemory work_;
};

}  // namespace

std::unique_ptr<VendorInvocation> cublas_gemm_call(const nlohmann::json& args, VendorEnv& env) {
  return std::make_unique<CublasGemm>(args, env);
}

std::unique_ptr<VendorInvocation> cublaslt_gemm_call(const nlohmann::json& args, VendorEnv& env) {
  return std::make_unique<CublasLtGemm>(args, env);
}

}  // namespace ktune
