// SIMT GEMM for f32 and f64: a BM x BN tile per CTA, k in slices of BK staged through shared
// memory (k-major, padded by one element against bank conflicts), a TM x TN micro-tile of FMAs
// per thread. KT_STAGES 2 loads the next slice into registers while this one is computed (one
// barrier an iteration); 1 loads, waits, computes. Extra parameters (-D): KT_TM, KT_TN, KT_STAGES.
#define KT_TX (KT_BN / KT_TN)

struct KtSlices {
  KT_IN a[KT_STAGES][KT_BK][KT_BM + 1];
  KT_IN b[KT_STAGES][KT_BK][KT_BN + 1];
};

__device__ __forceinline__ void kt_stage(KtSlices& sm, int stage, const KT_IN (&ra)[KT_A_LOADS],
                                         const KT_IN (&rb)[KT_B_LOADS]) {
  int r, kk, c;
#pragma unroll
  for (int i = 0; i < KT_A_LOADS; ++i) {
    kt_a_element(KT_A_E(i), r, kk);
    sm.a[stage][kk][r] = ra[i];
  }
#pragma unroll
  for (int i = 0; i < KT_B_LOADS; ++i) {
    kt_b_element(KT_B_E(i), kk, c);
    sm.b[stage][kk][c] = rb[i];
  }
}

__device__ __forceinline__ void kt_compute(const KtSlices& sm, int stage, KT_ACC (&acc)[KT_TM * KT_TN]) {
  const int ty = threadIdx.x / KT_TX, tx = threadIdx.x % KT_TX;
#pragma unroll
  for (int kk = 0; kk < KT_BK; ++kk) {
    KT_ACC fa[KT_TM], fb[KT_TN];
#pragma unroll
    for (int i = 0; i < KT_TM; ++i) fa[i] = sm.a[stage][kk][ty * KT_TM + i];
#pragma unroll
    for (int j = 0; j < KT_TN; ++j) fb[j] = sm.b[stage][kk][tx * KT_TN + j];
#pragma unroll
    for (int i = 0; i < KT_TM; ++i)
#pragma unroll
      for (int j = 0; j < KT_TN; ++j) acc[i * KT_TN + j] = fma(fa[i], fb[j], acc[i * KT_TN + j]);
  }
}

// The MAC loop over iterations [it0, it1) of one tile.
__device__ __forceinline__ void kt_mac_loop(const KT_IN* a, const KT_IN* b, const KtSchedule& s, int row0, int col0,
                                            int it0, int it1, KtSlices& sm, KT_ACC (&acc)[KT_TM * KT_TN]) {
  KT_IN ra[KT_A_LOADS], rb[KT_B_LOADS];
#pragma unroll
  for (int q = 0; q < KT_TM * KT_TN; ++q) acc[q] = 0;
  kt_fetch(a, b, s, row0, col0, it0 * KT_BK, ra, rb);
  __syncthreads();  // the previous tile's last reads of the slices are done
  kt_stage(sm, 0, ra, rb);
  __syncthreads();
  int stage = 0;
  for (int it = it0; it < it1; ++it) {
    const bool more = it + 1 < it1;
    if (KT_STAGES == 2) {
      if (more) kt_fetch(a, b, s, row0, col0, (it + 1) * KT_BK, ra, rb);
      kt_compute(sm, stage, acc);
      if (more) kt_stage(sm, stage ^ 1, ra, rb);
      __syncthreads();
      stage ^= 1;
    } else {
      kt_compute(sm, 0, acc);
      __syncthreads();
      if (more) {
        kt_fetch(a, b, s, row0, col0, (it + 1) * KT_BK, ra, rb);
        kt_stage(sm, 0, ra, rb);
        __syncthreads();
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(KT_THREADS, 1)
    gemm_simt(KT_SCHEDULE_PARAMS, const KT_IN* __restrict__ a, const KT_IN* __restrict__ b, KT_ACC* __restrict__ c,
              KT_ACC* __restrict__ workspace, int* __restrict__ counters) {
  const KtSchedule s = KT_SCHEDULE;
  __shared__ KtSlices sm;
  int it, end;
  kt_cta_range(s, blockIdx.x, it, end);
  const int per_batch = s.tiles_m * s.tiles_n;
  while (it < end) {
    const int tile = it / s.ipt;
    const int t_begin = tile * s.ipt;
    const int seg_end = min(end, t_begin + s.ipt);
    const int in_batch = tile % per_batch, batch = tile / per_batch;
    const KT_IN* ab = a + (long long)batch * s.m * s.k;
    const KT_IN* bb = b + (long long)batch * s.k * s.n;
    KT_ACC acc[KT_TM * KT_TN];
    int row0, col0;
    kt_tile_origin(s, in_batch, row0, col0);
    kt_mac_loop(ab, bb, s, row0, col0, it - t_begin, seg_end - t_begin, sm, acc);
    const int ty = threadIdx.x / KT_TX, tx = threadIdx.x % KT_TX;
    kt_finish_tile<KT_TM * KT_TN, KT_TN % 2 == 0>(
        s, blockIdx.x, tile, t_begin, it, seg_end, acc, [=](int q) { return ty * KT_TM + q / KT_TN; },
        [=](int q) { return tx * KT_TN + q % KT_TN; }, c, workspace, counters);
    it = seg_end;
  }
}
