#pragma once
// Where the sectors of the sampled blocks' global accesses are served: L1, L2 or DRAM.
// The estimate reads the sampled sector stream only (no timing), once per candidate:
//
//   L1  A sector a block touches again (a re-touch) hits L1 with probability
//       p1 = min(1, L1 share of one resident block / the block's distinct footprint), or, when
//       larger, min(1, that share / the sectors the block accessed since its last touch) (a
//       short reuse distance hits however large the footprint); L1 is
//       what the kernel's shared carveout leaves of the unified array (l1_bytes_per_sm);
//       L1 keeps no stores (write-through). Plain and .nc loads are treated alike: on
//       sm_80/sm_90 global loads are cached in L1 by default.
//   L2  Whether L2 still holds a sector when it is touched again depends on the bytes the
//       whole GPU touches in between (the reuse distance), not on the whole grid's footprint:
//       - a re-touch that missed L1, and a sector shared with a sampled block resident at the
//         same time (grid indices closer than the resident blocks of the whole GPU, e.g. the
//         neighbouring block of a stencil or band), was touched within the window of the
//         blocks resident together: it stays in L2 with p = min(1, L2 bytes / that window's
//         footprint = resident blocks of the GPU x the typical block's footprint, the sampled
//         footprint x grid_scale / blocks of the grid, at most the grid footprint; the
//         sectors the blocks gather from one vector count at most once, the vector's size);
//       - a sector shared only by distant sampled blocks (m of them) is taken to be touched
//         by m x grid_scale blocks spread over the grid, so about grid footprint /
//         (m x grid_scale) bytes pass between touches: p = min(1, L2 / that, at least the
//         window's footprint).
//       A first touch of a shared sector hits with chance 1 - 1/(blocks touching it) (only the
//       first of them misses): neighbours count as themselves, distant ones as m x grid_scale.
//       A sector touched by one sampled block is private (streamed data): cold, to DRAM;
//       unless its load instruction gathers from a region the sampled blocks all range over
//       (gather_reuse.h): the grid then reads each sector of the region R times, so 1 - 1/R
//       of the reads hit, times L2's keep chance. Each L2 partition caches what its own SMs
//       read, so it holds the whole region, and between two reads of a sector the grid passes
//       1 / R of its normal-priority data through it (lines of evict-first loads, ld.global.cs,
//       go first and displace little): keep = min(1, L2 / partitions / (region + that)). A
//       vector gathered a band of each row at a time (gather_reuse.h) is read over that band's
//       part of the run only: region and passing data both shrink to the live share.
//       Measured on the H200 (bench/NOTES.md): fp64 x of 32 MB, which fits the 60 MB L2 once
//       but not once per partition, hits 72% beside an evict-first stream and 41% beside a
//       plain one; fp32 x (16 MB) 98% either way.
//       The grid footprint is the private sectors x grid_scale plus the shared ones plus the
//       gathered vectors, each counted once (at most its region).
//   DRAM Everything else, stores of cold sectors included (they are written back).
//
// Per sector access the level is drawn from these chances by a hash of (sector, block,
// access), so results are deterministic and every op gets whole sectors per level. A level's
// pipe carries every sector that reaches it, not only those it serves (ncu counts a miss at
// each level it passes): L1 all of the op's sectors, for access_cost(sectors, lines, its
// weight); L2's tag pipe one request per line of the sectors L1 did not serve and its data
// path each of those sectors (on an H200 the tags bind gathers at about 158 K requests/µs,
// and the data path streams); device memory its own sectors, for access_cost with only the
// lines its block had not asked for before.
// Measured hit rates (e.g. from a profiler), when given, replace the estimate.
// Atomics are not sectors here: they use the Atomic resource, performed in L2.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/emulator/emu_program.h"
#include "model/gpu_spec.h"
#include "model/trace.h"

namespace ktune {

struct CacheRates {
  double l1_hit = 0;  // of load sectors
  double l2_hit = 0;  // of the sectors that reach L2
};

struct CacheContext {
  double l1_bytes_per_block = 0;  // the L1 one resident block may keep
  double l2_bytes = 0;
  double l2_partitions = 1;       // each keeps its own copy of a vector gathered on every SM
  double grid_scale = 1;          // the grid's work over the sampled blocks' work
  double resident_blocks = 1;     // blocks resident at once on the whole GPU (SMs x per SM)
  double grid_blocks = 0;         // blocks in the grid; 0: the samples x grid_scale
  LineWeights line_weights;       // an op's cost per level from its sectors and lines
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
  double resident_footprint_bytes = 0;  // typical block footprint x resident blocks
};

struct PreparedSamples {
  std::vector<EmuBlock> blocks;  // in the order of the samples
  CacheSummary cache;
};

// Lowers the sampled traces to emulator programs. Throws InputError on a malformed trace
// (a global op whose sectors lie outside its warp's sector list).
PreparedSamples prepare_samples(const std::vector<BlockTrace>& samples, const CacheContext& context);

}  // namespace ktune
