#include "kernels/spmv/spmv_hot_columns.h"

#include <algorithm>

namespace ktune {

namespace {

std::vector<int64_t> column_lengths(const CsrF64& a) {
  std::vector<int64_t> length(static_cast<size_t>(a.cols), 0);
  for (int32_t c : a.col_idx) ++length[static_cast<size_t>(c)];
  return length;
}

}  // namespace

HotColumns hot_columns(const CsrF64& a, int64_t max_columns) {
  const std::vector<int64_t> length = column_lengths(a);
  std::vector<int32_t> reused;
  for (int32_t c = 0; c < a.cols; ++c)
    if (length[static_cast<size_t>(c)] >= 2) reused.push_back(c);
  const auto longer = [&](int32_t p, int32_t q) {
    const int64_t lp = length[static_cast<size_t>(p)], lq = length[static_cast<size_t>(q)];
    return lp != lq ? lp > lq : p < q;
  };
  const size_t kept = static_cast<size_t>(std::clamp<int64_t>(max_columns, 0, static_cast<int64_t>(reused.size())));
  std::partial_sort(reused.begin(), reused.begin() + static_cast<std::ptrdiff_t>(kept), reused.end(), longer);
  reused.resize(kept);

  HotColumns hot;
  hot.columns = std::move(reused);
  std::vector<int32_t> slot(static_cast<size_t>(a.cols), -1);
  for (size_t s = 0; s < hot.columns.size(); ++s) slot[static_cast<size_t>(hot.columns[s])] = static_cast<int32_t>(s);
  hot.col_idx = a.col_idx;
  for (int32_t& c : hot.col_idx)
    if (const int32_t s = slot[static_cast<size_t>(c)]; s >= 0) c = ~s;
  return hot;
}

// The tuner asks for this with every launch list and cost estimate of an adaptive_hot
// configuration, so it stops as soon as max_columns columns have been seen twice: a graph
// reaches that within its first few percent of nonzeros (a full count of R-MAT 22 took 0.5 s).
int64_t hot_column_count(const CsrF64& a, int64_t max_columns) {
  if (max_columns <= 0) return 0;
  std::vector<uint8_t> seen(static_cast<size_t>(a.cols), 0);  // 0, 1, or 2 for "twice or more"
  int64_t reused = 0;
  for (int32_t c : a.col_idx) {
    uint8_t& n = seen[static_cast<size_t>(c)];
    if (n < 2 && ++n == 2 && ++reused == max_columns) break;
  }
  return reused;
}

std::string hot_columns_refusal(const CsrF64& a) {
  return hot_column_count(a, 1) > 0 ? "" : "no column of the matrix holds two nonzeros: no entry of x is gathered twice, so none is worth a hot copy";
}

}  // namespace ktune
