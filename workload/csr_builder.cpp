#include "workload/csr_builder.h"

#include <algorithm>
#include <limits>
#include <string>

#include "workload/input_error.h"
#include "workload/parallel.h"

namespace ktune {
namespace {

constexpr int64_t kMaxEntries = std::numeric_limits<int32_t>::max();

struct RowScratch {
  std::vector<uint64_t> keys;
  std::vector<double> values;
};

// Sorts one row by column, keeping equal columns in input order, and merges them in place;
// returns the merged length. Sorting (column, position) keys keeps the order without a
// stable sort's buffers.
int32_t sort_and_merge_row(int32_t* col, double* value, int32_t length, Duplicates duplicates,
                           RowScratch& scratch) {
  if (!std::is_sorted(col, col + length)) {
    scratch.keys.resize(static_cast<size_t>(length));
    for (int32_t k = 0; k < length; ++k) {
      scratch.keys[k] = (static_cast<uint64_t>(col[k]) << 32) | static_cast<uint32_t>(k);
    }
    std::sort(scratch.keys.begin(), scratch.keys.end());
    scratch.values.assign(value, value + length);
    for (int32_t k = 0; k < length; ++k) {
      col[k] = static_cast<int32_t>(scratch.keys[k] >> 32);
      value[k] = scratch.values[static_cast<uint32_t>(scratch.keys[k])];
    }
  }
  int32_t kept = 0;
  for (int32_t k = 0; k < length; ++k) {
    if (kept > 0 && col[kept - 1] == col[k]) {
      if (duplicates == Duplicates::Sum) value[kept - 1] += value[k];
      continue;
    }
    col[kept] = col[k];
    value[kept] = value[k];
    ++kept;
  }
  return kept;
}

}  // namespace

CsrF64 build_csr(int32_t rows, int32_t cols, std::vector<CooPart> parts, Mirror mirror,
                 Duplicates duplicates) {
  int64_t stored = 0;
  for (const auto& part : parts) stored += static_cast<int64_t>(part.size());
  if (mirrored_entry_bound(stored, mirror) > kMaxEntries) {
    throw LimitError("the matrix would hold up to " +
                     std::to_string(mirrored_entry_bound(stored, mirror)) +
                     " entries, more than the 2^31-1 that 32-bit row pointers can address");
  }
  const bool mirrored = mirror != Mirror::None;
  const double mirror_sign = mirror == Mirror::SkewSymmetric ? -1.0 : 1.0;

  // Counting sort with one thread per group of consecutive parts: each group counts its own
  // entries per row and writes them after those of the groups before it, so rows keep the
  // input order. A group's per-row counters cost as much memory as `rows` entries, so there
  // are only as many groups as that pays for (one, for a tall matrix with few entries).
  const int groups = static_cast<int>(std::clamp<int64_t>(stored / std::max<int64_t>(rows, 1), 1,
                                                          std::max<size_t>(parts.size(), 1)));
  const auto parts_of = [&](int g) {
    const auto n = static_cast<int64_t>(parts.size());
    return std::make_pair(part_begin(n, groups, g), part_begin(n, groups, g + 1));
  };
  std::vector<std::vector<int32_t>> cursor(static_cast<size_t>(groups));
  parallel_for(groups, groups, [&](int g) {
    cursor[g].assign(static_cast<size_t>(rows), 0);
    const auto [first, last] = parts_of(g);
    for (int64_t p = first; p < last; ++p) {
      const CooPart& part = parts[p];
      for (size_t k = 0; k < part.size(); ++k) {
        ++cursor[g][part.row[k]];
        if (mirrored && part.row[k] != part.col[k]) ++cursor[g][part.col[k]];
      }
    }
  });
  CsrF64 out;
  out.rows = rows;
  out.cols = cols;
  out.row_ptr.assign(static_cast<size_t>(rows) + 1, 0);
  int32_t total = 0;
  for (int32_t r = 0; r < rows; ++r) {
    out.row_ptr[r] = total;
    for (auto& counts : cursor) {
      const int32_t count = counts[r];
      counts[r] = total;  // becomes this group's first slot in row r
      total += count;
    }
  }
  out.row_ptr[rows] = total;
  out.col_idx.resize(static_cast<size_t>(total));
  out.values.resize(out.col_idx.size());
  parallel_for(groups, groups, [&](int g) {
    std::vector<int32_t>& next = cursor[g];
    const auto [first, last] = parts_of(g);
    for (int64_t p = first; p < last; ++p) {
      CooPart& part = parts[p];
      for (size_t k = 0; k < part.size(); ++k) {
        const int32_t r = part.row[k];
        const int32_t c = part.col[k];
        const int32_t at = next[r]++;
        out.col_idx[at] = c;
        out.values[at] = part.value[k];
        if (mirrored && r != c) {
          const int32_t mirror_at = next[c]++;
          out.col_idx[mirror_at] = r;
          out.values[mirror_at] = mirror_sign * part.value[k];
        }
      }
      part = CooPart{};
    }
    next = {};
  });

  // Rows are sorted and merged in place on several threads; only if some row lost entries
  // does a (sequential, streaming) compaction follow.
  std::vector<int32_t> merged_length(static_cast<size_t>(rows));
  const int threads = worker_count(out.nnz(), 1 << 20);
  parallel_for(threads, threads, [&](int t) {
    RowScratch scratch;
    const auto first = static_cast<int32_t>(part_begin(rows, threads, t));
    const auto last = static_cast<int32_t>(part_begin(rows, threads, t + 1));
    for (int32_t r = first; r < last; ++r) {
      const int32_t begin = out.row_ptr[r];
      merged_length[r] = sort_and_merge_row(out.col_idx.data() + begin, out.values.data() + begin,
                                            out.row_ptr[r + 1] - begin, duplicates, scratch);
    }
  });
  int32_t write = 0;
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t begin = out.row_ptr[r];
    if (write != begin) {
      std::copy_n(out.col_idx.begin() + begin, merged_length[r], out.col_idx.begin() + write);
      std::copy_n(out.values.begin() + begin, merged_length[r], out.values.begin() + write);
    }
    out.row_ptr[r] = write;
    write += merged_length[r];
  }
  out.row_ptr[rows] = write;
  out.col_idx.resize(static_cast<size_t>(write));
  out.values.resize(static_cast<size_t>(write));
  return out;
}

}  // namespace ktune
