// One thread per row (CSR-scalar): no inter-thread communication, best when rows are short and
// of similar length. Unrolling keeps several index/value/x loads of a row in flight.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmv_row(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
         const value_t* __restrict__ values, const value_t* __restrict__ x,
         value_t* __restrict__ y) {
  const int row = blockIdx.x * KT_BLOCK + threadIdx.x;
  if (row >= rows) return;
  const int end = row_ptr[row + 1];
  value_t sum = 0;
#pragma unroll 4
  for (int i = row_ptr[row]; i < end; ++i) sum += values[i] * gather(x, col_idx[i]);
  y[row] = sum;
}
