#include "kernels/contraction/contraction_tiled.h"

#include <algorithm>

#include "kernel_templates.h"

namespace ktune {
namespace {

// Static shared memory a block may declare; the slices take it at 8 bytes an element whatever
// the dtype, so that a configuration's tile does not depend on it.
constexpr int64_t kSharedLimit = 48 * 1024;
constexpr int64_t kMaxStagedTerms = 32;
constexpr int64_t kMaxTileSum = 512;

int64_t ceil_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// The output positions `operand` holds, by increasing stride in it, leaving out position 0.
std::vector<int> held_by_stride(const ContractionSpec& s, const std::vector<std::string>& operand) {
  const std::vector<int64_t> strides = s.strides_in(operand, s.out);
  std::vector<int> held;
  for (size_t d = 1; d < s.out.size(); ++d)
    if (strides[d] > 0) held.push_back(static_cast<int>(d));
  std::sort(held.begin(), held.end(), [&](int x, int y) { return strides[x] < strides[y]; });
  return held;
}

}  // namespace

ContractionTiling ContractionTiling::of(const ContractionSpec& s, const Config& config) {
  ContractionTiling t;
  t.p_is_a = std::find(s.a.begin(), s.a.end(), s.out[0]) != s.a.end();
  const std::vector<int> in_p = held_by_stride(s, t.p_is_a ? s.a : s.b);
  const std::vector<int> in_q = held_by_stride(s, t.p_is_a ? s.b : s.a);
  if (!in_p.empty()) t.dm2 = in_p[0];
  if (!in_q.empty()) t.dy = in_q[0];
  if (in_q.size() > 1) t.dn2 = in_q[1];
  t.block = config.at("block"), t.coarsen = config.at("coarsen"), t.coarsen2 = config.at("coarsen2");
  t.unroll = config.at("unroll");
  const int64_t tile = config.at("tile"), span = ceil_power_of_two(s.extent);
  t.tx = std::min(tile, span);
  t.tm2 = tile / t.tx;
  const int64_t threads_m = std::max<int64_t>(tile / t.coarsen, 1);
  const int64_t tn = std::max<int64_t>(t.block / threads_m, 1) * t.coarsen2;
  t.ty = std::min(tn, span);
  t.tn2 = tn / t.ty;
  t.kc = std::min(kMaxStagedTerms, s.contracted_elements());
  while (t.kc > 1 && (t.tm() + t.tn() + 2) * t.kc * 8 > kSharedLimit) t.kc /= 2;
  return t;
}

std::string ContractionTiling::violation(const ContractionSpec& s) const {
  const int64_t span = ceil_power_of_two(s.extent);
  if (coarsen > tm()) return "tile must be at least coarsen (a thread's outputs along m lie in the block's tile)";
  if (block % (tm() / coarsen) != 0) return "block must be a multiple of tile / coarsen (the threads along m)";
  if (tm2 > 1 && (dm2 < 0 || tm2 > span))
    return "a tile past the extent of the output's fastest index needs, and spans at most, a second index of its operand";
  if (ty > 1 && dy < 0) return "coarsen2 and the threads along n need an output index from the other operand";
  if (tn2 > 1 && (dn2 < 0 || tn2 > span))
    return "the tile along n (block * coarsen * coarsen2 / tile) spans at most two output indices of its operand";
  if (tm() + tn() > kMaxTileSum) return "the tile's two sides sum to at most " + std::to_string(kMaxTileSum);
  return "";
}

int64_t ContractionTiling::shared_bytes(Dtype dtype) const {
  return (tm() + 1 + tn() + 1) * kc * static_cast<int64_t>(dtype_size(dtype));
}

int64_t ContractionTiling::blocks(const ContractionSpec& s) const {
  int64_t n = 1;
  for (size_t d = 0; d < s.out.size(); ++d) {
    const int64_t t = d == 0 ? tx : static_cast<int>(d) == dm2 ? tm2 : static_cast<int>(d) == dy ? ty
                                                                : static_cast<int>(d) == dn2 ? tn2 : 1;
    n *= (s.extent + t - 1) / t;
  }
  return n;
}

std::vector<std::string> ContractionTiling::options(const ContractionSpec& s, Dtype dtype) const {
  const std::vector<std::string>& p = p_is_a ? s.a : s.b;
  const std::vector<std::string>& q = p_is_a ? s.b : s.a;
  const std::vector<std::string> con = s.contracted();
  const std::vector<int64_t> out_p = s.strides_in(p, s.out), out_q = s.strides_in(q, s.out);
  const std::vector<int64_t> con_p = s.strides_in(p, con), con_q = s.strides_in(q, con);
  std::vector<int64_t> tile(s.out.size(), 1);
  tile[0] = tx;
  if (dm2 >= 0) tile[dm2] = tm2;
  if (dy >= 0) tile[dy] = ty;
  if (dn2 >= 0) tile[dn2] = tn2;
  const bool q_sum_fast = dy < 0 || con_q[0] < out_q[dy];
  auto d = [](const char* name, int64_t v) { return std::string("-D") + name + "=" + std::to_string(v); };
  return {std::string("-DKT_T=") + (dtype == Dtype::F64 ? "double" : "float"),
          d("KT_BLOCK", block), d("KT_COARSEN", coarsen), d("KT_COARSEN2", coarsen2), d("KT_UNROLL", unroll),
          d("KT_SUBTRACT", s.sign < 0), d("KT_EXTENT", s.extent), d("KT_NOUT", static_cast<int64_t>(s.out.size())),
          d("KT_NCON", static_cast<int64_t>(con.size())), d("KT_CONTRACTED", s.contracted_elements()),
          d("KT_TX", tx), d("KT_TM2", tm2), d("KT_TY", ty), d("KT_TN2", tn2), d("KT_DM2", dm2), d("KT_DY", dy),
          d("KT_DN2", dn2), d("KT_KC", kc), d("KT_P_IS_A", p_is_a), d("KT_P_SUM_FAST", con_p[0] < out_p[0]),
          d("KT_Q_SUM_FAST", q_sum_fast), "-DKT_TILE=" + braced(tile), "-DKT_OUT_P=" + braced(out_p),
          "-DKT_OUT_Q=" + braced(out_q), "-DKT_CON_P=" + braced(con_p), "-DKT_CON_Q=" + braced(con_q)};
}

LaunchStep ContractionTiling::launch(const ContractionSpec& s) const {
  LaunchStep step;
  step.entry = "contraction_tiled";
  step.grid.x = static_cast<uint32_t>(blocks(s));
  step.block.x = static_cast<uint32_t>(block);
  for (const char* buffer : {"t_in", "a", "b", "t_out"}) step.args.push_back(KernelArg::of_buffer(buffer));
  return step;
}

}  // namespace ktune
