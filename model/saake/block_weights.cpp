#include "model/saake/block_weights.h"

#include <algorithm>

namespace ktune {

std::vector<double> block_weights_for(const WorkEstimate& estimate, const LaunchStep& step) {
  const int64_t blocks = int64_t{step.grid.x} * step.grid.y * step.grid.z;
  const int64_t threads = int64_t{step.block.x} * step.block.y * step.block.z;
  const int64_t warps_per_block = (threads + 31) / 32;
  const int64_t stored_warps = static_cast<int64_t>(estimate.warp_work.size());
  const bool describes_grid = estimate.blocks == blocks && estimate.threads_per_block == threads &&
                              stored_warps * std::max<int64_t>(1, estimate.warp_work_repeats) == blocks * warps_per_block &&
                              stored_warps % warps_per_block == 0;
  if (!describes_grid) return std::vector<double>(static_cast<size_t>(blocks), 1.0);
  std::vector<double> weights(static_cast<size_t>(blocks), 0.0);
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t w = 0; w < warps_per_block; ++w)
      weights[static_cast<size_t>(b)] +=
          estimate.warp_work[static_cast<size_t>((b * warps_per_block + w) % stored_warps)];
  return weights;
}

}  // namespace ktune
