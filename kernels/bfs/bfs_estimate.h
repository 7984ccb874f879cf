#pragma once
// The first cost model's view of a BFS configuration, without traversing the graph.
#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_plan.h"
#include "kernels/kernel_family.h"

namespace ktune {

// What it assumes: every vertex is reached from every source and every edge scanned once by a
// push (a pull scans about half of an unreached vertex's in-edges before it finds a parent);
// a BFS runs about log2(n) levels, and a pull or bitmap level sweeps all n vertices. The warps'
// work is that of one expansion over every vertex under the configuration's schedule (its
// load balancing is what tells the schedules apart on a skewed graph).
WorkEstimate estimate_bfs(const Workload& w, const BfsShape& shape, const BfsConfig& c);
// Each edge read once (4 bytes) and, per vertex, its row pointer, a depth read and written and
// the frontier's queue entry written and read (4 bytes each), per source; parents add 4 a vertex.
double bfs_min_bytes(const BfsShape& shape);

}  // namespace ktune
