#pragma once
// The BFS parameter space and one configuration of it in typed form.
#include <cstdint>
#include <string>

#include "kernels/parameter_space.h"

namespace ktune {

// In the order of the parameters' choices.
enum class BfsFrontier { Queue, Bitmap, Hybrid };
enum class BfsDirection { Push, Pull, Optimising };
enum class BfsBalance { Thread, Warp, Block, Segment, Tile };

// frontier ∈ {queue, bitmap, hybrid}: how a push level reads its frontier (a list of its
// vertices, a bit per vertex, or the list until the frontier holds more than
// n / 2^dense_shift vertices, MultiGraph's switch); direction ∈ {push, pull, optimising}
// (Beamer's, switching on alpha and beta); schedule ∈ {thread, warp, block, segment, tile}: the
// edge expansion's load balancing (kernels/graph/graph_expand.cuh); block (threads); coarsen (vertices a
// thread, warp or block takes). Parameters a configuration does not use are pinned to their
// first value, so that no two configurations compile to the same kernel.
ParameterSpace bfs_space();

struct BfsConfig {
  BfsFrontier frontier = BfsFrontier::Queue;
  BfsDirection direction = BfsDirection::Push;
  BfsBalance balance = BfsBalance::Thread;  // the "schedule" parameter
  int32_t block = 64;
  int32_t coarsen = 1;
  int32_t dense_shift = 2;
  int32_t alpha = 2;
  int32_t beta = 2;

  // Validates against bfs_space(); throws InputError naming the refused rule.
  static BfsConfig from(const Config& config);

  std::string balance_name() const;
  // Frontier items (queue slots or vertices) one block of an expansion covers.
  int64_t tile_items() const;
  // Which expansions and conversions a level of this configuration may run.
  bool pushes_queue() const { return direction != BfsDirection::Pull && frontier != BfsFrontier::Bitmap; }
  bool pushes_bitmap() const { return direction != BfsDirection::Pull && frontier != BfsFrontier::Queue; }
  bool pulls() const { return direction != BfsDirection::Push; }
  bool uses_bitmap() const { return pushes_bitmap() || pulls(); }
  bool converts() const { return pushes_queue() && uses_bitmap(); }
};

}  // namespace ktune
