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
  double span_slope = 0;  // cycles per step of a block's longest thread (fit_time_by_weight_and_span)
  double operator()(double weight, double span = 0) const { return intercept + slope * weight + span_slope * span; }
};
TimeFit fit_time_by_weight(const std::vector<double>& weights, const std::vector<double>& times);

// time(weight, span) = intercept + slope x weight + span_slope x span, least squares with every
// coefficient >= 0 (the best of the fits on each subset of the three terms whose coefficients
// come out >= 0; the mean alone always does). For grids whose blocks differ in two ways: how
// much they read (weight) and how long one thread runs alone (span), as a CSR-Adaptive tile
// whose longest row one thread reduces serially while the block's other warps have finished.
TimeFit fit_time_by_weight_and_span(const std::vector<double>& weights, const std::vector<double>& spans,
                                    const std::vector<double>& times);

// Blocks in index order go to whichever of `slots` frees first, and the block scheduler hands
// out at most one block per `dispatch_cycles` on the whole device (a grid of many short blocks
// waits on it); the busiest slot's end.
double grid_makespan(const std::vector<double>& block_cycles, int64_t slots, double dispatch_cycles = 0);

// The blocks of the SM that finishes last, in the order it starts them, by the same rule
// (no dispatch gap): slot j of the `slots` lies on SM j mod `sms`, as the hardware deals the
// first wave over the SMs; a later block takes the slot that frees first, the lowest on a tie.
std::vector<int64_t> busiest_sm_blocks(const std::vector<double>& block_cycles, int64_t slots, int sms);

}  // namespace ktune
