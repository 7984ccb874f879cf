#pragma once
// The check of a BFS's parents: any BFS tree is an answer, so parents are checked for what
// they mean rather than against the reference's own tree.
#include <string_view>
#include <vector>

#include "kernels/kernel_family.h"

namespace ktune {

// `got` holds one row of n parents per source; `expected` the reference's parents (-1
// unreached, a source its own parent), from which the reference depths follow. Passes when
// every element agrees on reachability, each source is its own parent, and every other
// reached vertex's parent is one level nearer its source with the edge parent→v in the graph
// (`data`: "row_ptr" and "col_idx", the plan's out-edges).
Verdict check_bfs_parents(std::string_view got, const std::vector<double>& expected, const CheckData& data);

}  // namespace ktune
