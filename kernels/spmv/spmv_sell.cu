// SELL-32 (spmv_sell_format.h): warp w walks slice w, lane l its row 32 w + l, one column of the
// slice per step. Each step's index and value loads are one whole, consecutive run for the warp
// and are used once, so they are streamed; the x gathers of 32 neighbouring rows fall on few
// lines. Padding (column -1) adds nothing. KT_BLOCK / 32 slices per block.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmv_sell(int rows, const int* __restrict__ slice_ptr, const int* __restrict__ col_idx,
          const value_t* __restrict__ values, const value_t* __restrict__ x,
          value_t* __restrict__ y) {
  const int row = blockIdx.x * KT_BLOCK + threadIdx.x;
  const int slice = row / 32;
  if (slice * 32 >= rows) return;  // the whole warp: its slice lies past the matrix
  const int end = slice_ptr[slice + 1];
  value_t sum = 0;
#pragma unroll 4
  for (int i = slice_ptr[slice] + threadIdx.x % 32; i < end; i += 32) {
    const int col = stream(col_idx + i);
    const value_t value = stream(values + i);
    if (col >= 0) sum += value * gather(x, col);
  }
  if (row < rows) y[row] = sum;
}
