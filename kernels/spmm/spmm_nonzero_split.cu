// Nonzero split, by merge path (Merrill & Garland, SC'16): the rows + nnz merge items (a row end
// each, a nonzero each) in segments of `items`, one per group of KT_LANES threads, so every group
// walks as many items whatever the row lengths. A group finds where its segment starts by a
// binary search of the row ends (the whole group searches alike: its loads are one), then sums
// each row's products in registers as it walks. A row begun and ended in the segment is stored;
// the row the segment begins in (perhaps begun by the segment before) and the one it ends in
// (continued by the next) are added into C atomically, and the plan's first launch zeroes
// exactly those rows (spmm_zero_rows). `items` is an argument, not a -D constant: it bounds a
// loop whose steps branch on the data anyway, and every segment length shares one kernel.
struct MergeCoord {
  int row;  // row ends consumed before this point of the path
  int nz;   // nonzeros consumed before it
};

// Where diagonal `diag` crosses the merge of the row ends with the nonzero indices 0, 1, ...: a
// row end goes before nonzero k exactly when row_end <= k, i.e. after every nonzero of its row.
__device__ __forceinline__ MergeCoord merge_path_search(long long diag, const int* __restrict__ row_end, int rows,
                                                        int nnz) {
  long long lo = max(diag - nnz, 0LL);
  long long hi = min(diag, (long long)rows);
  while (lo < hi) {
    const long long mid = (lo + hi) / 2;
    if (row_end[mid] <= diag - mid - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return {(int)lo, (int)(diag - lo)};
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmm_nonzero_split(int rows, int nnz, int items, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                   const value_t* __restrict__ values, const value_t* __restrict__ b, value_t* __restrict__ c) {
  const long long path = (long long)rows + nnz;
  const long long diag = group_index() * items;
  if (diag >= path) return;
  const int lane = threadIdx.x % KT_LANES;
  const int k0 = blockIdx.y * KT_K_TILE;
  const MergeCoord start = merge_path_search(diag, row_ptr + 1, rows, nnz);
  const int walked = (int)min((long long)items, path - diag);
  int row = start.row, nz = start.nz;
  int row_end = row_ptr[row + 1];  // the path holds an item, so a row end is still to come
  bool first = true;               // the row the segment begins in
  bool open = false;               // products of `row` not yet in C
  RowSlice s;
  clear(s);
  for (int item = 0; item < walked; ++item) {
    if (row_end <= nz) {
      if (first) {
        add_row(s, c, row, k0, lane);
      } else {
        store_row(s, c, row, k0, lane);
      }
      first = open = false;
      clear(s);
      if (++row < rows) row_end = row_ptr[row + 1];
    } else {
      add_product(s, values[nz], col_idx[nz], b, k0, lane);
      ++nz;
      open = true;
    }
  }
  if (open) add_row(s, c, row, k0, lane);  // the row the next segment continues
}
