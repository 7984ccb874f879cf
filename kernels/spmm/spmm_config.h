#pragma once
// The SpMM parameter space for one dense width K, and one configuration of it in typed form.
#include <cstdint>
#include <string>

#include "kernels/parameter_space.h"
#include "kernels/problem.h"

namespace ktune {

// problem.k: the width K of B and C.
constexpr int32_t kSpmmDefaultK = 32;
constexpr int32_t kSpmmMaxK = 1024;

// In the order of the "schedule" choices.
enum class SpmmSchedule { RowSplit, NonzeroSplit, HeavyLight, Aspt };

// K of a problem (problem.k, its default when absent).
int32_t spmm_k(const Problem& p);

// schedule ∈ {row_split, nonzero_split, heavy_light, aspt}; block (threads per block); lanes
// (threads of a group, which split a K tile between them: a group per row, or per merge-path
// segment, or per heavy-row chunk); vec (elements per vector load of B and C); k_tile (columns of
// C a group computes, the grid's y covering K in tiles: each lane holds k_tile / lanes of them in
// registers); items (merge items per group, nonzero_split); threshold (heavy_light: rows longer
// than it are cut into chunks of that many nonzeros, the others are row-split). aspt is
// row_split over ASpT's tiling, a block a panel of block / lanes rows (spmm_aspt_tiling.h); the
// warp per row is row_split with 32 lanes. Items and threshold choose the plan on the host, not
// the kernel. Parameters a schedule does not use are pinned to their smallest value, and shapes
// that would leave lanes without columns, hold more than 8 runs a lane or read A more than 8
// times over are left out: no two configurations make the same plan on every matrix (on one the
// data can: thresholds longer than every row split none, and the tuner measures such twins once,
// kernels/plan_identity.h), and the space stays small enough for CI to compile and interpret in
// full.
ParameterSpace spmm_space(int32_t k);

struct SpmmConfig {
  SpmmSchedule schedule = SpmmSchedule::RowSplit;
  int32_t block = 64;
  int32_t lanes = 4;
  int32_t vec = 1;
  int32_t k_tile = 1;
  int32_t items = 32;
  int32_t threshold = 64;

  // Validates against spmm_space(k); throws InputError naming the refused parameter.
  static SpmmConfig from(const Config& config, int32_t k);

  std::string schedule_name() const;
  int32_t groups_per_block() const { return block / lanes; }
  // Vector runs each lane holds of a K tile (spmm_common.cuh), at least one.
  int32_t runs() const { return k_tile > lanes * vec ? k_tile / (lanes * vec) : 1; }
  int32_t k_tiles(int32_t k) const { return (k + k_tile - 1) / k_tile; }
  // Whether some groups add into rows of C atomically (those rows are zeroed first).
  bool adds_into_c() const { return schedule == SpmmSchedule::NonzeroSplit || schedule == SpmmSchedule::HeavyLight; }
  // aspt's dense columns a tile: as many K tiles of B as 32 KiB of shared memory holds (ASpT's
  // budget a block, digest-000 §5.6), at most 256.
  int32_t slots(Dtype dtype) const;
  // Blocks along x for `groups` groups, at least one.
  int64_t blocks_for(int64_t groups) const;
};

}  // namespace ktune
