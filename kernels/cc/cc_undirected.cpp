#include "kernels/cc/cc_undirected.h"

#include <algorithm>

#include "kernels/graph/graph_transpose.h"
#include "workload/breadth_first.h"

namespace ktune {

CsrF64 undirected_graph(const CsrF64& graph) {
  const CsrF64 in = transpose_graph(graph);
  // is_symmetric_graph's test, on the transpose the union needs anyway.
  if (graph.rows == graph.cols && in.row_ptr == graph.row_ptr && in.col_idx == graph.col_idx)
    return CsrF64{graph.rows, graph.cols, graph.row_ptr, graph.col_idx, {}};
  const int32_t n = vertex_count(graph);
  CsrF64 out;
  out.rows = out.cols = n;
  out.row_ptr.reserve(static_cast<size_t>(n) + 1);
  out.row_ptr.push_back(0);
  out.col_idx.reserve(graph.col_idx.size() * 2);
  for (int32_t v = 0; v < n; ++v) {
    // Both lists are sorted: their union is a merge.
    const auto out_begin = graph.col_idx.begin() + (v < graph.rows ? graph.row_ptr[v] : 0);
    const auto out_end = graph.col_idx.begin() + (v < graph.rows ? graph.row_ptr[v + 1] : 0);
    const auto in_begin = in.col_idx.begin() + in.row_ptr[v];
    const auto in_end = in.col_idx.begin() + in.row_ptr[v + 1];
    std::set_union(out_begin, out_end, in_begin, in_end, std::back_inserter(out.col_idx));
    out.row_ptr.push_back(static_cast<int32_t>(out.col_idx.size()));
  }
  return out;
}

EdgePairs undirected_edge_pairs(const CsrF64& undirected) {
  EdgePairs pairs;
  pairs.u.reserve(undirected.col_idx.size() / 2);
  pairs.v.reserve(undirected.col_idx.size() / 2);
  for (int32_t u = 0; u < undirected.rows; ++u)
    for (int32_t k = undirected.row_ptr[u]; k < undirected.row_ptr[u + 1]; ++k) {
      const int32_t v = undirected.col_idx[static_cast<size_t>(k)];
      if (u >= v) continue;
      pairs.u.push_back(u);
      pairs.v.push_back(v);
    }
  return pairs;
}

}  // namespace ktune
