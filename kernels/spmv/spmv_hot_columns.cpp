#include "kernels/spmv/spmv_hot_columns.h"

#include <algorithm>
#include <numeric>

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

int64_t hot_column_count(const CsrF64& a, int64_t max_columns) {
  const std::vector<int64_t> length = column_lengths(a);
  const int64_t reused = std::count_if(length.begin(), length.end(), [](int64_t l) { return l >= 2; });
  return std::clamp<int64_t>(max_columns, 0, reused);
}

std::string hot_columns_refusal(const CsrF64& a) {
  return hot_column_count(a, 1) > 0 ? "" : "no column of the matrix holds two nonzeros: no entry of x is gathered twice, so none is worth a hot copy";
}

}  // namespace ktune
