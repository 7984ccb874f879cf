// Tensor-core GEMM for f64 (DMMA) and tf32: a BM x BN tile per CTA, a TM x TN tile per warp of
// sm_90's m16n8k8 mma.sync (for f64, m16n8k16 runs at the same rate and holds twice the
// fragments; sm_80's m8n8k4 at half of it, 33 against 66 TFLOP/s on an H100:
// bench/experiments/dmma_rate.cu; tf32's m16n8k8 fragments lie as f64's), k-slices streamed
// through a KT_STAGES-deep ring of shared memory filled by cp.async in 16-byte chunks, each
// operand's slice kept as it lies in memory. DMMA has no ldmatrix (nor has a transposed operand
// of 32-bit elements): a lane reads its fragments from shared memory one element each, in the
// fragment's own order (k t and t + 4), a step ahead of the products (kt_ring_mainloop's AHEAD).
// 16-byte loads of k 2t and 2t + 1 (k relabelled alike in A and B) halve f64's loads but hand A's
// two rows to the fragment in the wrong registers: the moves, and the spills of a second buffer,
// cost 10-15% from 2048^3 to 8192^3 on an H200 (bench/results/dgemm_pipeline_h200_728275b.md).
// Rows of a stage along k are 4 (mod 32 banks' worth) elements longer than the slice, rows along
// m or n 32 bytes longer: a warp's loads at (g, t) or (t, g), g < 8 and t < 4, then fall in
// distinct banks (f64: a half-warp's 4 x 4 in 16 distinct bank pairs). Extra parameters (-D):
// KT_TM, KT_TN, KT_STAGES, KT_ALIGNED; KT_BK is 16 or 32 (an even count of 8-deep steps a
// slice); KT_IN and KT_ACC both double, or float (tf32).
#define KT_STEPS (KT_BK / 8)
#define KT_WARPS_N (KT_BN / KT_TN)
#define KT_MT (KT_TM / 16)
#define KT_NT (KT_TN / 8)
#define KT_PER_THREAD (KT_MT * KT_NT * 4)
#define KT_A_ROWS (KT_A_T ? KT_BK : KT_BM)
#define KT_B_ROWS (KT_B_T ? KT_BN : KT_BK)
#define KT_MN_PAD (32 / (int)sizeof(KT_IN))
#define KT_A_LD (KT_A_T ? KT_BM + KT_MN_PAD : KT_BK + 4)
#define KT_B_LD (KT_B_T ? KT_BK + 4 : KT_BN + KT_MN_PAD)
#define KT_A_STAGE (KT_A_ROWS * KT_A_LD)
#define KT_B_STAGE (KT_B_ROWS * KT_B_LD)

// Where a lane's fragments start in a stage: its row `line0` (m or n) of an operand at k t.
// Every fragment then lies a compile-time distance further (kt_element), so a step's loads need
// one address (computing each from its row and k cost three integer instructions a load: H100
// profile of a7bd04b).
template <bool K_MAJOR, int LD>
__device__ __forceinline__ int kt_lane_offset(int line0, int t) {
  return K_MAJOR ? line0 * LD + t : t * LD + line0;
}

// The element `line` rows (m or n) and `k` past the lane's own, from `lane_base` (a stage plus
// kt_lane_offset).
template <bool K_MAJOR, int LD>
__device__ __forceinline__ KT_IN kt_element(const KT_IN* lane_base, int line, int k) {
  return K_MAJOR ? lane_base[line * LD + k] : lane_base[k * LD + line];
}

// A lane's fragments of an m16n8k8 step at kk: A block i holds (g, t), (g + 8, t), (g, t + 4),
// (g + 8, t + 4) of its 16 rows, B block j (g, t), (g, t + 4) of its 8 columns (g = lane / 4,
// t = lane % 4). `a` and `b` are a stage's slices at the lane's offsets.
__device__ __forceinline__ void kt_load_a(const KT_IN* a, int kk, KT_IN (&fa)[KT_MT][4]) {
#pragma unroll
  for (int i = 0; i < KT_MT; ++i)
#pragma unroll
    for (int q = 0; q < 4; ++q) fa[i][q] = kt_element<!KT_A_T, KT_A_LD>(a, 16 * i + 8 * (q % 2), kk + 4 * (q / 2));
}
__device__ __forceinline__ void kt_load_b(const KT_IN* b, int kk, int j, KT_IN (&fb)[2]) {
#pragma unroll
  for (int q = 0; q < 2; ++q) fb[q] = kt_element<KT_B_T, KT_B_LD>(b, 8 * j, kk + 4 * q);
}

extern "C" __global__ void __launch_bounds__(KT_THREADS, 1)
    gemm_dmma(KT_SCHEDULE_PARAMS, const KT_IN* __restrict__ a, const KT_IN* __restrict__ b, KT_ACC* __restrict__ c,
              KT_ACC* __restrict__ workspace, int* __restrict__ counters) {
  const KtSchedule s = KT_SCHEDULE;
  // 128-byte aligned: after kt_finish_tile's static kt_meet a 16-byte alignment put the stages at
  // byte 16, every 32-byte sector a copy writes straddled two of shared memory's, and an H200 then
  // fetched each lane's 16 bytes from L2 as a sector of its own (twice the prototype's L2 sectors:
  // bench/results/dmma_copy_sectors_h200_6d12046.md).
  extern __shared__ __align__(128) unsigned char kt_dynamic_smem[];
  KT_IN* sa = reinterpret_cast<KT_IN*>(kt_dynamic_smem);
  KT_IN* sb = sa + KT_STAGES * KT_A_STAGE;
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
    const KT_IN* a_batch = a + (long long)batch * s.m * s.k;
    const KT_IN* b_batch = b + (long long)batch * s.k * s.n;
    const int it0 = it - t_begin, iterations = seg_end - it;
    KT_ACC acc[KT_PER_THREAD];
#pragma unroll
    for (int q = 0; q < KT_PER_THREAD; ++q) acc[q] = 0;
    // acc holds the warp's 16 x 8 blocks, block (i, j) at (i * KT_NT + j) * 4: a lane's rows g
    // and g + 8, columns 2t + 0/1.
    KT_IN fa[2][KT_MT][4], fb[2][KT_NT][2];
    auto load = [&](const KT_IN* sa_stage, const KT_IN* sb_stage, int step, int buffer) {
      kt_load_a(sa_stage + a_lane, step * 8, fa[buffer]);
#pragma unroll
      for (int j = 0; j < KT_NT; ++j) kt_load_b(sb_stage + b_lane, step * 8, j, fb[buffer][j]);
    };
    kt_ring_mainloop<KT_A_LD, KT_B_LD, KT_A_STAGE, KT_B_STAGE, KT_STEPS, true>(
        sa, sb, a_batch, b_batch, s, row0, col0, it0, iterations, load,
        [&](int buffer, const KT_IN* sa_stage, const KT_IN* sb_stage, int step, bool more) {
          if (more) load(sa_stage, sb_stage, step, buffer ^ 1);
#pragma unroll
          for (int j = 0; j < KT_NT; ++j)
#pragma unroll
            for (int i = 0; i < KT_MT; ++i) kt_mma_k8(acc + (i * KT_NT + j) * 4, fa[buffer][i], fb[buffer][j]);
        });
    kt_finish_tile<KT_PER_THREAD, true>(
        s, blockIdx.x, tile, t_begin, it, seg_end, acc,
        [=](int q) { return wrow + q / (KT_NT * 4) * 16 + q % 4 / 2 * 8 + lane / 4; },
        [=](int q) { return wcol + q / 4 % KT_NT * 8 + lane % 4 * 2 + q % 2; }, c, workspace, counters);
    it = seg_end;
  }
}
