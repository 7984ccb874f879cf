// An operand copied into the form the wgmma kernels read (gemm_staging.h): `rows` rows of `kp`
// elements a batch, k-major, the columns from k on zeros. The source holds `rows` x k
// (k contiguous, `transposed` 0) or k x `rows` (rows contiguous, 1), batches one after
// another, in 16-bit elements. A 64 x 64 tile passes through shared memory, so that each side
// is read or written along its contiguous dimension whichever way the source lies, two
// elements a thread at a time: 32-bit loads where the source's contiguous extent is even (every
// pair then starts 4-byte aligned), two 16-bit ones where it is odd, and 32-bit stores always
// (kp is even). A warp's 16-bit accesses move 64 bytes a request: a 32 x 32 tile of them copied
// at 1.6 TB/s on an H200, under half its copy rate. Grid: (kp / 64, rows / 64, batch) rounded
// up; blocks of 32 x 8 threads.
#define KT_STAGE_TILE 64

__device__ __forceinline__ unsigned kt_stage_pair(const KT_IN* p, bool aligned, bool second) {
  if (aligned) return *reinterpret_cast<const unsigned*>(p);
  return (unsigned)p[0] | (second ? (unsigned)p[1] << 16 : 0u);
}

extern "C" __global__ void __launch_bounds__(256)
    gemm_stage_k_major(const KT_IN* __restrict__ src, KT_IN* __restrict__ dst, int rows, int k, int kp,
                       int transposed) {
  static_assert(sizeof(KT_IN) == 2, "staging moves 16-bit elements in pairs");
  // [row][k], rows of 66: 4-byte aligned pairs, a row's pairs in consecutive banks.
  __shared__ __align__(4) KT_IN tile[KT_STAGE_TILE][KT_STAGE_TILE + 2];
  const long long batch = blockIdx.z;
  const int r0 = blockIdx.y * KT_STAGE_TILE, k0 = blockIdx.x * KT_STAGE_TILE, pair = 2 * threadIdx.x;
  const KT_IN* from = src + batch * rows * k;
  if (transposed) {  // a pair of rows at one k
    const bool aligned = rows % 2 == 0;
#pragma unroll
    for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8) {
      const int kk = k0 + i, r = r0 + pair;
      const unsigned w = kk < k && r < rows ? kt_stage_pair(from + (long long)kk * rows + r, aligned, r + 1 < rows) : 0u;
      tile[pair][i] = (KT_IN)(w & 0xFFFF);
      tile[pair + 1][i] = (KT_IN)(w >> 16);
    }
  } else {  // a pair of k at one row
    const bool aligned = k % 2 == 0;
#pragma unroll
    for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8) {
      const int r = r0 + i, kk = k0 + pair;
      *reinterpret_cast<unsigned*>(&tile[i][pair]) =
          r < rows && kk < k ? kt_stage_pair(from + (long long)r * k + kk, aligned, kk + 1 < k) : 0u;
    }
  }
  __syncthreads();
  KT_IN* to = dst + batch * rows * kp;
#pragma unroll
  for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8) {
    const int r = r0 + i, kk = k0 + pair;
    if (r < rows && kk < kp)
      *reinterpret_cast<unsigned*>(to + (long long)r * kp + kk) = *reinterpret_cast<const unsigned*>(&tile[i][pair]);
  }
}
