// An operand copied into the form the wgmma kernels read (gemm_staging.h): `rows` rows of `kp`
// elements a batch, k-major, the columns from k on zeros. The source holds `rows` x k
// (k contiguous, `transposed` 0) or k x `rows` (rows contiguous, 1), batches one after
// another. A 32 x 32 tile passes through shared memory, so that each side is read or written
// along its contiguous dimension whichever way the source lies. Grid: (kp / 32, rows / 32,
// batch) rounded up; blocks of 32 x 8 threads.
extern "C" __global__ void __launch_bounds__(256)
    gemm_stage_k_major(const KT_IN* __restrict__ src, KT_IN* __restrict__ dst, int rows, int k, int kp,
                       int transposed) {
  __shared__ KT_IN tile[32][33];  // [row][k], a column of padding against bank conflicts
  const long long batch = blockIdx.z;
  const int r0 = blockIdx.y * 32, k0 = blockIdx.x * 32, tx = threadIdx.x;
  const KT_IN* from = src + batch * rows * k;
  for (int i = threadIdx.y; i < 32; i += 8) {
    if (transposed) {
      const int kk = k0 + i, r = r0 + tx;
      tile[tx][i] = kk < k && r < rows ? from[(long long)kk * rows + r] : (KT_IN)0;
    } else {
      const int r = r0 + i, kk = k0 + tx;
      tile[i][tx] = kk < k && r < rows ? from[(long long)r * k + kk] : (KT_IN)0;
    }
  }
  __syncthreads();
  KT_IN* to = dst + batch * rows * kp;
  for (int i = threadIdx.y; i < 32; i += 8) {
    const int r = r0 + i, kk = k0 + tx;
    if (r < rows && kk < kp) to[(long long)r * kp + kk] = tile[i][tx];
  }
}
