#include "gpu/cusparse_handles.h"

#include <stdexcept>

namespace ktune {

cudaDataType cuda_value_type(Dtype d) {
  if (d == Dtype::F32) return CUDA_R_32F;
  if (d == Dtype::F64) return CUDA_R_64F;
  throw std::runtime_error(std::string("the cuSPARSE calls take f32 or f64 values, not ") + to_string(d));
}

SpMatrix csr_descriptor(const CusparseApi& sp, VendorEnv& env, const nlohmann::json& args, int64_t rows, int64_t cols,
                        cudaDataType type) {
  auto address = [&](const char* role) { return reinterpret_cast<void*>(env.address(args.at(role).get<std::string>())); };
  cusparseSpMatDescr_t raw = nullptr;
  sp.check(sp.create_csr(&raw, rows, cols, args.at("nnz").get<int64_t>(), address("row_ptr"), address("col_idx"),
                         address("values"), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
           "describing the CSR matrix");
  return SpMatrix(raw, [&sp](cusparseSpMatDescr_t d) { sp.destroy_sp_mat(d); });
}

DnVector dense_vector(const CusparseApi& sp, CUdeviceptr data, int64_t size, cudaDataType type) {
  cusparseDnVecDescr_t raw = nullptr;
  sp.check(sp.create_dn_vec(&raw, size, reinterpret_cast<void*>(data), type), "describing a dense vector");
  return DnVector(raw, [&sp](cusparseDnVecDescr_t d) { sp.destroy_dn_vec(d); });
}

DnMatrix dense_row_major(const CusparseApi& sp, CUdeviceptr data, int64_t rows, int64_t cols, cudaDataType type) {
  cusparseDnMatDescr_t raw = nullptr;
  sp.check(sp.create_dn_mat(&raw, rows, cols, cols, reinterpret_cast<void*>(data), type, CUSPARSE_ORDER_ROW),
           "describing a dense matrix");
  return DnMatrix(raw, [&sp](cusparseDnMatDescr_t d) { sp.destroy_dn_mat(d); });
}

}  // namespace ktune
