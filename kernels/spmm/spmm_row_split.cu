// Row split: a group of KT_LANES threads per row, KT_BLOCK / KT_LANES rows a block (several a
// warp below 32 lanes, a warp a row at 32), C's columns in slices of KT_K_TILE along the grid's
// y. Lanes split K, not the row's nonzeros: a row needs no reduction between lanes, and a lane
// multiplies each nonzero into all its runs (RS-SpMM's coarsening along K, digest-000 §4.4).
// Rows of very different lengths leave a group's warp waiting on its longest: the nonzero
// split and heavy_light schedules are for those.
__device__ __forceinline__ void row_product(int row, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                            const value_t* __restrict__ values, const value_t* __restrict__ b,
                                            value_t* __restrict__ c) {
  const int lane = threadIdx.x % KT_LANES;
  const int k0 = blockIdx.y * KT_K_TILE;
  const int end = row_ptr[row + 1];
  RowSlice s;
  clear(s);
#pragma unroll 2
  for (int i = row_ptr[row]; i < end; ++i) add_product(s, values[i], col_idx[i], b, k0, lane);
  store_row(s, c, row, k0, lane);
}

#ifdef KT_ROW_LIST
// heavy_light's light rows: the `count` rows of row_list.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmm_light_rows(int count, const int* __restrict__ row_list, const int* __restrict__ row_ptr,
                const int* __restrict__ col_idx, const value_t* __restrict__ values, const value_t* __restrict__ b,
                value_t* __restrict__ c) {
  const long long i = group_index();
  if (i < count) row_product(row_list[i], row_ptr, col_idx, values, b, c);
}
#else
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmm_row_split(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
               const value_t* __restrict__ values, const value_t* __restrict__ b, value_t* __restrict__ c) {
  const long long row = group_index();
  if (row < rows) row_product((int)row, row_ptr, col_idx, values, b, c);
}
#endif
