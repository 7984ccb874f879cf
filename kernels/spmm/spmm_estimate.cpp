#include "kernels/spmm/spmm_estimate.h"

#include <algorithm>
#include <memory>
#include <string>

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

// What the matrix kernels' warps do: loop steps of their slowest lane, and, when `ranges` is
// set, the nonzeros each reads (only the gathers' count needs them: an estimate takes that count
// from the workload's cache, spmm_gathers below).
struct WarpWork {
  std::vector<float> steps;
  std::vector<WarpRange>* ranges = nullptr;
  void read(int64_t warp, int64_t begin, int64_t end) const {
    if (ranges) ranges->push_back({warp, begin, end});
  }
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

// The rows of B the warps gather: each warp reads the rows its nonzeros name (`cols`, A's
// columns in the kernel's order), a row it names twice once. A row two warps share counts
// twice; whether L2 catches that reuse is the model's business.
double gathered_rows(const CsrF64& a, const std::vector<int32_t>& cols, const std::vector<WarpRange>& ranges) {
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
  return static_cast<double>(rows_read);
}

// Groups of whole rows (row_split, heavy_light's light rows): warp w holds rows
// rows[w * g .. (w + 1) * g) of the list (of every row when `rows` is null), g = 32 / lanes,
// and loops over the longest of them.
void row_warps(const CsrF64& a, const SpmmConfig& c, const std::vector<int32_t>* rows, int64_t warp_base,
               WarpWork& work) {
  const int64_t per_warp = kWarpSize / c.lanes;
  const int64_t count = rows ? static_cast<int64_t>(rows->size()) : a.rows;
  const int64_t warps = c.blocks_for(count) * c.block / kWarpSize;
  for (int64_t w = 0; w < warps; ++w) {
    int64_t longest = 0;
    const int64_t first = std::min(count, w * per_warp);
    const int64_t last = std::min(count, first + per_warp);
    for (int64_t i = first; i < last; ++i) {
      const int32_t r = rows ? (*rows)[static_cast<size_t>(i)] : static_cast<int32_t>(i);
      longest = std::max<int64_t>(longest, a.row_length(r));
      work.read(warp_base + w, a.row_ptr[r], a.row_ptr[r + 1]);
    }
    work.steps.push_back(static_cast<float>(longest * c.runs() + (first < last ? 1 : 0)));
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
      work.read(warp_base + w, begin, end);
    }
    work.steps.push_back(static_cast<float>(longest * c.runs() + (longest > 0 ? 1 : 0)));
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
    work.steps.push_back(static_cast<float>(std::min<int64_t>(c.items, last - first) * c.runs()));
    if (work.ranges) work.read(w, first - merge_path_row(a, first), last - merge_path_row(a, last));
  }
}

// What an estimate needs of ASpT's tiling (which itself holds a column list as long as A's).
struct AsptCounts {
  std::vector<int32_t> tile_ptr;  // panel p's dense tiles are [tile_ptr[p], tile_ptr[p + 1])
  double tile_cols = 0;           // columns staged, over every tile
  double lists = 0;               // entries of the tiling's lists the kernel reads
};

// aspt: warps of groups a row as row_split, and first every tile of their panel (staged by the
// whole block); the gathers from global memory are the sparse rests' alone (`tiling` gives
// where they start; without it no ranges are recorded).
void aspt_warps(const CsrF64& a, const SpmmConfig& c, const std::vector<int32_t>& tile_ptr, const AsptTiling* tiling,
                WarpWork& work) {
  const int64_t per_warp = kWarpSize / c.lanes;
  const int64_t panel_rows = c.groups_per_block();
  const int64_t warps = c.blocks_for(a.rows) * c.block / kWarpSize;
  for (int64_t w = 0; w < warps; ++w) {
    const int64_t first = std::min<int64_t>(a.rows, w * per_warp), last = std::min<int64_t>(a.rows, first + per_warp);
    const int64_t panel = w * per_warp / panel_rows;
    const int64_t tiles =
        first < last ? tile_ptr[static_cast<size_t>(panel) + 1] - tile_ptr[static_cast<size_t>(panel)] : 0;
    int64_t longest = 0;
    for (int64_t r = first; r < last; ++r) {
      longest = std::max<int64_t>(longest, a.row_length(static_cast<int32_t>(r)));
      if (!tiling) continue;
      const int64_t sparse = tiles == 0 ? a.row_ptr[static_cast<size_t>(r)]
                                        : tiling->segment_ends[static_cast<size_t>(
                                              (tile_ptr[static_cast<size_t>(panel) + 1] - 1) * panel_rows + r % panel_rows)];
      work.read(w, sparse, a.row_ptr[static_cast<size_t>(r) + 1]);
    }
    work.steps.push_back(static_cast<float>(longest * c.runs() + tiles + (first < last ? 1 : 0)));
  }
}

std::shared_ptr<const HeavyLightRows> split_of(const Workload& w, int32_t threshold) {
  return w.derived.get<HeavyLightRows>("spmm.split " + std::to_string(threshold),
                                       [&] { return heavy_light_rows(w.matrix, threshold); });
}

// The grouping of a configuration: what decides which nonzeros each warp reads, and nothing of
// its K tiling or vector width.
std::string grouping_key(const SpmmConfig& c, Dtype dtype) {
  std::string key = "schedule=" + c.schedule_name() + ";lanes=" + std::to_string(c.lanes);
  switch (c.schedule) {
    case SpmmSchedule::RowSplit: break;
    case SpmmSchedule::NonzeroSplit: key += ";items=" + std::to_string(c.items); break;
    case SpmmSchedule::HeavyLight: key += ";threshold=" + std::to_string(c.threshold); break;
    case SpmmSchedule::Aspt:
      key += ";panel=" + std::to_string(c.groups_per_block()) + ";slots=" + std::to_string(c.slots(dtype));
      break;
  }
  return key;
}

// Rows of B the configuration's warps gather, once per workload and grouping: counting them
// walks every nonzero, and a tune's first model estimates thousands of configurations.
double spmm_gathers(const Workload& w, const SpmmConfig& c, Dtype dtype) {
  return *w.derived.get<double>("spmm.gathers " + grouping_key(c, dtype), [&] {
    const CsrF64& a = w.matrix;
    std::vector<WarpRange> ranges;
    WarpWork work;
    work.ranges = &ranges;
    switch (c.schedule) {
      case SpmmSchedule::RowSplit: row_warps(a, c, nullptr, 0, work); break;
      case SpmmSchedule::NonzeroSplit: segment_warps(a, c, work); break;
      case SpmmSchedule::HeavyLight: {
        const std::shared_ptr<const HeavyLightRows> split = split_of(w, c.threshold);
        row_warps(a, c, &split->light, 0, work);
        chunk_warps(a, c, *split, static_cast<int64_t>(work.steps.size()), work);
        break;
      }
      case SpmmSchedule::Aspt: {
        const AsptTiling tiling = aspt_tiling(a, c.groups_per_block(), c.slots(dtype));
        aspt_warps(a, c, tiling.tile_ptr, &tiling, work);
        return gathered_rows(a, tiling.cols, ranges);
      }
    }
    return gathered_rows(a, a.col_idx, ranges);
  });
}

std::shared_ptr<const AsptCounts> aspt_counts(const Workload& w, const SpmmConfig& c, Dtype dtype) {
  return w.derived.get<AsptCounts>(
      "spmm.aspt panel=" + std::to_string(c.groups_per_block()) + ";slots=" + std::to_string(c.slots(dtype)), [&] {
        const AsptTiling t = aspt_tiling(w.matrix, c.groups_per_block(), c.slots(dtype));
        AsptCounts counts;
        counts.tile_ptr = t.tile_ptr;
        counts.tile_cols = static_cast<double>(t.tile_cols.size());
        counts.lists =
            static_cast<double>(t.tile_ptr.size() + t.tile_col_ptr.size() + t.tile_cols.size() + t.segment_ends.size());
        return counts;
      });
}

}  // namespace

WorkEstimate estimate_spmm(const Workload& w, const SpmmConfig& c, int32_t k, Dtype dtype) {
  const CsrF64& a = w.matrix;
  WorkEstimate e;
  e.threads_per_block = c.block;
  WarpWork work;
  const double value_bytes = static_cast<double>(dtype_size(dtype));
  const double row_bytes = static_cast<double>(k) * value_bytes;
  double extra_bytes = 0;  // lists, zeroing, atomic read-modify-writes of C, staged tiles
  int64_t zeroed_rows = 0;
  switch (c.schedule) {
    case SpmmSchedule::RowSplit:
      row_warps(a, c, nullptr, 0, work);
      break;
    case SpmmSchedule::NonzeroSplit: {
      segment_warps(a, c, work);
      zeroed_rows = *w.derived.get<int64_t>("spmm.segment_starts " + std::to_string(c.items), [&] {
        return static_cast<int64_t>(segment_start_rows(a, c.items).size());
      });
      // A segment adds its first and last rows: at most two atomic row adds each.
      extra_bytes += 2.0 * static_cast<double>((a.rows + a.nnz() + c.items - 1) / c.items) * row_bytes;
      break;
    }
    case SpmmSchedule::HeavyLight: {
      const std::shared_ptr<const HeavyLightRows> split = split_of(w, c.threshold);
      row_warps(a, c, &split->light, 0, work);
      chunk_warps(a, c, *split, static_cast<int64_t>(work.steps.size()), work);
      zeroed_rows = static_cast<int64_t>(split->heavy.size());
      extra_bytes += static_cast<double>(split->light.size()) * 4 + static_cast<double>(split->chunks.size()) * 4 +
                     static_cast<double>(split->chunk_count()) * row_bytes;
      e.launches = split->heavy.empty() ? 1 : 2;
      break;
    }
    case SpmmSchedule::Aspt: {
      const std::shared_ptr<const AsptCounts> tiling = aspt_counts(w, c, dtype);
      aspt_warps(a, c, tiling->tile_ptr, nullptr, work);
      extra_bytes += tiling->tile_cols * b_row_bytes(k, c, dtype) + tiling->lists * 4;
      break;
    }
  }
  if (zeroed_rows > 0) {
    extra_bytes += static_cast<double>(zeroed_rows) * (4 + row_bytes);
    ++e.launches;
  }
  const int64_t warps_per_block = c.block / kWarpSize;
  const int64_t tiles = c.k_tiles(k);
  // The grid's y covers K in tiles: every tile runs the same warps again.
  e.blocks = static_cast<int64_t>(work.steps.size()) / warps_per_block * tiles;
  e.warp_work = std::move(work.steps);
  e.warp_work_repeats = tiles;
  const double matrix_bytes = (a.rows + 1.0) * 4 + static_cast<double>(a.nnz()) * (4 + value_bytes);
  e.dram_bytes = matrix_bytes * static_cast<double>(tiles) + spmm_gathers(w, c, dtype) * b_row_bytes(k, c, dtype) +
                 static_cast<double>(a.rows) * row_bytes + extra_bytes;
  return e;
}

}  // namespace ktune
