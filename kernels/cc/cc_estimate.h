#pragma once
// What the first cost model needs of one connected-components configuration on one graph,
// and the compulsory traffic. Per iteration the edge pass reads the undirected CSR (vertex
// schedule: row_ptr and col_idx) or its edge pairs (edge schedule), gathers a label per edge
// end at a 32-byte sector each (neighbours' ids are rarely close), and writes labels; pointer
// jumping reads a label and its label's label per vertex and jump.
#include <cstdint>
#include <vector>

#include "kernels/cc/cc_config.h"
#include "kernels/kernel_family.h"

namespace ktune {

// What the estimates read of a graph (kept with the workload: Workload::derived).
struct CcGraphDigest {
  std::vector<int32_t> degrees;  // of the undirected form, self-loops included
  int64_t adjacency = 0;         // its nonzeros: every undirected edge twice
  int64_t pairs = 0;             // its edges once, self-loops dropped
  int32_t depth = 0;             // BFS depth from vertex 0: a diameter proxy
};
CcGraphDigest cc_graph_digest(const CsrF64& graph);

// The iterations the plan's loop is expected to run: a label moves one hop per iteration
// under plain propagation; hooking and jumping collapse paths about twice as fast each round.
// A guess the emulator, which follows the real loop, corrects.
int64_t cc_expected_iterations(const CcGraphDigest& g, const CcConfig& c);

WorkEstimate estimate_cc(const CcGraphDigest& g, const CcConfig& c);

// One pass: the undirected CSR read and a label per vertex written (the least any algorithm
// moves; also what must fit on the device).
double cc_min_bytes(const CcGraphDigest& g);

}  // namespace ktune
