// An operand copied into the form the wgmma kernels read (gemm_staging.h): `rows` rows of `kp`
// elements a batch, k-major, the columns from k on zeros. The source holds `rows` x k
// (k contiguous, `transposed` 0) or k x `rows` (rows contiguous, 1), batches one after
// another. A 64 x 64 tile passes through shared memory, so that each side is read or written
// along its contiguous dimension whichever way the source lies. 16-bit elements go two a thread
// at a time: 32-bit loads where the source's contiguous extent is even (every pair then starts
// 4-byte aligned), two 16-bit ones where it is odd, and 32-bit stores always (kp is even). A
// warp's 16-bit accesses move 64 bytes a request: a 32 x 32 tile of them copied at 1.6 TB/s on an
// H200, under half its copy rate. 32-bit elements (tf32) go one a load, a warp's 32 neighbours
// at a time. Grid: (kp / 64, rows / 64, batch) rounded up; blocks of 32 x 8 threads.
#define KT_STAGE_TILE 64

__device__ __forceinline__ unsigned kt_stage_pair(const KT_IN* p, bool aligned, bool second) {
  if (aligned) return *reinterpret_cast<const unsigned*>(p);
  return (unsigned)p[0] | (second ? (unsigned)p[1] << 16 : 0u);
}

template <int BYTES> struct KtElementBytes {};

// 16-bit elements, in pairs.
__device__ __forceinline__ void kt_stage_tile(KtElementBytes<2>, const KT_IN* from, KT_IN* to, int rows, int k, int kp,
                                              int transposed, int r0, int k0) {
  // [row][k], rows of 66: 4-byte aligned pairs, a row's pairs in consecutive banks.
  __shared__ __align__(4) KT_IN tile[KT_STAGE_TILE][KT_STAGE_TILE + 2];
  const int pair = 2 * threadIdx.x;
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
#pragma unroll
  for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8) {
    const int r = r0 + i, kk = k0 + pair;
    if (r < rows && kk < kp)
      *reinterpret_cast<unsigned*>(to + (long long)r * kp + kk) = *reinterpret_cast<const unsigned*>(&tile[i][pair]);
  }
}

// 32-bit elements, one a load: columns x and x + 32 of the tile. Rows of 65: a transposed write
// of a column (64 rows apart by 65) falls in distinct banks.
__device__ __forceinline__ void kt_stage_tile(KtElementBytes<4>, const KT_IN* from, KT_IN* to, int rows, int k, int kp,
                                              int transposed, int r0, int k0) {
  __shared__ KT_IN tile[KT_STAGE_TILE][KT_STAGE_TILE + 1];
#pragma unroll
  for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int x = threadIdx.x + 32 * h;
      if (transposed) {  // row x of the tile at k i
        const int kk = k0 + i, r = r0 + x;
        tile[x][i] = kk < k && r < rows ? from[(long long)kk * rows + r] : (KT_IN)0;
      } else {  // k x of the tile's row i
        const int r = r0 + i, kk = k0 + x;
        tile[i][x] = r < rows && kk < k ? from[(long long)r * k + kk] : (KT_IN)0;
      }
    }
  __syncthreads();
#pragma unroll
  for (int i = threadIdx.y; i < KT_STAGE_TILE; i += 8)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = r0 + i, kk = k0 + threadIdx.x + 32 * h;
      if (r < rows && kk < kp) to[(long long)r * kp + kk] = tile[i][threadIdx.x + 32 * h];
    }
}

extern "C" __global__ void __launch_bounds__(256)
    gemm_stage_k_major(const KT_IN* __restrict__ src, KT_IN* __restrict__ dst, int rows, int k, int kp,
                       int transposed) {
  const long long batch = blockIdx.z;
  kt_stage_tile(KtElementBytes<sizeof(KT_IN)>(), src + batch * rows * k, dst + batch * rows * kp, rows, k, kp, transposed,
                blockIdx.y * KT_STAGE_TILE, blockIdx.x * KT_STAGE_TILE);
}
