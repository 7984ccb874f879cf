// An operand copied into the form the wgmma kernels read (gemm_staging.h): `rows` rows of `kp`
// elements a batch, k-major, the columns from k on zeros. The source holds `rows` x k
// (k contiguous, `transposed` 0) or k x `rows` (rows contiguous, 1), batches one after
// another. A 64 x 64 tile passes through shared memory, so that each side is read or written
// along its contiguous dimension whichever way the source lies; each thread keeps 16 loads in
// flight (a 32 x 32 tile of 4 a thread copied at 1.6 TB/s on an H200, under half its copy
// rate). Grid: (kp / 64, rows / 64, batch) rounded up; blocks of 32 x 8 threads.
#define KT_STAGE_TILE 64

extern "C" __global__ void __launch_bounds__(256)
    gemm_stage_k_major(const KT_IN* __restrict__ src, KT_IN* __restrict__ dst, int rows, int k, int kp,
                       int transposed) {
  __shared__ KT_IN tile[KT_STAGE_TILE][KT_STAGE_TILE + 1];  // [row][k], padded against bank conflicts
  const long long batch = blockIdx.z;
  const int r0 = blockIdx.y * KT_STAGE_TILE, k0 = blockIdx.x * KT_STAGE_TILE;
  const KT_IN* from = src + batch * rows * k;
  if (transposed) {
#pragma unroll
    for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8)
#pragma unroll
      for (int c = threadIdx.x; c < KT_STAGE_TILE; c += 32) {
        const int kk = k0 + i, r = r0 + c;
        tile[c][i] = kk < k && r < rows ? from[(long long)kk * rows + r] : (KT_IN)0;
      }
  } else {
#pragma unroll
    for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8)
#pragma unroll
      for (int c = threadIdx.x; c < KT_STAGE_TILE; c += 32) {
        const int r = r0 + i, kk = k0 + c;
        tile[i][c] = kk < k && r < rows ? from[(long long)r * k + kk] : (KT_IN)0;
      }
  }
  __syncthreads();
  KT_IN* to = dst + batch * rows * kp;
#pragma unroll
  for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8)
#pragma unroll
    for (int c = threadIdx.x; c < KT_STAGE_TILE; c += 32) {
      const int r = r0 + i, kk = k0 + c;
      if (r < rows && kk < kp) to[(long long)r * kp + kk] = tile[i][c];
    }
}
