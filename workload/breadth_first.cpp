#include "workload/breadth_first.h"

#include <algorithm>
#include <string>

#include "workload/input_error.h"

namespace ktune {

int32_t vertex_count(const CsrF64& graph) { return std::max(graph.rows, graph.cols); }

int32_t out_degree(const CsrF64& graph, int32_t v) { return v < graph.rows ? graph.row_length(v) : 0; }

BreadthFirst breadth_first(const CsrF64& graph, int32_t source) {
  const int32_t n = vertex_count(graph);
  if (source < 0 || source >= n)
    throw InputError("source vertex " + std::to_string(source) + " is not a vertex of the graph (0.." +
                     std::to_string(n - 1) + ")");
  BreadthFirst out;
  out.depth.assign(static_cast<size_t>(n), -1);
  out.parent.assign(static_cast<size_t>(n), -1);
  std::vector<int32_t> queue = {source};
  queue.reserve(static_cast<size_t>(n));
  out.depth[static_cast<size_t>(source)] = 0;
  out.parent[static_cast<size_t>(source)] = source;
  // The queue holds one level after another: [level_begin, level_end) is the current one.
  for (size_t level_begin = 0; level_begin < queue.size();) {
    const size_t level_end = queue.size();
    out.level_sizes.push_back(static_cast<int64_t>(level_end - level_begin));
    for (size_t i = level_begin; i < level_end; ++i) {
      const int32_t u = queue[i];
      if (u >= graph.rows) continue;
      const int32_t next_depth = out.depth[static_cast<size_t>(u)] + 1;
      for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) {
        const int32_t v = graph.col_idx[static_cast<size_t>(k)];
        if (out.depth[static_cast<size_t>(v)] >= 0) continue;
        out.depth[static_cast<size_t>(v)] = next_depth;
        out.parent[static_cast<size_t>(v)] = u;
        queue.push_back(v);
      }
      out.edges_scanned += graph.row_length(u);
    }
    level_begin = level_end;
  }
  return out;
}

}  // namespace ktune
