#pragma once
// Which rows of C the check reads when C is too large to read back and check whole: the
// Laplacian 2048² at K = 512 in f64 is 17 GB, and its CPU reference would be as large. A row
// of C is right or wrong as a whole (one row of A times B), so the check reads whole rows: the
// longest (where the split and atomic schedules part from the row schedule), the first and the
// last, and rows spread evenly between.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// C is checked whole up to this many elements (32 MB of reference doubles).
constexpr size_t kSpmmWholeCheckElements = size_t{1} << 22;
constexpr int32_t kSpmmCheckedRows = 4096;

// The checked rows, ascending and distinct; empty when rows x k is at most `whole_limit`
// (every row is checked) or the matrix has at most `count` rows.
std::vector<int32_t> spmm_checked_rows(const CsrF64& a, int32_t k, size_t whole_limit = kSpmmWholeCheckElements,
                                       int32_t count = kSpmmCheckedRows);

// The element ranges of C (row-major, k columns) those rows cover, adjacent rows merged.
std::vector<std::pair<size_t, size_t>> spmm_row_ranges(const std::vector<int32_t>& rows, int32_t k);

}  // namespace ktune
