#include "kernels/spmm/spmm_checked_rows.h"

#include <algorithm>
#include <numeric>

namespace ktune {

std::vector<int32_t> spmm_checked_rows(const CsrF64& a, int32_t k, size_t whole_limit, int32_t count) {
  if (static_cast<size_t>(a.rows) * static_cast<size_t>(k) <= whole_limit || a.rows <= count) return {};
  std::vector<int32_t> rows(static_cast<size_t>(a.rows));
  std::iota(rows.begin(), rows.end(), 0);
  // A sixteenth of the sample: the longest rows, ties to the lower index (deterministic).
  const size_t longest = static_cast<size_t>(std::max(1, count / 16));
  std::nth_element(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(longest), rows.end(),
                   [&a](int32_t x, int32_t y) {
                     const int32_t lx = a.row_length(x), ly = a.row_length(y);
                     return lx != ly ? lx > ly : x < y;
                   });
  std::vector<int32_t> chosen(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(longest));
  // The rest evenly spaced from the first row to the last.
  const int64_t spread = count - static_cast<int64_t>(longest);
  for (int64_t i = 0; i < spread; ++i)
    chosen.push_back(static_cast<int32_t>(i * (static_cast<int64_t>(a.rows) - 1) / std::max<int64_t>(1, spread - 1)));
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  return chosen;
}

std::vector<std::pair<size_t, size_t>> spmm_row_ranges(const std::vector<int32_t>& rows, int32_t k) {
  std::vector<std::pair<size_t, size_t>> ranges;
  const size_t width = static_cast<size_t>(k);
  for (int32_t r : rows) {
    const size_t first = static_cast<size_t>(r) * width;
    if (!ranges.empty() && ranges.back().second == first)
      ranges.back().second += width;
    else
      ranges.emplace_back(first, first + width);
  }
  return ranges;
}

}  // namespace ktune
