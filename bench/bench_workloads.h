#pragma once
// The generated (large) workloads of the SpMV benchmarks, shared by family_bench (which
// measured the ground truth in bench/data) and emulator_accuracy (which predicts it): one
// list, so that a name always means the same matrix.
#include <functional>
#include <string>
#include <vector>

#include "workload/generators.h"
#include "workload/workload.h"

namespace ktune::bench {

// Whether `name` is one of --only's comma-separated names (an empty list selects every one).
inline bool selected(const std::string& only, const std::string& name) {
  return only.empty() || ("," + only + ",").find("," + name + ",") != std::string::npos;
}

// The kind a family reads a workload as: a graph family reads every matrix as a graph, as
// ktuned's resolver does.
inline WorkloadKind read_as(WorkloadKind family, WorkloadKind workload) {
  return family == WorkloadKind::Graph ? WorkloadKind::Graph : workload;
}

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

// Held out from model development: matrices the emulator was never tuned on, measured once for
// issue 4's accuracy check on fresh inputs (bench/data/spmv_ground_truth_fresh_h200.json).
// Other sizes, row lengths and skews than the list above, from the small-matrix regime
// (launch- and latency-bound) to tens of millions of nonzeros.
inline const std::vector<GeneratedWorkload>& fresh_workloads() {
  static const std::vector<GeneratedWorkload> list = {
      {"rmat16_ef16", WorkloadKind::Graph, [] { return generate_rmat(16, 16, 11); }},
      {"uniform_64K_x16", WorkloadKind::SparseMatrix, [] { return generate_uniform(1 << 16, 1 << 16, 16, 5); }},
      {"stencil3d_128", WorkloadKind::SparseMatrix, [] { return generate_stencil_3d(128); }},
      {"rmat20_ef8", WorkloadKind::Graph, [] { return generate_rmat(20, 8, 7); }},
      {"uniform_1M_x24", WorkloadKind::SparseMatrix, [] { return generate_uniform(1 << 20, 1 << 20, 24, 3); }},
      {"banded_512K_bw24", WorkloadKind::SparseMatrix, [] { return generate_banded(1 << 19, 24, 9); }},
      {"laplace2d_2048", WorkloadKind::SparseMatrix, [] { return generate_stencil_2d(2048); }},
      {"stencil2d_512_x4", WorkloadKind::SparseMatrix, [] { return block_expand(generate_stencil_2d(512), 4, 13); }},
  };
  return list;
}

// Issue 23's operands for SpMM and SDDMM: matrices whose dense operands (rows x K) still fit the
// device at K = 512 in f64 and whose references the host computes in seconds.
inline const std::vector<GeneratedWorkload>& medium_workloads() {
  static const std::vector<GeneratedWorkload> list = {
      {"laplace2d_2048", WorkloadKind::SparseMatrix, [] { return generate_stencil_2d(2048); }},
      {"rmat20_ef16", WorkloadKind::Graph, [] { return generate_rmat(20, 16, 1); }},
      {"uniform_1M_x16", WorkloadKind::SparseMatrix, [] { return generate_uniform(1 << 20, 1 << 20, 16, 1); }},
  };
  return list;
}

}  // namespace ktune::bench
