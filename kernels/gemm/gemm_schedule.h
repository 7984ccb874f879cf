#pragma once
// How a configuration divides the MAC-loop iterations among CTAs (digest-004 ch.5). The
// iteration space is linear: tile by tile (batch, then rows of tiles, then columns), each tile
// ceil(k / bk) iterations. The first `sk_tiles` tiles are Stream-K'd: `sk_ctas` CTAs take even,
// contiguous shares of their iterations, crossing tile boundaries. Each remaining tile is cut
// into `split` equal k-ranges, one CTA each. So:
//   data-parallel:  sk_tiles = 0, split = 1          fixed split-K: sk_tiles = 0, split = s
//   Stream-K:       sk_tiles = all, sk_ctas = g       hybrid: sk_tiles = (t mod g) + g, the rest
//                                                     data-parallel ("two-tile SK + DP")
// The Stream-K shares are balanced: CTA c gets sk_share iterations, plus one if c < sk_extra.
// A tile computed by several CTAs is fixed up by the last of them to finish (an atomic count
// per tile), which adds the others' partials from the workspace (fixed split-K's parts are
// added by a second launch instead: reduce_launch): no CTA ever waits for another, so any grid
// is deadlock-free, the counts reset themselves, and the PTX interpreter, which runs blocks one
// after another, computes the same answer. gemm_common.cuh is the device
// twin of cta_range. TMA clusters of 2 (data-parallel and persistent) pad the tile grid to pairs.
// A unit is one such range; a CTA runs one unit, except in the persistent decomposition, where
// `grid` CTAs take the data-parallel units in turn (CTA c: units c, c + grid, ...).
#include <cstdint>

#include "kernels/gemm/gemm_config.h"

namespace ktune {

struct GemmSchedule {
  int64_t tiles_m = 1, tiles_n = 1, tiles = 1;  // tiles counts every batch's
  int64_t ipt = 1;                              // iterations per tile
  int64_t sk_tiles = 0, sk_ctas = 0, split = 1;
  int64_t sk_share = 0, sk_extra = 0;           // each Stream-K CTA's iterations, the first sk_extra one more
  int64_t units = 1;  // ranges of iterations
  int64_t grid = 1;   // CTAs launched

  static GemmSchedule of(const GemmShape& s, const GemmConfig& c);
  // Unit u's iterations [begin, end).
  void cta_range(int64_t u, int64_t* begin, int64_t* end) const;
  // The iterations of every tile: the kernels count them in 32 bits.
  int64_t total_iterations() const { return tiles * ipt; }
  // The most Stream-K CTAs sharing one tile (split-K's parts meet in their own launch).
  int64_t max_peers() const;
  // Fixed split-K's parts are added by a launch of their own (gemm_split_reduce.cu), each part
  // stored whole as a copy of C: with many parts a tile, the last part to finish adding the
  // others one after another made one SM read them all (H200 profile of 384 x 384 x 16384: most
  // of a warp's stalls on those loads).
  bool reduce_launch() const { return split > 1; }
  // Partial tiles' workspace, in accumulators: split-K's copies of C (tiles' worth), or two slots
  // a Stream-K unit (its first and last segments). None when every unit computes whole tiles.
  double workspace_elements(const GemmConfig& c) const {
    if (reduce_launch()) return static_cast<double>(split) * static_cast<double>(tiles) * c.bm * c.bn;
    return sk_ctas == 0 ? 0.0 : 2.0 * static_cast<double>(units) * c.bm * c.bn;
  }
};

}  // namespace ktune
