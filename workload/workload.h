#pragma once
// A workload a client asks ktune to tune for: a sparse matrix, a graph in the same CSR form
// (its adjacency), or, for dense families (GEMM, tensor contractions), nothing but the
// problem's shape: such a family generates its operands, so the workload carries no data.
#include <string>

#include "workload/csr_matrix.h"

namespace ktune {

enum class WorkloadKind { SparseMatrix, Graph, Dense };

struct Workload {
  WorkloadKind kind = WorkloadKind::SparseMatrix;
  CsrF64 matrix;
};

const char* to_string(Dtype d);
Dtype dtype_from_string(const std::string& s);  // "f16" | "bf16" | "f32" | "f64" | "i32"; throws InputError
size_t dtype_size(Dtype d);

}  // namespace ktune
