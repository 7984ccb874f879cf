#pragma once
// Block weights of a launch over a CSR matrix or its SELL-32 form, read from the plan's own
// buffers (O(blocks),
// O(rows) for row-per-lane launches): a block weighs the rows plus nonzeros it covers (the
// merge-path measure of SpMV work), or, where rows are split over lanes, its warps' slowest
// lane loop iterations. The
// family's WorkEstimate gives per-warp work too, but it costs O(nnz) per candidate (its x
// gather count), hundreds of milliseconds on a large matrix: more than the emulation.
#include <optional>
#include <vector>

#include "kernels/launch_plan.h"

namespace ktune {

// How the step's grid covers the matrix, from what it is given:
//   - a "row_blocks" buffer: the host cut the rows into blocks; two ints a block boundary
//     (first row, stored as ~row for a slice of one row; first nonzero), as spmv_adaptive;
//   - a scalar equal to the nonzero count: the merge path (rows + nonzeros) split evenly;
//   - otherwise: consecutive rows per warp, r of them (a power of two, 32 / r lanes a row: the
//     fewest that cover the rows); a block weighs the sum over its warps of
//     1 + ceil(longest row / lanes).
//   - a "slice_ptr" buffer (SELL-32, spmv_sell_format.h): warp w walks slice w, and a block
//     weighs the sum over its warps of 1 + the slice's width.
// Nothing (std::nullopt) when the step reads neither "row_ptr" nor "slice_ptr", or the buffers
// are malformed.
std::optional<std::vector<double>> spmv_block_weights(const LaunchPlan& plan, const LaunchStep& step);

// How long each block's longest thread runs alone, in loop steps, for a "row_blocks" launch
// (spmv_adaptive): a run of whole rows loads its tile (ceil(nonzeros / threads) each), then
// every pass reduces one row per group of `width` threads (adaptive_row_width) from shared
// memory, as long as its longest row over the width; one row or a slice of one is strided over
// by all threads, ceil(nonzeros / threads). On a power-law matrix a tile's longest row decides
// its block: ncu on R-MAT 20 with 4096-nonzero tiles shows 44% of the warps resident against
// 83% with 256-nonzero ones, for the same traffic (bench/results/ncu_x_reuse_h200.md).
// Nothing for other launches, whose weight is already their longest thread's work, or for
// malformed buffers. O(rows).
std::optional<std::vector<double>> spmv_block_spans(const LaunchPlan& plan, const LaunchStep& step);

}  // namespace ktune
