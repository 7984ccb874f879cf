#pragma once
// Owned cuSPARSE descriptors and the alpha = 1, beta = 0 scalars every call here passes,
// shared by the vendor calls (gpu/cusparse_*_call.cpp).
#include <cusparse.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "gpu/vendor_calls.h"

namespace ktune {

template <typename Handle>
using CusparseOwned = std::unique_ptr<std::remove_pointer_t<Handle>, std::function<void(Handle)>>;
using SpMatrix = CusparseOwned<cusparseSpMatDescr_t>;
using DnVector = CusparseOwned<cusparseDnVecDescr_t>;
using DnMatrix = CusparseOwned<cusparseDnMatDescr_t>;

// CUDA_R_32F or CUDA_R_64F; std::runtime_error for another type.
cudaDataType cuda_value_type(Dtype d);

// A CSR matrix over the buffers args names as row_ptr, col_idx, values (args.nnz entries).
SpMatrix csr_descriptor(const CusparseApi& sp, VendorEnv& env, const nlohmann::json& args, int64_t rows, int64_t cols,
                        cudaDataType type);
DnVector dense_vector(const CusparseApi& sp, CUdeviceptr data, int64_t size, cudaDataType type);
// A rows x cols dense matrix in row-major order (leading dimension cols).
DnMatrix dense_row_major(const CusparseApi& sp, CUdeviceptr data, int64_t rows, int64_t cols, cudaDataType type);

// 1 and 0 in the call's value type, at stable addresses.
class Scalars {
 public:
  const void* one(cudaDataType t) const { return t == CUDA_R_32F ? static_cast<const void*>(&one32_) : &one64_; }
  const void* zero(cudaDataType t) const { return t == CUDA_R_32F ? static_cast<const void*>(&zero32_) : &zero64_; }

 private:
  float one32_ = 1, zero32_ = 0;
  double one64_ = 1, zero64_ = 0;
};

}  // namespace ktune
