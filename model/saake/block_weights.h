#pragma once
// The weight of every block of a launch: how much work it does relative to the others, which
// the emulator uses to pick the blocks worth tracing (the heaviest show imbalance) and to
// extrapolate their times to the whole grid (time = a + b x weight).
#include <cstdint>
#include <vector>

#include "kernels/kernel_family.h"

namespace ktune {

// A family's WorkEstimate lists work per warp, block after block (warps [b * w, (b + 1) * w)
// belong to block b, w = ceil(threads_per_block / 32)); a block weighs the sum of its warps.
// When the estimate does not describe this grid (another launch of the plan, or a family
// that lists no warps), every block weighs 1: the samples are then a plain random draw.
std::vector<double> block_weights_for(const WorkEstimate& estimate, const LaunchStep& step);

}  // namespace ktune
