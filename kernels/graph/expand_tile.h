#pragma once
// The frontier items one block of graph_expand.cuh's expansion covers, on the host: what a
// launch's grid is sized by (KT_TILE_ITEMS on the device). `balance` is the BALANCE_ value:
// a warp per vertex covers a vertex per warp, a block per vertex one, the others one a thread;
// each times the coarsening.
#include <cstdint>

namespace ktune {

// The most items (block x coarsening) a segment or tile schedule may cover: it stages three
// ints an item in shared memory, within the 48 KiB a block has without opting in to more.
inline constexpr int64_t kMaxStagedExpandItems = 2048;

inline int64_t expand_tile_items(int balance, int32_t block, int32_t coarsen) {
  constexpr int kBalanceWarp = 1, kBalanceBlock = 2;  // graph_expand.cuh's BALANCE_WARP, BALANCE_BLOCK
  if (balance == kBalanceWarp) return int64_t{block / 32} * coarsen;
  if (balance == kBalanceBlock) return coarsen;
  return int64_t{block} * coarsen;
}

}  // namespace ktune
