#pragma once
// Block weights of an SDDMM launch, read from the plan's own buffers in O(blocks) (nonzero
// schedule) or O(rows) (row and tiled schedules), where the family's estimate costs O(nnz) a
// candidate. Each weight is in the estimate's units (sddmm_estimate.cpp) up to a factor common to
// the launch's blocks (its passes over K, the lanes' share of K), which the emulator's fit of
// time to weight absorbs:
//   - sddmm_nonzero: the nonzeros the block covers (its groups * coarsen of them, the one power
//     of two that gives the launch's grid);
//   - sddmm_row and sddmm_tiled: the sum over its warps of 1 + the longest of the warp's rows (a
//     power of two of rows a block, the one that gives the grid; 32 / lanes of them a warp),
//     plus, for sddmm_tiled, a step of every warp for each dense tile its panel stages.
// Nothing (std::nullopt) for another launch or malformed buffers.
#include <optional>
#include <vector>

#include "kernels/launch_plan.h"

namespace ktune {

std::optional<std::vector<double>> sddmm_block_weights(const LaunchPlan& plan, const LaunchStep& step);

}  // namespace ktune
