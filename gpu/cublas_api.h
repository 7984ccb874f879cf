#pragma once
// cuBLAS and cublasLt, loaded at run time like cuSPARSE (gpu/cusparse_api.h): the GEMM family's
// vendor baselines, never a link-time dependency. Only the headers are used at build time.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace ktune {

class CublasError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

#define KTUNE_CUBLAS_FUNCTIONS(X)                               \
  X(cublasCreate_v2, create)                                    \
  X(cublasDestroy_v2, destroy)                                  \
  X(cublasSetStream_v2, set_stream)                             \
  X(cublasGetStatusString, status_string)

// The C entry point (the C++ header overloads the name with a compute-type shim).
using CublasGemmStridedBatchedEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                      int, const void*, const void*, cudaDataType, int, long long,
                                                      const void*, cudaDataType, int, long long, const void*, void*,
                                                      cudaDataType, int, long long, int, cublasComputeType_t,
                                                      cublasGemmAlgo_t);

#define KTUNE_CUBLASLT_FUNCTIONS(X)                             \
  X(cublasLtCreate, create)                                     \
  X(cublasLtDestroy, destroy)                                   \
  X(cublasLtMatmulDescCreate, desc_create)                      \
  X(cublasLtMatmulDescDestroy, desc_destroy)                    \
  X(cublasLtMatmulDescSetAttribute, desc_set)                   \
  X(cublasLtMatrixLayoutCreate, layout_create)                  \
  X(cublasLtMatrixLayoutDestroy, layout_destroy)                \
  X(cublasLtMatrixLayoutSetAttribute, layout_set)               \
  X(cublasLtMatmulPreferenceCreate, preference_create)          \
  X(cublasLtMatmulPreferenceDestroy, preference_destroy)        \
  X(cublasLtMatmulPreferenceSetAttribute, preference_set)       \
  X(cublasLtMatmulAlgoGetHeuristic, heuristic)                  \
  X(cublasLtMatmul, matmul)

struct CublasApi {
#define KTUNE_CUBLAS_MEMBER(symbol, member) decltype(&::symbol) member = nullptr;
  KTUNE_CUBLAS_FUNCTIONS(KTUNE_CUBLAS_MEMBER)
#undef KTUNE_CUBLAS_MEMBER
  CublasGemmStridedBatchedEx gemm_strided_batched_ex = nullptr;

  // libcublas.so.13 (CUDA 13), else .so.12; null with `why_not` set when none loads or one
  // lacks a function.
  static const CublasApi* load(std::string* why_not = nullptr);
  // Throws CublasError "<what>: <cuBLAS's description>" unless `status` is success.
  void check(cublasStatus_t status, const std::string& what) const;
};

struct CublasLtApi {
#define KTUNE_CUBLAS_MEMBER(symbol, member) decltype(&::symbol) member = nullptr;
  KTUNE_CUBLASLT_FUNCTIONS(KTUNE_CUBLAS_MEMBER)
#undef KTUNE_CUBLAS_MEMBER

  // libcublasLt.so.13, else .so.12.
  static const CublasLtApi* load(std::string* why_not = nullptr);
  void check(cublasStatus_t status, const std::string& what) const;
};

// The sonames tried, in order, and dlopen's answer: the library's handle, or null with the
// reasons in `why_not` (split out so that a test can ask for a library that is not there).
void* open_first_library(const char* const* sonames, size_t count, const std::string& what, std::string* why_not);

}  // namespace ktune
