#pragma once
// cuSPARSE's generic API (SpMV, SpMM, SDDMM), loaded at run time like the driver
// (gpu/cuda_driver.h): the sparse families' vendor baselines, never a link-time dependency.
#include <cusparse.h>

#include <stdexcept>
#include <string>

namespace ktune {

class CusparseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

#define KTUNE_CUSPARSE_FUNCTIONS(X)                 \
  X(cusparseCreate, create)                         \
  X(cusparseDestroy, destroy)                       \
  X(cusparseSetStream, set_stream)                  \
  X(cusparseCreateCsr, create_csr)                  \
  X(cusparseCreateDnVec, create_dn_vec)             \
  X(cusparseDestroySpMat, destroy_sp_mat)           \
  X(cusparseDestroyDnVec, destroy_dn_vec)           \
  X(cusparseSpMV_bufferSize, spmv_buffer_size)      \
  X(cusparseSpMV_preprocess, spmv_preprocess)       \
  X(cusparseSpMV, spmv)                             \
  X(cusparseCreateDnMat, create_dn_mat)             \
  X(cusparseDestroyDnMat, destroy_dn_mat)           \
  X(cusparseSpMM_bufferSize, spmm_buffer_size)      \
  X(cusparseSpMM_preprocess, spmm_preprocess)       \
  X(cusparseSpMM, spmm)                             \
  X(cusparseSDDMM_bufferSize, sddmm_buffer_size)    \
  X(cusparseSDDMM_preprocess, sddmm_preprocess)     \
  X(cusparseSDDMM, sddmm)                           \
  X(cusparseGetErrorString, get_error_string)

struct CusparseApi {
#define KTUNE_CUSPARSE_MEMBER(symbol, member) decltype(&::symbol) member = nullptr;
  KTUNE_CUSPARSE_FUNCTIONS(KTUNE_CUSPARSE_MEMBER)
#undef KTUNE_CUSPARSE_MEMBER

  // libcusparse.so.12 (CUDA 13 still ships major 12), else the other sonames; null with
  // `why_not` set when none loads or one lacks a function.
  static const CusparseApi* load(std::string* why_not = nullptr);

  // Throws CusparseError "<what>: <cuSPARSE's description>" unless `status` is success.
  void check(cusparseStatus_t status, const std::string& what) const;
};

}  // namespace ktune
