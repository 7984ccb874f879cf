// The first launch of a schedule that adds into y with atomicAdd (merge: a row split between
// tiles; adaptive: a long row's slices): y[rows[i]] = 0 for the rows it adds into. Every other
// row is stored once by the matrix kernel, so y needs no zeroing as a whole: the user's y is
// used as it is, and the time of this launch counts in the measurement like the others'.
// Its block size is fixed (spmv_family.cpp launches it with the same constant).
#define KT_ZERO_BLOCK 256

extern "C" __global__ void __launch_bounds__(KT_ZERO_BLOCK)
spmv_zero_rows(int n, const int* __restrict__ rows, value_t* __restrict__ y) {
  const int i = blockIdx.x * KT_ZERO_BLOCK + threadIdx.x;
  if (i < n) y[rows[i]] = value_t(0);
}
