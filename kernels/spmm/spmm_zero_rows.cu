// The first launch of a plan that adds into rows of C atomically (the nonzero split's segment
// boundaries, heavy_light's heavy rows): C[rows[i]][:] = 0 for those `count` rows. Every other
// row the matrix kernels store once, so C needs no zeroing as a whole: the user's C is used as it
// is, and this launch's time counts in the measurement like the others'.
// Its block size is fixed (spmm_family.cpp launches it with the same constant).
#define KT_ZERO_BLOCK 256

extern "C" __global__ void __launch_bounds__(KT_ZERO_BLOCK)
spmm_zero_rows(int count, const int* __restrict__ rows, value_t* __restrict__ c) {
  const long long i = (long long)blockIdx.x * KT_ZERO_BLOCK + threadIdx.x;
  if (i < (long long)count * KT_K) c[(long long)rows[i / KT_K] * KT_K + i % KT_K] = value_t(0);
}
