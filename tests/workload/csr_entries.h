#pragma once
// A CSR matrix as a map (row, col) -> value, for comparing with independently built
// expectations; checks on the way that each row's columns are sorted.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>

#include "workload/csr_matrix.h"

namespace ktune::testing_support {

using Entries = std::map<std::pair<int, int>, double>;

inline Entries to_entries(const CsrF64& m) {
  Entries out;
  for (int r = 0; r < m.rows; ++r) {
    EXPECT_TRUE(std::is_sorted(m.col_idx.begin() + m.row_ptr[r], m.col_idx.begin() + m.row_ptr[r + 1]));
    for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) out[{r, m.col_idx[k]}] = m.values[k];
  }
  return out;
}

}  // namespace ktune::testing_support
