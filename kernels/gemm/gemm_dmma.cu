// Tensor-core GEMM for f64 (DMMA): a BM x BN tile per CTA, a TM x TN tile per warp of sm_90's
// m16n8kDK mma.sync (DK 16, or 8 where a k-slice is 8 deep: sm_80's m8n8k4 reaches half their
// rate on an H100, 33 against 66 TFLOP/s, bench/experiments/dmma_rate.cu), k-slices streamed
// through a KT_STAGES-deep ring of shared memory filled by cp.async in 16-byte chunks (two
// doubles), each operand's slice kept as it lies in memory. DMMA has no ldmatrix: a lane reads
// its fragments straight from shared memory. The k positions an instruction sums over may be
// relabelled alike in A and B, so a lane's k slot t + 4v reads k 8(v / 2) + 2t + v % 2: where k
// runs along a row, each pair of its slots is one 16-byte load, and rows padded to 8 (mod 16)
// doubles keep a quarter-warp's two rows in the two halves of the banks; where m or n runs
// along the row, a half-warp's 4 x 4 scalar loads of k rows 2t take four bank groups with rows
// of 2 (mod 8) doubles. Extra parameters (-D): KT_TM, KT_TN, KT_STAGES, KT_ALIGNED, and KT_DK (the
// instruction depth, GemmConfig::dmma_k(), which also counts the fragments' registers on the host).
#define KT_WARPS_N (KT_BN / KT_TN)
#define KT_MT (KT_TM / 16)
#define KT_NT (KT_TN / 8)
#define KT_PER_THREAD (KT_MT * KT_NT * 4)
#define KT_A_ROWS (KT_A_T ? KT_BK : KT_BM)
#define KT_A_COLS (KT_A_T ? KT_BM : KT_BK)
#define KT_B_ROWS (KT_B_T ? KT_BN : KT_BK)
#define KT_B_COLS (KT_B_T ? KT_BK : KT_BN)
#define KT_K_LD (KT_BK + 8 - KT_BK % 16)
#define KT_A_LD (KT_A_T ? KT_BM + 2 : KT_K_LD)
#define KT_B_LD (KT_B_T ? KT_K_LD : KT_BN + 2)
#define KT_A_STAGE (KT_A_ROWS * KT_A_LD)
#define KT_B_STAGE (KT_B_ROWS * KT_B_LD)

// Where a lane's fragments start in a stage: its row `line0` (m or n) of an operand and its
// first k, 2t; every fragment then lies a compile-time distance further (kt_pair), so a
// slice's loads need one address (computing each from its row and k cost three integer
// instructions a load: H100 profile of a7bd04b).
template <bool K_MAJOR, int LD>
__device__ __forceinline__ int kt_lane_offset(int line0, int t) {
  return K_MAJOR ? line0 * LD + 2 * t : 2 * t * LD + line0;
}

// The lane's k slots t + 4v and t + 4(v + 1) (v even) of one m16n8kDK step at kk, read as the
// pair of row `line` (lines past the lane's own) of one operand from `lane_base` (the stage
// plus kt_lane_offset): one 16-byte load where k runs along the rows (K_MAJOR), two scalar
// ones otherwise.
template <bool K_MAJOR, int LD>
__device__ __forceinline__ void kt_pair(const double* lane_base, int line, int kk, int v, double& x, double& y) {
  const int k = kk + 8 * (v / 2);
  if (K_MAJOR) {
    const double2 p = *reinterpret_cast<const double2*>(lane_base + line * LD + k);
    x = p.x;
    y = p.y;
  } else {
    x = lane_base[k * LD + line];
    y = lane_base[(k + 1) * LD + line];
  }
}

// acc holds the warp's 16x8 blocks, block (i, j) at (i * KT_NT + j) * 4: a lane's rows g and
// g + 8 (g = lane / 4), columns 2 (lane % 4) + 0/1. A's fragment r holds row g + 8 (r % 2) at
// slot t + 4 (r / 2), B's fragment v column g at slot t + 4v. `a` and `b` are the stage's
// slices at the lane's offsets.
__device__ __forceinline__ void kt_compute(const double* a, const double* b, double (&acc)[KT_PER_THREAD]) {
#pragma unroll
  for (int kk = 0; kk < KT_BK; kk += KT_DK) {
    double fa[KT_MT][KT_DK / 2];
#pragma unroll
    for (int i = 0; i < KT_MT; ++i)
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int v = 0; v < KT_DK / 4; v += 2)
          kt_pair<!KT_A_T, KT_A_LD>(a, i * 16 + 8 * h, kk, v, fa[i][2 * v + h], fa[i][2 * v + 2 + h]);
#pragma unroll
    for (int j = 0; j < KT_NT; ++j) {
      double fb[KT_DK / 4];
#pragma unroll
      for (int v = 0; v < KT_DK / 4; v += 2) kt_pair<KT_B_T, KT_B_LD>(b, j * 8, kk, v, fb[v], fb[v + 1]);
#pragma unroll
      for (int i = 0; i < KT_MT; ++i) kt_dmma<KT_DK>(acc + (i * KT_NT + j) * 4, fa[i], fb);
    }
  }
}

extern "C" __global__ void __launch_bounds__(KT_THREADS, 1)
    gemm_dmma(KT_SCHEDULE_PARAMS, const double* __restrict__ a, const double* __restrict__ b, double* __restrict__ c,
              double* __restrict__ workspace, int* __restrict__ counters) {
  const KtSchedule s = KT_SCHEDULE;
  extern __shared__ __align__(16) unsigned char kt_dynamic_smem[];
  double* sa = reinterpret_cast<double*>(kt_dynamic_smem);
  double* sb = sa + KT_STAGES * KT_A_STAGE;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wrow = (warp / KT_WARPS_N) * KT_TM, wcol = (warp % KT_WARPS_N) * KT_TN;
  const int a_lane = kt_lane_offset<!KT_A_T, KT_A_LD>(wrow + lane / 4, lane % 4);
  const int b_lane = kt_lane_offset<KT_B_T, KT_B_LD>(wcol + lane / 4, lane % 4);
  int it, end;
  kt_cta_range(s, blockIdx.x, it, end);
  const int per_batch = s.tiles_m * s.tiles_n;
  while (it < end) {
    const int tile = it / s.ipt;
    const int t_begin = tile * s.ipt;
    const int seg_end = min(end, t_begin + s.ipt);
    const int in_batch = tile % per_batch, batch = tile / per_batch;
    int row0, col0;
    kt_tile_origin(s, in_batch, row0, col0);
    const double* a_batch = a + (long long)batch * s.m * s.k;
    const double* b_batch = b + (long long)batch * s.k * s.n;
    const int it0 = it - t_begin, iterations = seg_end - it;
    double acc[KT_PER_THREAD];
#pragma unroll
    for (int q = 0; q < KT_PER_THREAD; ++q) acc[q] = 0.0;
    kt_ring_mainloop<KT_A_LD, KT_B_LD, KT_A_STAGE, KT_B_STAGE>(
        sa, sb, a_batch, b_batch, s, row0, col0, it0, iterations,
        [&](const double* sa_stage, const double* sb_stage) { kt_compute(sa_stage + a_lane, sb_stage + b_lane, acc); });
    kt_finish_tile<KT_PER_THREAD, true>(
        s, blockIdx.x, tile, t_begin, it, seg_end, acc,
        [=](int q) { return wrow + q / (KT_NT * 4) * 16 + q % 4 / 2 * 8 + lane / 4; },
        [=](int q) { return wcol + q / 4 % KT_NT * 8 + lane % 4 * 2 + q % 2; }, c, workspace, counters);
    it = seg_end;
  }
}
