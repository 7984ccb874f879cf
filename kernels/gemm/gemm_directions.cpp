// GEMM's canonical directions for the model-driven walk (digest-000 §2.9): factor-2 steps of
// the block tile (coarsening: more of C a CTA), of the thread or warp tile (coarsening a
// thread), of the k-slice (unrolling), of the Stream-K grid and of split-K's parts, and one more
// pipeline stage.
// The decomposition and the instruction (`mma`: FMA, DMMA, mma.sync or wgmma) are discrete
// choices the walk does not cross, nor is wgmma's loader (cp.async or TMA); each starts at a
// middle-sized tile, Stream-K and the hybrid at the grid-size model's favourite grid
// (gemm_estimate.h); the walk may group the tile order and pair TMA's CTAs in clusters.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_estimate.h"
#include "kernels/gemm/gemm_family.h"

namespace ktune {
namespace {

using Step = std::function<std::optional<Config>(const Config&)>;

Step step_by(std::shared_ptr<const ParameterSpace> space, const char* parameter, int64_t add) {
  return [space, parameter, add](const Config& from) -> std::optional<Config> {
    Config c = from;
    c.at(parameter) += add;
    if (!space->valid(c)) return std::nullopt;
    return c;
  };
}

Step scale(std::shared_ptr<const ParameterSpace> space, const char* parameter, bool grow) {
  return [space, parameter, grow](const Config& from) -> std::optional<Config> {
    Config c = from;
    int64_t& v = c.at(parameter);
    v = grow ? v * 2 : v / 2;
    if (v < 1 || !space->valid(c)) return std::nullopt;
    return c;
  };
}

Config start(GemmDecomposition d, GemmKernel kernel, GemmLoader loader, int64_t cluster, const GemmShape& s,
             const Precision& p) {
  const bool tensor = kernel == GemmKernel::Tensor || kernel == GemmKernel::Wgmma, wgmma = kernel == GemmKernel::Wgmma;
  const bool dmma = kernel == GemmKernel::Dmma, tf32 = dmma && p.input == Dtype::TF32;
  // mma.sync: four warps of 64 x 64 on a 128 x 128 tile, three slices in flight (CUTLASS's
  // sm_80 default, for tf32 in 32-deep slices too). wgmma: two warpgroups of 64 x 256 on a
  // 128 x 256 tile, four 64-deep slices in the ring (what Hopper's fastest GEMMs use). DMMA: four
  // warps of 32 x 32 on a 64 x 64 tile, three 16-deep slices.
  const bool big = tensor || tf32;
  Config c = {{"mma", gemm_mma_index(kernel, p)},
              {"decomposition", static_cast<int64_t>(d)},
              {"bm", big ? 128 : 64},
              {"bn", wgmma ? 256 : big ? 128 : 64},
              {"bk", wgmma ? gemm_wgmma_bk(p) : big ? 32 : 16},
              {"tm", big ? 64 : dmma ? 32 : 4},
              {"tn", wgmma ? 256 : big ? 64 : dmma ? 32 : 4},
              {"stages", wgmma ? 4 : tensor || dmma ? 3 : 2},
              {"split", d == GemmDecomposition::SplitK ? 4 : 1},
              {"sk_grid", kGemmSms},
              {"raster", 1},
              {"loader", static_cast<int64_t>(loader)},
              {"cluster", cluster}};
  if (d == GemmDecomposition::StreamK || d == GemmDecomposition::Hybrid)
    c["sk_grid"] = preferred_sk_grid(s, GemmConfig::from(c, p), p);
  return c;
}

}  // namespace

CanonicalMoves GemmFamily::canonical_moves(const Problem& p) const {
  const GemmShape s = GemmShape::of(p);
  const auto space = std::make_shared<const ParameterSpace>(gemm_space(s, p.precision));
  CanonicalMoves moves;
  // Each of the precision's kernels, the most capable (the list's last) first.
  std::vector<GemmKernel> kernels = gemm_kernels(p.precision);
  std::reverse(kernels.begin(), kernels.end());
  // wgmma starts once with each loader; TMA's data-parallel grid once more in clusters of 2.
  auto add = [&](GemmDecomposition d, GemmKernel kernel, GemmLoader loader, int64_t cluster) {
    Config c = start(d, kernel, loader, cluster, s, p.precision);
    if (space->valid(c)) moves.starts.push_back(std::move(c));
  };
  for (GemmKernel kernel : kernels)
    for (GemmDecomposition d : {GemmDecomposition::DataParallel, GemmDecomposition::SplitK, GemmDecomposition::StreamK,
                                GemmDecomposition::Hybrid}) {
      add(d, kernel, GemmLoader::CpAsync, 1);
      if (kernel != GemmKernel::Wgmma) continue;
      add(d, kernel, GemmLoader::Tma, 1);
      if (d == GemmDecomposition::DataParallel) add(d, kernel, GemmLoader::Tma, 2);
    }
  // Tiles shrink as well as grow: a skinny or small C needs more, smaller tiles to fill the
  // device before Stream-K's split of k does.
  moves.directions = {{"bm", "coarsen", scale(space, "bm", true)},
                      {"bn", "coarsen", scale(space, "bn", true)},
                      {"bm_down", "reshape", scale(space, "bm", false)},
                      {"bn_down", "reshape", scale(space, "bn", false)},
                      {"tn_down", "reshape", scale(space, "tn", false)},
                      {"tm", "coarsen", scale(space, "tm", true)},
                      {"tn", "reshape", scale(space, "tn", true)},
                      {"bk", "unroll", scale(space, "bk", true)},
                      {"stages", "unroll", step_by(space, "stages", 1)},
                      {"sk_grid", "coarsen", scale(space, "sk_grid", true)},
                      // Split-K's parts: its start's 4 left a 384 x 384 x 16384's best (8 and 16
                      // parts of a 64 x 128 or 128 x 128 tile) unmeasured.
                      {"split", "coarsen", scale(space, "split", true)},
                      {"split_down", "reshape", scale(space, "split", false)},
                      {"raster", "reshape", scale(space, "raster", true)},
                      {"cluster", "coarsen", scale(space, "cluster", true)}};
  return moves;
}

}  // namespace ktune
