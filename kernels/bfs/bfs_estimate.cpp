#include "kernels/bfs/bfs_estimate.h"

#include <algorithm>
#include <cmath>

#include "workload/breadth_first.h"

namespace ktune {

namespace {

// Warp entries the estimate lists at most: a block per vertex of a large graph would otherwise
// list more warps than the graph has edges, and the first model's block scheduling walks every
// one. Beyond it, neighbouring blocks are merged into one: 2^16 warps are still hundreds of
// blocks per SM, enough for the imbalance a hub vertex makes to show.
constexpr int64_t kMaxWarps = int64_t{1} << 16;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The work (loop rounds of its slowest lane) of each warp of one expansion over all vertices,
// in `blocks` blocks (fewer once merged).
struct ExpansionWork {
  std::vector<double> warp_work;
  int64_t blocks = 0;
};

ExpansionWork expansion_warp_work(const CsrF64& graph, const BfsConfig& c, int32_t n) {
  ExpansionWork out;
  int64_t& blocks = out.blocks;
  const int64_t tile = c.tile_items();
  const int64_t grid = std::max<int64_t>(1, ceil_div(n, tile));
  const int64_t warps_per_block = c.block / 32;
  const int64_t merge = ceil_div(grid * warps_per_block, kMaxWarps);
  blocks = ceil_div(grid, merge);
  const auto degree = [&](int64_t v) {
    return v < n ? static_cast<double>(out_degree(graph, static_cast<int32_t>(v))) : 0.0;
  };
  std::vector<double> work(static_cast<size_t>(blocks * warps_per_block), 0.0);
  std::vector<double> every_warp(static_cast<size_t>(blocks), 0.0);  // work all warps of a block share
  for (int64_t b = 0; b < grid; ++b) {
    double* warps = work.data() + (b / merge) * warps_per_block;
    const int64_t first = b * tile;
    switch (c.balance) {
      case BfsBalance::Thread:
        for (int64_t k = 0; k < c.coarsen; ++k)
          for (int64_t w = 0; w < warps_per_block; ++w) {
            double longest = 0;
            for (int64_t lane = 0; lane < 32; ++lane)
              longest = std::max(longest, degree(first + k * c.block + w * 32 + lane));
            warps[w] += 1 + longest;
          }
        break;
      case BfsBalance::Warp:
        for (int64_t k = 0; k < c.coarsen; ++k)
          for (int64_t w = 0; w < warps_per_block; ++w)
            warps[w] += 1 + std::ceil(degree(first + k * warps_per_block + w) / 32);
        break;
      case BfsBalance::Block:
        for (int64_t k = 0; k < c.coarsen; ++k)
          every_warp[static_cast<size_t>(b / merge)] += 2 + std::ceil(degree(first + k) / c.block);
        break;
      case BfsBalance::Segment:
      case BfsBalance::Tile: {
        // The group's edges evenly spread, each found by a binary search over its slots.
        const int64_t group = c.balance == BfsBalance::Segment ? 32 : c.block;
        const double search = std::log2(static_cast<double>(group * c.coarsen));
        for (int64_t g = 0; g < c.block / group; ++g) {
          double edges = 0;
          for (int64_t i = 0; i < group * c.coarsen; ++i) edges += degree(first + g * group * c.coarsen + i);
          const double rounds = 1 + std::ceil(edges / static_cast<double>(group)) * (1 + search / 4);
          if (group == c.block) {
            every_warp[static_cast<size_t>(b / merge)] += rounds;
          } else {
            warps[g] += rounds;
          }
        }
        break;
      }
    }
  }
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t w = 0; w < warps_per_block; ++w)
      work[static_cast<size_t>(b * warps_per_block + w)] += every_warp[static_cast<size_t>(b)];
  out.warp_work = std::move(work);
  return out;
}

}  // namespace

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
  // It depends on the schedule, block and coarsening alone: a tune's thousands of estimates
  // share a few dozen, each a pass over the vertices.
  const std::string key = "bfs.expansion " + std::to_string(static_cast<int>(c.balance)) + " " +
                          std::to_string(c.block) + " " + std::to_string(c.coarsen);
  const std::shared_ptr<const ExpansionWork> expansion =
      w.derived.get<ExpansionWork>(key, [&] { return expansion_warp_work(w.matrix, c, shape.vertices); });
  e.warp_work = expansion->warp_work;
  e.blocks = expansion->blocks;
  // A level runs one expansion and its end; a bitmap's copy and clearing count as two more.
  const int per_level = 2 + (c.uses_bitmap() ? 2 : 0);
  e.launches = static_cast<int32_t>(sources * (1 + levels * per_level));
  return e;
}

double bfs_min_bytes(const BfsShape& shape) {
  const double n = shape.vertices;
  const double per_vertex = 4 + 8 + 8 + (shape.parents ? 4 : 0);
  return static_cast<double>(shape.sources.size()) * (4 * static_cast<double>(shape.edges) + per_vertex * n);
}

}  // namespace ktune
