#include "kernels/gemm/gemm_vendor.h"

namespace ktune {

nlohmann::json cublas_gemm_args(const GemmShape& s) {
  return {{"m", s.n},
          {"n", s.m},
          {"k", s.k},
          {"batch", s.batch},
          {"transpose_first", s.b_transposed},
          {"transpose_second", s.a_transposed},
          {"ld_first", s.b_transposed ? s.k : s.n},
          {"ld_second", s.a_transposed ? s.m : s.k},
          {"ldc", s.n},
          {"stride_first", s.k * s.n},
          {"stride_second", s.m * s.k},
          {"stride_c", s.m * s.n},
          {"first", "b"},
          {"second", "a"},
          {"c", "c"}};
}

std::vector<VendorCall> gemm_vendor_calls(const GemmShape& s) {
  const nlohmann::json args = cublas_gemm_args(s);
  std::vector<VendorCall> calls = {{"cublas_gemm", "cublas-gemmex", args}};
  for (int i = 0; i < kGemmLtCandidates; ++i) {
    nlohmann::json with = args;
    with["candidate"] = i;
    calls.push_back({"cublaslt_gemm", "cublaslt-" + std::to_string(i), with});
  }
  return calls;
}

}  // namespace ktune
