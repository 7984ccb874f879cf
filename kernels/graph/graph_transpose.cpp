#include "kernels/graph/graph_transpose.h"

#include <algorithm>

#include "workload/breadth_first.h"

namespace ktune {

CsrF64 transpose_graph(const CsrF64& graph) {
  const int32_t n = vertex_count(graph);
  CsrF64 t;
  t.rows = t.cols = n;
  t.row_ptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t v : graph.col_idx) ++t.row_ptr[static_cast<size_t>(v) + 1];
  for (int32_t v = 0; v < n; ++v) t.row_ptr[static_cast<size_t>(v) + 1] += t.row_ptr[static_cast<size_t>(v)];
  t.col_idx.resize(graph.col_idx.size());
  t.values.resize(graph.col_idx.size());
  std::vector<int32_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  // Tails in increasing order: each in-edge list comes out sorted.
  for (int32_t u = 0; u < graph.rows; ++u)
    for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) {
      const int32_t slot = next[static_cast<size_t>(graph.col_idx[static_cast<size_t>(k)])]++;
      t.col_idx[static_cast<size_t>(slot)] = u;
      t.values[static_cast<size_t>(slot)] = graph.values.empty() ? 1.0 : graph.values[static_cast<size_t>(k)];
    }
  return t;
}

bool is_symmetric_graph(const CsrF64& graph) {
  if (graph.rows != graph.cols) return false;
  const CsrF64 t = transpose_graph(graph);
  return t.row_ptr == graph.row_ptr && t.col_idx == graph.col_idx;
}

}  // namespace ktune
