#pragma once
// What the first cost model needs of one connected-components configuration on one graph,
// and the compulsory traffic. Per iteration the edge pass reads each vertex's neighbour lists
// (vertex schedule) or the edge list (edge schedule; cc_edges.h), gathers a label per edge end
// at a 32-byte sector each (neighbours' ids are rarely close), and writes labels; pointer
// jumping reads a label and its label's label per vertex and jump.
#include <cstdint>
#include <vector>

#include "kernels/cc/cc_config.h"
#include "kernels/cc/cc_contention.h"
#include "kernels/kernel_family.h"
#include "workload/workload.h"

namespace ktune {

// What the estimates read of a graph (kept with the workload: Workload::derived).
struct CcGraphDigest {
  std::vector<int32_t> degrees;  // the neighbours the vertex schedule reads (cc_edges.h)
  int64_t adjacency = 0;         // their sum: every undirected edge twice
  int64_t edge_entries = 0;      // the edge list's: every undirected edge about once
  bool both_ways = true;         // false: the out-lists hold every neighbour (a symmetric graph)
  int32_t depth = 0;             // BFS depth from vertex 0, edges taken both ways: a diameter proxy
};
CcGraphDigest cc_graph_digest(const Workload& w);

// The iterations the plan's loop is expected to run: a label moves one hop per iteration
// under plain propagation; hooking and jumping collapse paths about twice as fast each round.
// A guess the emulator, which follows the real loop, corrects.
int64_t cc_expected_iterations(const CcGraphDigest& g, const CcConfig& c);

WorkEstimate estimate_cc(const CcGraphDigest& g, const CcConfig& c);

// Union-find's rounds (cc_contention.h) on top of its estimate: the waits, and each failed swap as
// one more sector's request on the labels the finds gather.
void charge_union_rounds(WorkEstimate& e, const UnionRounds& rounds);

// One pass: the neighbour lists read and a label per vertex written (the least any algorithm
// moves; also what must fit on the device).
double cc_min_bytes(const CcGraphDigest& g);

}  // namespace ktune
