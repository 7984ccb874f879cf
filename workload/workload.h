#pragma once
// A workload a client asks ktune to tune for. Today a sparse matrix; graphs use the same
// CSR form (adjacency), dense shapes will join as families for them land.
#include <string>

#include "workload/csr_matrix.h"

namespace ktune {

enum class WorkloadKind { SparseMatrix, Graph };

struct Workload {
  WorkloadKind kind = WorkloadKind::SparseMatrix;
  CsrF64 matrix;
};

const char* to_string(Dtype d);
Dtype dtype_from_string(const std::string& s);  // "f16" | "bf16" | "f32" | "f64" | "i32"; throws InputError
size_t dtype_size(Dtype d);

}  // namespace ktune
