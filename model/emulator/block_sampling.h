#pragma once
// Which blocks of a grid to interpret and emulate: the heaviest few, where imbalance shows,
// plus a seeded random sample of the rest, which stands for the typical block. The random
// part comes in runs of adjacent blocks: neighbouring blocks share data (the x sectors of a
// stencil or band, the sectors straddling their row ranges), and that sharing is L2 reuse the
// cache estimate can only see when both neighbours are traced.
#include <cstdint>
#include <vector>

namespace ktune {

struct SamplePlan {
  int heaviest = 4;
  int random = 4;
  uint64_t seed = 1;
  int run = 2;      // adjacent blocks per random pick (the last run may be shorter)
  int longest = 2;  // the longest-running blocks by span, when the grid's spans are known
};

// Distinct block indices in increasing order; the same weights and plan give the same
// blocks on every platform. Ties among the heaviest (and the longest) go to the lower index.
// All blocks when the grid is no larger than the plan. `block_spans` (one per block, or none)
// is how long a block's longest thread runs alone: a block can read little and still run long
// (a CSR-Adaptive tile whose longest row one thread reduces), and weight alone would not pick it.
std::vector<int64_t> choose_sample_blocks(const std::vector<double>& block_weights,
                                          const SamplePlan& plan = {},
                                          const std::vector<double>& block_spans = {});

}  // namespace ktune
