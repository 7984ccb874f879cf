// Row-parallel: a group of KT_LANES threads per row of S holds a K tile of A's row in registers
// (sddmm_a_tile.cuh) and reuses it for every nonzero of the row, reading only B's rows. When K
// is longer than a tile, each pass over the row adds its share into c (the group owns the row's
// outputs: no atomics).
extern "C" __global__ void __launch_bounds__(KT_BLOCK, 1)
sddmm_row(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
          const value_t* __restrict__ a, const value_t* __restrict__ b, value_t* __restrict__ c) {
  const int row = blockIdx.x * (KT_BLOCK / KT_LANES) + threadIdx.x / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  if (row >= rows) return;  // whole groups: a group's lanes share its row
  const unsigned mask = group_mask();
  const int begin = row_ptr[row], end = row_ptr[row + 1];
#pragma unroll 1
  for (int pass = 0; pass < KT_PASSES; ++pass) {
    vec_t a_tile[KT_CHUNKS];
    load_a_tile(row_of(a, row), pass, lane, a_tile);
    for (int nz = begin; nz < end; ++nz) {
      const value_t sum = group_sum(tile_dot(a_tile, b_tile_of(b, col_idx[nz], pass), pass, lane), mask);
      if (lane == 0) store_pass(c, nz, sum, pass);
    }
  }
}
