#pragma once
// The tiled schedule's shape (contraction_tiled.cu): which output indices a block's tile spans,
// how far along each, and the kernel's compile-time parameters and launch. The block tile is
// `tile` outputs along m (the output's fastest index X, then M2 from the same operand P) times
// block * coarsen * coarsen2 / tile along n (Y, then N2 from the other operand Q); each of M2,
// Y and N2 is the operand's held output index with the smallest stride there (so the staged
// slices read whole lines).
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/contraction/contraction_spec.h"
#include "kernels/launch_plan.h"
#include "kernels/parameter_space.h"
#include "kernels/precision.h"

namespace ktune {

struct ContractionTiling {
  bool p_is_a = true;
  int dm2 = -1, dy = -1, dn2 = -1;  // output positions of M2, Y, N2 (-1: absent)
  int64_t tx = 1, tm2 = 1, ty = 1, tn2 = 1;
  int64_t kc = 1;  // summed terms staged at a time
  int64_t block = 0, coarsen = 1, coarsen2 = 1, unroll = 1;

  static ContractionTiling of(const ContractionSpec& s, const Config& config);
  // Empty when the kernel can run this tiling, else the rule it breaks.
  std::string violation(const ContractionSpec& s) const;
  int64_t tm() const { return tx * tm2; }
  int64_t tn() const { return ty * tn2; }
  int64_t shared_bytes(Dtype dtype) const;
  int64_t blocks(const ContractionSpec& s) const;
  std::vector<std::string> options(const ContractionSpec& s, Dtype dtype) const;
  LaunchStep launch(const ContractionSpec& s) const;
};

}  // namespace ktune
