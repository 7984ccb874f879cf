#include "kernels/bfs/bfs_levels.h"

#include <algorithm>
#include <cstddef>

#include "workload/breadth_first.h"

namespace ktune {

std::vector<BfsLevel> follow_bfs_levels(const CsrF64& graph, const int32_t* in_row_ptr, const int32_t* in_col_idx,
                                        int32_t source) {
  const int32_t n = vertex_count(graph);
  if (source < 0 || source >= n) return {};
  const BreadthFirst bfs = breadth_first(graph, source);
  const size_t depths = bfs.level_sizes.size();
  std::vector<BfsLevel> levels(depths);
  for (size_t l = 0; l < depths; ++l) levels[l].frontier = bfs.level_sizes[l];
  // In-degrees by depth (the unreached last) and, per level, what its next level's vertices
  // scan before they meet a parent.
  std::vector<int64_t> in_edges_at(depths + 1, 0), longest_in_at(depths + 1, 0);
  for (int32_t v = 0; v < n; ++v) {
    const int32_t d = bfs.depth[static_cast<size_t>(v)];
    const int64_t in_degree = in_row_ptr[v + 1] - in_row_ptr[v];
    const size_t bucket = d < 0 ? depths : static_cast<size_t>(d);
    in_edges_at[bucket] += in_degree;
    if (d >= 0) {
      levels[bucket].frontier_edges += out_degree(graph, v);
      levels[bucket].longest_push = std::max<int64_t>(levels[bucket].longest_push, out_degree(graph, v));
    }
    longest_in_at[bucket] = std::max(longest_in_at[bucket], in_degree);
    if (d > 0) {
      int64_t scanned = 0;
      for (int32_t e = in_row_ptr[v]; e < in_row_ptr[v + 1]; ++e) {
        ++scanned;
        if (bfs.depth[static_cast<size_t>(in_col_idx[e])] == d - 1) break;
      }
      levels[static_cast<size_t>(d - 1)].pull_edges_first += scanned;
    }
  }
  // A pull at level L reads every vertex deeper than L (or unreached): the next level's stop at
  // their parent, the rest scan everything.
  int64_t deeper = in_edges_at[depths], longest_deeper = longest_in_at[depths];
  for (size_t l = depths; l-- > 0;) {
    levels[l].pull_edges_whole = deeper;
    levels[l].longest_pull = longest_deeper;
    longest_deeper = std::max(longest_deeper, longest_in_at[l]);
    const int64_t next_level = l + 1 < depths ? in_edges_at[l + 1] : 0;
    levels[l].pull_edges_first += deeper - next_level;
    deeper += in_edges_at[l];
  }
  return levels;
}

}  // namespace ktune
