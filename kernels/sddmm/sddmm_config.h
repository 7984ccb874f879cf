#pragma once
// The SDDMM parameter space for one dense width K, and one configuration of it in typed form.
#include <cstdint>
#include <string>

#include "kernels/parameter_space.h"
#include "kernels/problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

// problem.k: the dense width K of A and B.
constexpr int32_t kSddmmDefaultK = 32;
constexpr int32_t kSddmmMaxK = 1024;
// The tiled schedule stages a K tile of each dense column in shared memory; past this tile the
// slots per block get too few to share (sddmm_tiles.h).
constexpr int32_t kSddmmMaxTiledKTile = 128;

// In the order of the "schedule" choices.
enum class SddmmSchedule { Nonzero, Row, Tiled };

// K of a problem (problem.k, its default when absent).
int32_t sddmm_k(const Problem& p);

// schedule ∈ {nonzero, row, tiled}; block (threads per block); lanes (threads of a group, which
// spread K between them); vec (elements per vector load); coarsen (nonzeros per group, nonzero
// schedule); chunks (vectors of A's row each lane holds in registers, row and tiled schedules:
// a K tile of lanes * vec * chunks elements per pass). Parameters a schedule does not use are
// pinned to 1, and shapes that would leave most lanes idle on this K, or pass over a row more
// than 8 times, are left out, so that no two configurations compile to the same kernel and the
// space stays small enough for CI to compile and interpret in full.
ParameterSpace sddmm_space(int32_t k);

// The first valid configuration of `schedule` in enumeration order: its smallest block and group.
Config sddmm_first_config(SddmmSchedule schedule, int32_t k);

struct SddmmConfig {
  SddmmSchedule schedule = SddmmSchedule::Nonzero;
  int32_t block = 128;
  int32_t lanes = 4;
  int32_t vec = 1;
  int32_t coarsen = 1;
  int32_t chunks = 1;

  // Validates against sddmm_space(k); throws InputError naming the refused parameter.
  static SddmmConfig from(const Config& config, int32_t k);

  std::string schedule_name() const;
  int32_t groups_per_block() const { return block / lanes; }
  // Elements of A's row a group holds per pass (row and tiled schedules), and the passes over K.
  int32_t k_tile() const { return lanes * vec * chunks; }
  int32_t passes(int32_t k) const { return (k + k_tile() - 1) / k_tile(); }
  // The tiled schedule's shared-memory slots: columns of B whose K tile a block stages at once.
  int32_t slots(Dtype dtype) const;
  // Blocks of the launch (at least one, even for an empty matrix): a block per
  // groups_per_block * coarsen nonzeros (nonzero), or per groups_per_block rows (row, and
  // tiled, whose row panels are those rows).
  int64_t blocks(int32_t rows, int64_t nnz) const;
};

}  // namespace ktune
