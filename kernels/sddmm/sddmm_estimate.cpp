#include "kernels/sddmm/sddmm_estimate.h"

#include <algorithm>

#include "kernels/sddmm/sddmm_tiles.h"

namespace ktune {

namespace {

constexpr int64_t kWarpSize = 32;

// Dense rows (of A or B) a warp reads, counted once per warp: a row two warps read counts
// twice; whether L2 catches that reuse is the model's business, not this count's.
class RowsPerWarp {
 public:
  explicit RowsPerWarp(int32_t rows) : last_warp_(static_cast<size_t>(rows), -1) {}
  void read(int64_t warp, int32_t row) {
    int64_t& last = last_warp_[static_cast<size_t>(row)];
    if (last != warp) last = warp, ++count_;
  }
  double count() const { return static_cast<double>(count_); }

 private:
  std::vector<int64_t> last_warp_;
  int64_t count_ = 0;
};

// Nonzero schedule: warp w takes nonzeros [w * n, (w + 1) * n) with n = 32 / lanes * coarsen,
// and its lanes loop over K once, all of a group's nonzeros at a time, then sum each.
void estimate_nonzero_warps(const CsrF64& s, const SddmmConfig& c, int32_t k, WorkEstimate& e, RowsPerWarp& a_rows,
                            RowsPerWarp& b_rows) {
  const int64_t per_warp = kWarpSize / c.lanes * c.coarsen;
  const int64_t warps = e.blocks * (c.block / kWarpSize);
  const double work = static_cast<double>((k / c.vec + c.lanes - 1) / c.lanes + c.coarsen);
  int32_t row = 0;
  for (int64_t w = 0; w < warps; ++w) {
    const int64_t first = std::min(w * per_warp, s.nnz()), last = std::min(first + per_warp, s.nnz());
    e.warp_work.push_back(first < last ? work : 0);
    for (int64_t i = first; i < last; ++i) {
      while (s.row_ptr[row + 1] <= i) ++row;
      a_rows.read(w, row);
      b_rows.read(w, s.col_idx[i]);
    }
  }
}

// Where row r's nonzeros read B from global memory: all of them, or, in the tiled schedule, the
// sparse rest after its runs in the panel's dense tiles (their B rows are staged).
int32_t first_gathered(const CsrF64& s, const SddmmTiling* tiling, int64_t r) {
  if (!tiling) return s.row_ptr[r];
  const int64_t panel = r / tiling->panel_rows;
  const int64_t first_tile = tiling->tile_ptr[panel], tiles = tiling->tile_ptr[panel + 1] - first_tile;
  if (tiles == 0) return s.row_ptr[r];
  return tiling->segment_ends[static_cast<size_t>(first_tile * tiling->panel_rows + (r % tiling->panel_rows) * tiles + tiles - 1)];
}

// Row and tiled schedules: warp w holds rows [w * r, (w + 1) * r) with r = 32 / lanes, and each
// pass over K walks the longest of them; the tiled schedule's passes also stage each of the
// panel's tiles, `staging` loop steps a thread.
void estimate_row_warps(const CsrF64& s, const SddmmConfig& c, int32_t k, const SddmmTiling* tiling,
                        int64_t staging, WorkEstimate& e, RowsPerWarp& b_rows) {
  const int64_t rows_per_warp = kWarpSize / c.lanes, warps_per_block = c.block / kWarpSize;
  for (int64_t w = 0; w < e.blocks * warps_per_block; ++w) {
    const int64_t first = std::min<int64_t>(w * rows_per_warp, s.rows);
    const int64_t last = std::min<int64_t>(first + rows_per_warp, s.rows);
    const int64_t block = w / warps_per_block;
    const int64_t tiles = tiling ? tiling->tile_ptr[block + 1] - tiling->tile_ptr[block] : 0;
    int64_t longest = 0;
    for (int64_t r = first; r < last; ++r) {
      longest = std::max<int64_t>(longest, s.row_length(static_cast<int32_t>(r)));
      for (int32_t e_at = first_gathered(s, tiling, r); e_at < s.row_ptr[r + 1]; ++e_at)
        b_rows.read(w, tiling ? tiling->entry_cols[static_cast<size_t>(e_at)] : s.col_idx[e_at]);
    }
    e.warp_work.push_back(first < last ? static_cast<double>(c.passes(k) * (1 + longest + tiles * staging)) : 0);
  }
}

}  // namespace

WorkEstimate estimate_sddmm(const CsrF64& s, const SddmmConfig& c, int32_t k, Dtype dtype) {
  WorkEstimate e;
  e.threads_per_block = c.block;
  e.blocks = c.blocks(s.rows, s.nnz());
  const double value = static_cast<double>(dtype_size(dtype)), row_bytes = value * k;
  const double nnz = static_cast<double>(s.nnz()), passes = c.passes(k);
  RowsPerWarp a_rows(s.rows), b_rows(s.cols);
  if (c.schedule == SddmmSchedule::Nonzero) {
    estimate_nonzero_warps(s, c, k, e, a_rows, b_rows);
    // row_idx and col_idx, A and B gathered, c written once.
    e.dram_bytes = nnz * 8 + (a_rows.count() + b_rows.count()) * row_bytes + nnz * value;
    return e;
  }
  double structure = (s.rows + 1.0) * 4 + passes * nnz * 4;  // row_ptr, and col_idx each pass
  double staged = 0;
  if (c.schedule == SddmmSchedule::Tiled) {
    const SddmmTiling tiling = sddmm_tiling(s, c.groups_per_block(), c.slots(dtype));
    const int64_t staging = (int64_t{c.slots(dtype)} * c.lanes * c.chunks + c.block - 1) / c.block;
    estimate_row_warps(s, c, k, &tiling, staging, e, b_rows);
    // Entries (a slot or column, and a position) each pass; each tile's columns once a pass.
    structure = (s.rows + 1.0) * 4 + passes * nnz * 8 +
                static_cast<double>(tiling.tile_cols.size() + tiling.segment_ends.size()) * 4 * passes;
    for (int32_t col : tiling.tile_cols) staged += col >= 0;
  } else {
    estimate_row_warps(s, c, k, nullptr, 0, e, b_rows);
  }
  // A once (held in registers), B gathered or staged, c stored and, after the first pass, added to.
  e.dram_bytes = structure + (s.rows + b_rows.count() + staged) * row_bytes + nnz * value * (2 * passes - 1);
  return e;
}

double sddmm_min_bytes(const CsrF64& s, int32_t k, Dtype dtype) {
  const double value = static_cast<double>(dtype_size(dtype)), nnz = static_cast<double>(s.nnz());
  return (s.rows + 1.0) * 4 + nnz * 4 + (static_cast<double>(s.rows) + s.cols) * k * value + nnz * value;
}

}  // namespace ktune
