#pragma once
// What the first cost model needs of one PageRank configuration on one graph, and the
// compulsory traffic. Per iteration (V bytes a value, n vertices, m edges):
//  - pull: out-degrees (4n) and ranks (Vn) read, contributions written (Vn); the in-edge CSR
//    read (4(n + 1) + 4m), a contribution gathered per edge at a 32-byte sector (neighbours'
//    ids are rarely close), ranks read and written (2Vn);
//  - push: the out-edge CSR read (4(n + 1) + 4m), ranks read (Vn), an atomicAdd per edge into a
//    32-byte sector of `next`; then `next` read and cleared and ranks read and written (4Vn).
// The iterations: the host's run of the reference counts them where it is cheap enough
// (kPagerankWalkBudget); otherwise the worst case: the change shrinks at least d-fold per
// iteration from at most 2d after the first, so about log(tolerance / 2d) / log(d) + 1 of them,
// at most max_iterations.
#include <cstdint>
#include <vector>

#include "kernels/kernel_family.h"
#include "kernels/pagerank/pagerank_config.h"
#include "kernels/pagerank/pagerank_problem.h"

namespace ktune {

// What the estimates read of a graph (kept with the workload: Workload::derived).
struct PagerankGraphDigest {
  std::vector<int32_t> out_degrees, in_degrees;
  int64_t edges = 0;
  // [k]: how many runs of 2^k consecutive vertices hold a vertex without out-edges, each a
  // block (or warp) that adds to the dangling sum.
  std::vector<int64_t> dangling_runs;
  int64_t dangling_runs_of(int64_t span) const;
};
PagerankGraphDigest pagerank_graph_digest(const CsrF64& graph);

int64_t pagerank_expected_iterations(const PagerankProblem& problem);

// Edge visits (edges x max_iterations) the host's run may take for an estimate: a few seconds.
constexpr int64_t kPagerankWalkBudget = int64_t{1} << 31;

WorkEstimate estimate_pagerank(const PagerankGraphDigest& g, const PagerankConfig& c, Dtype dtype, int64_t iterations);

// One pull iteration's compulsory traffic: the in-edge CSR and the out-degrees read, the ranks
// read and written once. One iteration, not the run: this is also what must fit on the device
// (server/device_fit.cpp); a run moves about pagerank_expected_iterations() times as much.
double pagerank_min_bytes(const PagerankGraphDigest& g, Dtype dtype);

}  // namespace ktune
