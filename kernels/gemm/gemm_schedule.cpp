#include "kernels/gemm/gemm_schedule.h"

#include <algorithm>

namespace ktune {

GemmSchedule GemmSchedule::of(const GemmShape& s, const GemmConfig& c) {
  GemmSchedule g;
  g.tiles_m = (s.m + c.bm - 1) / c.bm;
  g.tiles_n = (s.n + c.bn - 1) / c.bn;
  // A cluster of 2 takes tiles 2q and 2q + 1, which must share their operand: an even count of
  // tile-columns (row-major order) or tile-rows (grouped order; raster is even) keeps every pair
  // in one tile-row or tile-column. A padding tile lies outside C: it loads zeros, stores nothing.
  if (c.shared_operand() == 1) g.tiles_n += g.tiles_n % 2;
  if (c.shared_operand() == 2) g.tiles_m += g.tiles_m % 2;
  g.tiles = g.tiles_m * g.tiles_n * s.batch;
  g.ipt = (s.k + c.bk - 1) / c.bk;
  const int64_t total = g.tiles * g.ipt;
  switch (c.decomposition) {
    case GemmDecomposition::DataParallel:
    case GemmDecomposition::Persistent: break;
    case GemmDecomposition::SplitK: g.split = std::min(c.split, g.ipt); break;
    case GemmDecomposition::StreamK:
      g.sk_tiles = g.tiles;
      g.sk_ctas = std::min(c.sk_grid, total);  // no CTA without iterations
      break;
    case GemmDecomposition::Hybrid:
      // One fewer data-parallel wave than fits; fewer than two waves of tiles: all Stream-K.
      g.sk_tiles = g.tiles >= 2 * c.sk_grid ? g.tiles % c.sk_grid + c.sk_grid : g.tiles;
      g.sk_ctas = std::min(c.sk_grid, g.sk_tiles * g.ipt);
      break;
  }
  if (g.sk_ctas > 0) {
    g.sk_share = g.sk_tiles * g.ipt / g.sk_ctas;
    g.sk_extra = g.sk_tiles * g.ipt % g.sk_ctas;
  }
  g.units = g.sk_ctas + (g.tiles - g.sk_tiles) * g.split;
  // A cluster's CTAs run tile pairs: the tiles are padded to pairs and sk_grid is even.
  g.grid = c.decomposition == GemmDecomposition::Persistent ? std::min(g.units, c.sk_grid) : g.units;
  return g;
}

void GemmSchedule::cta_range(int64_t u, int64_t* begin, int64_t* end) const {
  if (u < sk_ctas) {
    *begin = u * sk_share + std::min(u, sk_extra);
    *end = *begin + sk_share + (u < sk_extra ? 1 : 0);
    return;
  }
  const int64_t d = u - sk_ctas;
  const int64_t tile = sk_tiles + d / split, part = d % split;
  *begin = tile * ipt + part * ipt / split;
  *end = tile * ipt + (part + 1) * ipt / split;
}

int64_t GemmSchedule::max_peers() const {
  int64_t peers = 1;
  if (sk_ctas > 0) {
    const int64_t share = std::max<int64_t>(1, sk_tiles * ipt / sk_ctas);
    peers = std::max(peers, (ipt + share - 1) / share + 1);
  }
  return peers;
}

}  // namespace ktune
