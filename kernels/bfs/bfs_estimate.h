#pragma once
// The first cost model's view of a BFS configuration, from a host BFS of its graph.
#include <vector>

#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_levels.h"
#include "kernels/bfs/bfs_plan.h"
#include "kernels/kernel_family.h"

namespace ktune {

// What it assumes: every source's BFS does what the first one's does (bfs_levels.h: each
// level's frontier and its edges, and what a pull there would scan), run in the modes the
// configuration's frontier and direction switches choose level by level, as bfs_control.cu does.
// A push reads each edge's head and gathers its depth (a sector, from DRAM only where L2 cannot
// hold the depths); a pull checks every vertex's depth and reads in-edges against the frontier's
// bits. The warps' work is that of one expansion over every vertex under the configuration's
// schedule (its load balancing is what tells the schedules apart on a skewed graph), scaled by
// the edges scanned.
WorkEstimate estimate_bfs(const Workload& w, const BfsShape& shape, const BfsConfig& c,
                          const std::vector<BfsLevel>& levels);
// Each edge read once (4 bytes) and, per vertex, its row pointer, a depth read and written and
// the frontier's queue entry written and read (4 bytes each), per source; parents add 4 a vertex.
double bfs_min_bytes(const BfsShape& shape);

}  // namespace ktune
