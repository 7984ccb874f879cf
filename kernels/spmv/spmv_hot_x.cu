// adaptive_hot's first launch: the x of the matrix's hot columns (spmv_hot_columns.h) into one
// dense array, x_hot[s] = x[hot_cols[s]], which the adaptive kernel then reads through L1.
// Its block size is fixed (spmv_family.cpp launches it with the same constant).
#define KT_HOT_GATHER_BLOCK 256

extern "C" __global__ void __launch_bounds__(KT_HOT_GATHER_BLOCK)
spmv_gather_hot_x(int hot, const int* __restrict__ hot_cols, const value_t* __restrict__ x,
                  value_t* __restrict__ x_hot) {
  const int s = blockIdx.x * KT_HOT_GATHER_BLOCK + threadIdx.x;
  if (s < hot) x_hot[s] = gather(x, hot_cols[s]);
}
