#pragma once
// Grid-wide reuse of gathered sectors that the samples cannot see. A random gather (x of a
// uniform or power-law matrix) reads each sector of its vector many times over the grid, but
// with a few sampled blocks a sector is rarely read by two of them: counted private, it would
// go to DRAM every time. Per load instruction (pc):
//   - its sampled blocks' sector ranges overlap (each block ranges over the same region, as a
//     gather over a shared vector does; a stream's blocks read disjoint ranges), or each block
//     reads few of the sectors its range spans (a stream reads them all): it gathers;
//   - loads whose regions overlap gather from one vector and pool their reads: the grid reads
//     its sectors R = their sampled sector reads x grid_scale / vector sectors
//     times each, so only 1 / R of its reads are first touches (DRAM); the rest find the
//     sector in L2 when the region fits there (the caller's reuse-distance rule).
// A block may gather only a band of each row of a row-major operand (SpMM's slice of B's
// columns, k_tile of k): its sectors then come in runs of the band's length at the row pitch,
// and the grid's blocks of one band (consecutive in launch order) hold only that share of the
// region in L2 at once, and the reads of a sector fall within the band's part of the grid's
// run, with only that part of its other data passing between them. The band's share is the
// runs' median length over the greatest common divisor of their starts' distances, per sampled
// block; the live share adds the share of the grid resident at once (the blocks of the next
// band already running).
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace ktune {

class GatherReuse {
 public:
  // `resident_share`: the blocks resident at once over the grid's blocks.
  GatherReuse(const std::vector<BlockTrace>& samples, double grid_scale, double resident_share = 1);

  // Grid-wide reads per sector of the region the load at `pc` gathers from; 0 when it does
  // not gather (a stream, a store, or a block alone in the samples).
  double reads_per_sector(uint32_t pc) const;
  double region_bytes(uint32_t pc) const;
  // The share of the grid's run over which a sector of the region is read again: the band
  // the resident blocks gather from, over the row (1 for a vector read whole).
  double live_share(uint32_t pc) const;
  // Bytes of every gathered vector together (each once, however many loads read it), and of
  // their live bands.
  double vector_bytes() const { return vector_bytes_; }
  double live_vector_bytes() const { return live_vector_bytes_; }

 private:
  struct Gather {
    double reads_per_sector = 0;
    double region_bytes = 0;
    double live_share = 1;
  };
  std::vector<Gather> by_pc_;  // by pc
  double vector_bytes_ = 0;
  double live_vector_bytes_ = 0;
};

}  // namespace ktune
