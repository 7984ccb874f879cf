#include "kernels/spmm/spmm_estimate.h"

#include <algorithm>

#include "kernels/spmm/spmm_aspt_tiling.h"
#include "kernels/spmm/spmm_row_groups.h"

namespace ktune {

namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kSectorBytes = 32;

// Nonzeros [begin, end) that warp `warp` multiplies (ascending warps, a warp may have several).
struct WarpRange {
  int64_t warp, begin, end;
};

// What the matrix kernels' warps do: loop steps of their slowest lane, and the nonzeros each reads.
struct WarpWork {
  std::vector<double> steps;
  std::vector<WarpRange> ranges;
};

// B's bytes per column of A a warp reads once: its K tiles' rows of B, in whole sectors.
double b_row_bytes(int32_t k, const SpmmConfig& c, Dtype dtype) {
  double bytes = 0;
  for (int64_t first = 0; first < k; first += c.k_tile) {
    const int64_t width = std::min<int64_t>(c.k_tile, k - first);
    bytes += static_cast<double>((width * static_cast<int64_t>(dtype_size(dtype)) + kSectorBytes - 1) / kSectorBytes *
                                 kSectorBytes);
  }
  return bytes;
}

// The gathers of B: each warp reads the rows of B its nonzeros name (`cols`, A's columns in the
// kernel's order), a row it names twice once. A row two warps share counts twice; whether L2
// catches that reuse is the model's business.
double gathered_b_bytes(const CsrF64& a, const std::vector<int32_t>& cols, const std::vector<WarpRange>& ranges,
                        double row_bytes) {
  std::vector<int64_t> last_warp(static_cast<size_t>(a.cols), -1);
  int64_t rows_read = 0;
  for (const WarpRange& r : ranges) {
    for (int64_t i = r.begin; i < r.end; ++i) {
      int64_t& last = last_warp[static_cast<size_t>(cols[static_cast<size_t>(i)])];
      if (last != r.warp) {
        last = r.warp;
        ++rows_read;
      }
    }
  }
  return static_cast<double>(rows_read) * row_bytes;
}

// Groups of whole rows (row_split, heavy_light's light rows): warp w holds rows
// rows[w * g .. (w + 1) * g) of the list, g = 32 / lanes, and loops over the longest of them.
void row_warps(const CsrF64& a, const SpmmConfig& c, const std::vector<int32_t>& rows, int64_t warp_base,
               WarpWork& work) {
  const int64_t per_warp = kWarpSize / c.lanes;
  const int64_t warps = c.blocks_for(static_cast<int64_t>(rows.size())) * c.block / kWarpSize;
  for (int64_t w = 0; w < warps; ++w) {
    int64_t longest = 0;
    const size_t first = std::min(rows.size(), static_cast<size_t>(w * per_warp));
    const size_t last = std::min(rows.size(), first + static_cast<size_t>(per_warp));
    for (size_t i = first; i < last; ++i) {
      const int32_t r = rows[i];
      longest = std::max<int64_t>(longest, a.row_length(r));
      work.ranges.push_back({warp_base + w, a.row_ptr[r], a.row_ptr[r + 1]});
    }
    work.steps.push_back(static_cast<double>(longest * c.runs() + (first < last ? 1 : 0)));
  }
}

// heavy_light's chunks: a group per chunk of at most `threshold` nonzeros.
void chunk_warps(const CsrF64& a, const SpmmConfig& c, const HeavyLightRows& split, int64_t warp_base, WarpWork& work) {
  const int64_t per_warp = kWarpSize / c.lanes;
  const int64_t chunks = split.chunk_count();
  const int64_t warps = c.blocks_for(chunks) * c.block / kWarpSize;
  for (int64_t w = 0; w < warps; ++w) {
    int64_t longest = 0;
    for (int64_t i = w * per_warp; i < std::min(chunks, (w + 1) * per_warp); ++i) {
      const int32_t row = split.chunks[static_cast<size_t>(2 * i)];
      const int64_t begin = split.chunks[static_cast<size_t>(2 * i + 1)];
      const int64_t end = std::min<int64_t>(begin + c.threshold, a.row_ptr[row + 1]);
      longest = std::max(longest, end - begin);
      work.ranges.push_back({warp_base + w, begin, end});
    }
    work.steps.push_back(static_cast<double>(longest * c.runs() + (longest > 0 ? 1 : 0)));
  }
}

// The nonzero split: every group walks `items` merge items (fewer at the end of the path), a
// warp the nonzeros between its first group's start and its last group's end.
void segment_warps(const CsrF64& a, const SpmmConfig& c, WarpWork& work) {
  const int64_t path = a.rows + a.nnz();
  const int64_t per_warp_items = kWarpSize / c.lanes * c.items;
  const int64_t warps = c.blocks_for((path + c.items - 1) / c.items) * c.block / kWarpSize;
  for (int64_t w = 0; w < warps; ++w) {
    const int64_t first = std::min(path, w * per_warp_items), last = std::min(path, first + per_warp_items);
    work.steps.push_back(static_cast<double>(std::min<int64_t>(c.items, last - first) * c.runs()));
    work.ranges.push_back({w, first - merge_path_row(a, first), last - merge_path_row(a, last)});
  }
}

// aspt: warps of groups a row as row_split, and first every tile of their panel (staged by the
// whole block); the gathers from global memory are the sparse rests' alone.
void aspt_warps(const CsrF64& a, const SpmmConfig& c, const AsptTiling& t, WarpWork& work) {
  const int64_t per_warp = kWarpSize / c.lanes;
  const int64_t warps = c.blocks_for(a.rows) * c.block / kWarpSize;
  for (int64_t w = 0; w < warps; ++w) {
    const int64_t first = std::min<int64_t>(a.rows, w * per_warp), last = std::min<int64_t>(a.rows, first + per_warp);
    const int64_t panel = w * per_warp / t.panel_rows;
    const int64_t tiles =
        first < last ? t.tile_ptr[static_cast<size_t>(panel) + 1] - t.tile_ptr[static_cast<size_t>(panel)] : 0;
    int64_t longest = 0;
    for (int64_t r = first; r < last; ++r) {
      longest = std::max<int64_t>(longest, a.row_length(static_cast<int32_t>(r)));
      const int64_t sparse =
          tiles == 0 ? a.row_ptr[static_cast<size_t>(r)]
                     : t.segment_ends[static_cast<size_t>(
                           (t.tile_ptr[static_cast<size_t>(panel) + 1] - 1) * t.panel_rows + r % t.panel_rows)];
      work.ranges.push_back({w, sparse, a.row_ptr[static_cast<size_t>(r) + 1]});
    }
    work.steps.push_back(static_cast<double>(longest * c.runs() + tiles + (first < last ? 1 : 0)));
  }
}

std::vector<int32_t> all_rows(const CsrF64& a) {
  std::vector<int32_t> rows(static_cast<size_t>(a.rows));
  for (int32_t r = 0; r < a.rows; ++r) rows[static_cast<size_t>(r)] = r;
  return rows;
}

}  // namespace

WorkEstimate estimate_spmm(const CsrF64& a, const SpmmConfig& c, int32_t k, Dtype dtype) {
  WorkEstimate e;
  e.threads_per_block = c.block;
  WarpWork work;
  const double value_bytes = static_cast<double>(dtype_size(dtype));
  const double row_bytes = static_cast<double>(k) * value_bytes;
  double extra_bytes = 0;  // lists, zeroing, atomic read-modify-writes of C, staged tiles
  int64_t zeroed_rows = 0;
  const std::vector<int32_t>* cols = &a.col_idx;
  AsptTiling tiling;
  switch (c.schedule) {
    case SpmmSchedule::RowSplit:
      row_warps(a, c, all_rows(a), 0, work);
      break;
    case SpmmSchedule::NonzeroSplit: {
      segment_warps(a, c, work);
      zeroed_rows = static_cast<int64_t>(segment_start_rows(a, c.items).size());
      // A segment adds its first and last rows: at most two atomic row adds each.
      extra_bytes += 2.0 * static_cast<double>((a.rows + a.nnz() + c.items - 1) / c.items) * row_bytes;
      break;
    }
    case SpmmSchedule::HeavyLight: {
      const HeavyLightRows split = heavy_light_rows(a, c.threshold);
      row_warps(a, c, split.light, 0, work);
      chunk_warps(a, c, split, static_cast<int64_t>(work.steps.size()), work);
      zeroed_rows = static_cast<int64_t>(split.heavy.size());
      extra_bytes += static_cast<double>(split.light.size()) * 4 + static_cast<double>(split.chunks.size()) * 4 +
                     static_cast<double>(split.chunk_count()) * row_bytes;
      e.launches = split.heavy.empty() ? 1 : 2;
      break;
    }
    case SpmmSchedule::Aspt: {
      tiling = aspt_tiling(a, c.groups_per_block(), c.slots(dtype));
      aspt_warps(a, c, tiling, work);
      cols = &tiling.cols;
      const double lists = static_cast<double>(tiling.tile_ptr.size() + tiling.tile_col_ptr.size() +
                                               tiling.tile_cols.size() + tiling.segment_ends.size());
      extra_bytes += static_cast<double>(tiling.tile_cols.size()) * b_row_bytes(k, c, dtype) + lists * 4;
      break;
    }
  }
  if (zeroed_rows > 0) {
    extra_bytes += static_cast<double>(zeroed_rows) * (4 + row_bytes);
    ++e.launches;
  }
  const int64_t warps_per_block = c.block / kWarpSize;
  const int64_t tiles = c.k_tiles(k);
  e.blocks = static_cast<int64_t>(work.steps.size()) / warps_per_block * tiles;
  e.warp_work.reserve(work.steps.size() * static_cast<size_t>(tiles));
  for (int64_t t = 0; t < tiles; ++t) e.warp_work.insert(e.warp_work.end(), work.steps.begin(), work.steps.end());
  const double matrix_bytes = (a.rows + 1.0) * 4 + static_cast<double>(a.nnz()) * (4 + value_bytes);
  e.dram_bytes = matrix_bytes * static_cast<double>(tiles) +
                 gathered_b_bytes(a, *cols, work.ranges, b_row_bytes(k, c, dtype)) +
                 static_cast<double>(a.rows) * row_bytes + extra_bytes;
  return e;
}

}  // namespace ktune
