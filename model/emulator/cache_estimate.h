#pragma once
// Where the sectors of the sampled blocks' global accesses are served: L1, L2 or DRAM.
// The estimate reads the sampled sector stream only (no timing), once per candidate:
//
//   L1  A sector a block touches again (a re-touch) hits L1 with probability
//       p1 = min(1, L1 share of one resident block / the block's distinct footprint);
//       L1 keeps no stores (write-through). Plain and .nc loads are treated alike: on
//       sm_80/sm_90 global loads are cached in L1 by default.
//   L2  A block's first touch of a sector is cold unless other blocks share it. A sector
//       touched by m >= 2 of the sampled blocks is taken to be touched by m x grid_scale
//       blocks of the grid, of which only the first misses: hit chance 1 - 1/(m x scale).
//       A sector touched by one sampled block is private (streamed data): cold, to DRAM.
//       A re-touch that missed L1 was in L2 recently: it hits. All L2 hit chances are
//       scaled by min(1, L2 bytes / grid footprint), the grid footprint being the private
//       sectors x grid_scale plus the shared ones (random-replacement approximation).
//   DRAM Everything else, stores of cold sectors included (they are written back).
//
// Per sector access the level is drawn from these chances by a hash of (sector, block,
// access), so results are deterministic and every op gets whole sectors per level.
// Measured hit rates (e.g. from a profiler), when given, replace the estimate.
// Atomics are not sectors here: they use the Atomic resource, performed in L2.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/emulator/emu_program.h"
#include "model/trace.h"

namespace ktune {

struct CacheRates {
  double l1_hit = 0;  // of load sectors
  double l2_hit = 0;  // of the sectors that reach L2
};

struct CacheContext {
  double l1_bytes_per_block = 0;  // the L1 one resident block may keep
  double l2_bytes = 0;
  double grid_scale = 1;          // the grid's work over the sampled blocks' work
  std::optional<CacheRates> measured;
};

struct CacheSummary {
  double load_sectors = 0;
  double store_sectors = 0;
  double l1_sectors = 0;
  double l2_sectors = 0;
  double dram_sectors = 0;
  double l1_hit_rate = 0;  // l1 / load sectors
  double l2_hit_rate = 0;  // l2 / (l2 + dram)
  double grid_footprint_bytes = 0;
};

struct PreparedSamples {
  std::vector<EmuBlock> blocks;  // in the order of the samples
  CacheSummary cache;
};

// Lowers the sampled traces to emulator programs. Throws InputError on a malformed trace
// (a global op whose sectors lie outside its warp's sector list).
PreparedSamples prepare_samples(const std::vector<BlockTrace>& samples, const CacheContext& context);

}  // namespace ktune
