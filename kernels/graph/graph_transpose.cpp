#include "kernels/graph/graph_transpose.h"

#include <algorithm>
#include <vector>

#include "workload/breadth_first.h"

namespace ktune {

void transpose_graph_into(const CsrF64& graph, int32_t* row_ptr, int32_t* col_idx) {
  const int32_t n = vertex_count(graph);
  std::fill(row_ptr, row_ptr + n + 1, 0);
  for (int32_t v : graph.col_idx) ++row_ptr[static_cast<size_t>(v) + 1];
  for (int32_t v = 0; v < n; ++v) row_ptr[static_cast<size_t>(v) + 1] += row_ptr[static_cast<size_t>(v)];
  std::vector<int32_t> next(row_ptr, row_ptr + n);
  // Tails in increasing order: each in-edge list comes out sorted.
  for (int32_t u = 0; u < graph.rows; ++u)
    for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k)
      col_idx[next[static_cast<size_t>(graph.col_idx[static_cast<size_t>(k)])]++] = u;
}

CsrF64 transpose_graph(const CsrF64& graph) {
  CsrF64 t;
  t.rows = t.cols = vertex_count(graph);
  t.row_ptr.resize(static_cast<size_t>(t.rows) + 1);
  t.col_idx.resize(graph.col_idx.size());
  transpose_graph_into(graph, t.row_ptr.data(), t.col_idx.data());
  return t;
}

bool is_symmetric_graph(const CsrF64& graph) {
  if (graph.rows != graph.cols) return false;
  const CsrF64 t = transpose_graph(graph);
  return t.row_ptr == graph.row_ptr && t.col_idx == graph.col_idx;
}

}  // namespace ktune
