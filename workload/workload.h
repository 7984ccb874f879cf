#pragma once
// A workload a client asks ktune to tune for: a sparse matrix, a graph in the same CSR form
// (its adjacency), or, for dense families (GEMM, tensor contractions), nothing but the
// problem's shape: such a family generates its operands, so the workload carries no data.
#include <memory>
#include <string>

#include "workload/csr_matrix.h"
#include "workload/derived_cache.h"

namespace ktune {

enum class WorkloadKind { SparseMatrix, Graph, Dense };

struct Workload {
  Workload();
  Workload(WorkloadKind k, CsrF64 m);
  Workload(const Workload& other);  // with an empty `derived`: the copy's matrix may change
  Workload(Workload&& other) noexcept = default;
  Workload& operator=(const Workload& other);
  Workload& operator=(Workload&& other) noexcept;
  ~Workload();

  WorkloadKind kind = WorkloadKind::SparseMatrix;
  CsrF64 matrix;
  DerivedCache derived;  // what families derive from `matrix`, kept with it

  // What keeps the matrix's arrays alive for a view that may outlive this workload (a plan's
  // input bytes borrowed from them, HostBytes::borrowed): should the workload go first, its
  // arrays move to the owner (a vector's move keeps its storage, so views stay valid) and are
  // freed with the last view.
  std::shared_ptr<const void> arrays_owner() const { return arrays_owner_; }

 private:
  void hand_arrays_to_views();  // before `matrix` is destroyed or replaced
  std::shared_ptr<CsrF64> arrays_owner_;
};

const char* to_string(Dtype d);
Dtype dtype_from_string(const std::string& s);  // "f16" | "bf16" | "f32" | "f64" | "i32"; throws InputError
size_t dtype_size(Dtype d);

}  // namespace ktune
