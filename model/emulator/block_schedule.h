#pragma once
// From sampled block times to the whole grid: a time-by-weight fit and the hardware block
// scheduler's greedy assignment.
#include <cstdint>
#include <vector>

namespace ktune {

// time(weight) = intercept + slope x weight, least squares with both kept >= 0 (a block never
// takes negative time, more work never takes less); a constant when the weights do not vary.
struct TimeFit {
  double intercept = 0;
  double slope = 0;
  double operator()(double weight) const { return intercept + slope * weight; }
};
TimeFit fit_time_by_weight(const std::vector<double>& weights, const std::vector<double>& times);

// Blocks in index order go to whichever of `slots` frees first, and the block scheduler hands
// out at most one block per `dispatch_cycles` on the whole device (a grid of many short blocks
// waits on it); the busiest slot's end.
double grid_makespan(const std::vector<double>& block_cycles, int64_t slots, double dispatch_cycles = 0);

}  // namespace ktune
