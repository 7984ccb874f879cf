#include "kernels/bfs/bfs_estimate.h"

#include <algorithm>
#include <cmath>

#include "kernels/graph/expansion_work.h"

namespace ktune {

WorkEstimate estimate_bfs(const Workload& w, const BfsShape& shape, const BfsConfig& c) {
  const double n = std::max(1, shape.vertices);
  const double m = static_cast<double>(shape.edges);
  const double sources = static_cast<double>(shape.sources.size());
  const double levels = std::max(2.0, std::ceil(std::log2(n + 1)));
  // Levels that sweep every vertex: all of them for a pull or a bitmap push, a few (the
  // frontier's peak) for the switching configurations.
  const bool sweeps_always =
      c.direction == BfsDirection::Pull || (c.direction == BfsDirection::Push && c.frontier == BfsFrontier::Bitmap);
  const double sweeps = sweeps_always ? levels : (c.uses_bitmap() ? 2 : 0);
  const double pulled_edge_share = c.direction == BfsDirection::Pull ? 0.5 : (c.pulls() ? 0.35 : 0);
  // A push gathers the depth of each edge's head: a 32-byte sector for 4 useful bytes.
  const double push_bytes = (1 - pulled_edge_share) * m * (4 + 32) + n * 16;
  const double pull_bytes = pulled_edge_share * m * (4 + 4) + sweeps * (4 * n + n / 8);
  WorkEstimate e;
  e.dram_bytes = sources * (push_bytes + pull_bytes);
  e.threads_per_block = c.block;
  const std::shared_ptr<const ExpansionWork> expansion =
      expansion_work(w, {static_cast<int>(c.balance), c.block, c.coarsen});
  e.warp_work.assign(expansion->warp_work.begin(), expansion->warp_work.end());
  e.blocks = expansion->blocks;
  // A level runs one expansion and its end; a bitmap's copy and clearing count as two more.
  const int per_level = 2 + (c.uses_bitmap() ? 2 : 0);
  e.launches = static_cast<int32_t>(sources * (1 + levels * per_level));
  e.unit_waits_on_load = true;  // a round reads the head's depth (or visit bit) at the index it just read
  return e;
}

double bfs_min_bytes(const BfsShape& shape) {
  const double n = shape.vertices;
  const double per_vertex = 4 + 8 + 8 + (shape.parents ? 4 : 0);
  return static_cast<double>(shape.sources.size()) * (4 * static_cast<double>(shape.edges) + per_vertex * n);
}

}  // namespace ktune
