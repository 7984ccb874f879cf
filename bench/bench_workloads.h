#pragma once
// The generated (large) workloads of the SpMV benchmarks, shared by spmv_bench (which
// measured the ground truth in bench/data) and emulator_accuracy (which predicts it): one
// list, so that a name always means the same matrix.
#include <functional>
#include <string>
#include <vector>

#include "workload/generators.h"
#include "workload/workload.h"

namespace ktune::bench {

struct GeneratedWorkload {
  std::string name;
  WorkloadKind kind = WorkloadKind::SparseMatrix;
  std::function<CsrF64()> make;
};

inline const std::vector<GeneratedWorkload>& large_workloads() {
  static const std::vector<GeneratedWorkload> list = {
      {"laplace2d_4096", WorkloadKind::SparseMatrix, [] { return generate_stencil_2d(4096); }},
      {"rmat22_ef16", WorkloadKind::Graph, [] { return generate_rmat(22, 16, 1); }},
      {"uniform_4M_x8", WorkloadKind::SparseMatrix, [] { return generate_uniform(1 << 22, 1 << 22, 8, 1); }},
      {"banded_2M_bw8", WorkloadKind::SparseMatrix, [] { return generate_banded(1 << 21, 8, 1); }},
      {"stencil3d_80_x3x3", WorkloadKind::SparseMatrix, [] { return block_expand(generate_stencil_3d(80), 3, 1); }},
  };
  return list;
}

}  // namespace ktune::bench
