// KT_LANES threads per row (CSR-vector): the lanes of a row read its indices and values
// coalesced, then combine their partial sums with shuffles. KT_BLOCK / KT_LANES rows per block.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmv_subwarp(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
             const value_t* __restrict__ values, const value_t* __restrict__ x,
             value_t* __restrict__ y) {
  const int row = blockIdx.x * (KT_BLOCK / KT_LANES) + threadIdx.x / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  // Lanes past the last row stay (with an empty range) so that every shuffle sees a full warp.
  const bool live = row < rows;
  const int begin = live ? row_ptr[row] : 0;
  const int end = live ? row_ptr[row + 1] : 0;
  value_t sum = 0;
#pragma unroll 4
  for (int i = begin + lane; i < end; i += KT_LANES) sum += values[i] * gather(x, col_idx[i]);
#pragma unroll
  for (int offset = KT_LANES / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset, KT_LANES);
  }
  if (live && lane == 0) y[row] = sum;
}
