#pragma once
// Which blocks of a grid to interpret and emulate: the heaviest few, where imbalance shows,
// plus a seeded random sample of the rest, which stands for the typical block.
#include <cstdint>
#include <vector>

namespace ktune {

struct SamplePlan {
  int heaviest = 4;
  int random = 4;
  uint64_t seed = 1;
};

// Distinct block indices in increasing order; the same weights and plan give the same
// blocks on every platform. Ties among the heaviest go to the lower index. All blocks when
// the grid is no larger than the plan.
std::vector<int64_t> choose_sample_blocks(const std::vector<double>& block_weights,
                                          const SamplePlan& plan = {});

}  // namespace ktune
