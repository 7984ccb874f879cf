#pragma once
// The SSSP parameter space and one configuration of it in typed form.
#include <cstdint>
#include <string>

#include "kernels/parameter_space.h"

namespace ktune {

// In the order of the parameters' choices.
enum class SsspAlgorithm { BellmanFord, DeltaStepping };
// graph_expand.cuh's BALANCE_ values, in its order.
enum class SsspBalance { Thread, Warp, Block, Segment, Tile };

// algorithm ∈ {bellman_ford, delta_stepping}: a queue of the vertices whose distance dropped,
// relaxed pass after pass; or the same queue limited to distances below a threshold that
// rises by Δ = delta × the mean edge weight whenever the queue empties (near/far split);
// schedule ∈ {thread, warp, block, segment, tile}: who relaxes one queued vertex's edges (a
// thread, a warp, a block) or how a warp's (segment) or block's (tile) queued vertices share out
// their edges evenly; block (threads);
// coarsen (queued vertices a thread, warp or block takes); batch (edges a thread of the segment
// and tile schedules relaxes at once, each link of their chains of round trips in flight
// together: more hides more latency on a large frontier, and wastes more lanes on a small one).
// delta is pinned to 1 under Bellman-Ford and batch to 1 outside segment and tile, so that no
// two configurations compile to the same plan.
ParameterSpace sssp_space();

struct SsspConfig {
  SsspAlgorithm algorithm = SsspAlgorithm::BellmanFord;
  SsspBalance balance = SsspBalance::Thread;  // the "schedule" parameter
  int32_t block = 64;
  int32_t coarsen = 1;
  int32_t delta = 1;  // Δ in mean edge weights
  int32_t batch = 1;  // sssp_relax.cu's KT_RELAX_BATCH

  // Validates against sssp_space(); throws InputError naming the refused rule.
  static SsspConfig from(const Config& config);

  bool delta_stepping() const { return algorithm == SsspAlgorithm::DeltaStepping; }
  // Queue slots one block of the relaxation covers.
  int64_t tile_items() const;
};

}  // namespace ktune
