#pragma once
// Block weights of SpMM's launches, read from the plan's own buffers (O(rows) at most): the
// first model's estimate lists one grid, and heavy_light's plan has two, so without these its
// blocks would all weigh the same and the emulator would sample past its longest rows.
#include <optional>
#include <vector>

#include "kernels/launch_plan.h"

namespace ktune {

// By the step's entry: a row-split launch (spmm_row_split, or spmm_light_rows over its list)
// weighs each block by its warps' longest rows (a warp of groups runs as long as its longest row:
// r rows a warp, the fewest powers of two that cover the rows with this grid); spmm_heavy_chunks
// by its warps' longest chunks; spmm_aspt as a row-split launch, each of its panel's tiles adding a
// step to every warp (the block stages it); spmm_nonzero_split by the merge items its blocks cover (segments
// of its `items` argument); spmm_zero_rows evenly. Every K tile (the grid's y) weighs the same.
// Nothing for malformed buffers or another entry.
std::optional<std::vector<double>> spmm_block_weights(const LaunchPlan& plan, const LaunchStep& step);

}  // namespace ktune
