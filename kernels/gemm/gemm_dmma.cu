// Tensor-core GEMM for f64 (DMMA): a BM x BN tile per CTA, a TM x TN tile per warp of sm_90's
// m16n8k8 mma.sync (m16n8k16 runs at the same rate; sm_80's m8n8k4 at half of it, 33 against
// 66 TFLOP/s on an H100, bench/experiments/dmma_rate.cu), k-slices streamed through a
// KT_STAGES-deep ring of shared memory filled by cp.async in 16-byte chunks (two doubles), each
// operand's slice kept as it lies in memory. DMMA has no ldmatrix: a lane reads its fragments
// straight from shared memory, always one 8-deep step ahead of the products (across a slice's
// end too: its last step's products wait for no load), as cuBLAS's DGEMM does; without that a
// warp stalled on its loads a third of the time (H100 profile of a7bd04b). The k positions an
// instruction sums over may be relabelled alike in A and B, so a lane's k slot t + 4v reads k
// 2t + v: where k runs along a row, a lane's two slots are one 16-byte load, and rows padded to
// 8 (mod 16) doubles keep a quarter-warp's two rows in the two halves of the banks; where m or
// n runs along the row, a half-warp's 4 x 4 scalar loads of k rows 2t take four bank groups
// with rows of 2 (mod 8) doubles. Extra parameters (-D): KT_TM, KT_TN, KT_STAGES (3 or more: a
// stage read, the next landed, one loading), KT_ALIGNED; KT_BK is 16 or more (an even count of
// steps a slice, so that every slice starts on the same fragment buffers).
#define KT_STEPS (KT_BK / 8)
#define KT_WARPS_N (KT_BN / KT_TN)
#define KT_MT (KT_TM / 16)
#define KT_NT (KT_TN / 8)
#define KT_PER_THREAD (KT_MT * KT_NT * 4)
#define KT_K_LD (KT_BK + 8 - KT_BK % 16)
#define KT_A_ROWS (KT_A_T ? KT_BK : KT_BM)
#define KT_A_COLS (KT_A_T ? KT_BM : KT_BK)
#define KT_B_ROWS (KT_B_T ? KT_BN : KT_BK)
#define KT_B_COLS (KT_B_T ? KT_BK : KT_BN)
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

// The lane's two k slots, t and t + 4, of the m16n8k8 step at kk (k 2t and 2t + 1), for row
// `line` (lines past the lane's own) of one operand from `lane_base` (the stage plus
// kt_lane_offset): one 16-byte load where k runs along the rows (K_MAJOR), two scalar ones
// otherwise.
template <bool K_MAJOR, int LD>
__device__ __forceinline__ void kt_pair(const double* lane_base, int line, int kk, double& x, double& y) {
  if (K_MAJOR) {
    const double2 p = *reinterpret_cast<const double2*>(lane_base + line * LD + kk);
    x = p.x;
    y = p.y;
  } else {
    x = lane_base[kk * LD + line];
    y = lane_base[(kk + 1) * LD + line];
  }
}

// A's fragments of one m16n8k8 step at kk: block i holds rows g and g + 8 (g = lane / 4) at
// slots t and t + 4, as (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4). `a` is the stage's slice
// at the lane's offset.
__device__ __forceinline__ void kt_load_a(double (&fa)[KT_MT][4], const double* a, int kk) {
#pragma unroll
  for (int i = 0; i < KT_MT; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h) kt_pair<!KT_A_T, KT_A_LD>(a, i * 16 + 8 * h, kk, fa[i][h], fa[i][2 + h]);
}

// B's block j of the step at kk: column g at slots t and t + 4.
__device__ __forceinline__ void kt_load_b(double (&fb)[2], const double* b, int j, int kk) {
  kt_pair<KT_B_T, KT_B_LD>(b, j * 8, kk, fb[0], fb[1]);
}

// One block's product into d (a lane's rows g and g + 8, columns 2 (lane % 4) + 0/1).
__device__ __forceinline__ void kt_dmma(double* d, const double (&fa)[4], const double (&fb)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(fa[0]), "d"(fa[1]), "d"(fa[2]), "d"(fa[3]), "d"(fb[0]), "d"(fb[1]));
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
    __syncthreads();  // every warp is done with the previous tile's slices
#pragma unroll
    for (int st = 0; st < KT_STAGES - 1; ++st) {
      if (st < iterations)
        kt_load_stage<KT_A_LD, KT_B_LD>(sa + st * KT_A_STAGE, sb + st * KT_B_STAGE, a_batch, b_batch, s, row0, col0,
                                        (it0 + st) * KT_BK);
      kt_cp_async_commit();
    }
    // Two steps' A fragments and two B blocks: the next is loaded while this one computes.
    // acc holds block (i, j) at (i * KT_NT + j) * 4.
    double fa[2][KT_MT][4], fb[2][2];
    kt_cp_async_wait<KT_STAGES - 2>();  // slice 0 (this thread's chunks)
    __syncthreads();                    // ... every thread's
    kt_load_a(fa[0], sa + a_lane, 0);
    kt_load_b(fb[0], sb + b_lane, 0, 0);
    int read = 0, write = KT_STAGES - 1;
    for (int i = 0; i < iterations; ++i) {
      const int next = read + 1 == KT_STAGES ? 0 : read + 1;
      const double* a_now = sa + read * KT_A_STAGE + a_lane;
      const double* b_now = sb + read * KT_B_STAGE + b_lane;
      const double* a_next = sa + next * KT_A_STAGE + a_lane;
      const double* b_next = sb + next * KT_B_STAGE + b_lane;
      const bool more = i + 1 < iterations;
#pragma unroll
      for (int step = 0; step < KT_STEPS; ++step) {
        const bool last = step + 1 == KT_STEPS;
        if (last) {
          // The next slice must be in every thread's view before its first fragments load; the
          // stage read before this slice is then free for the copy KT_STAGES - 1 slices ahead.
          kt_cp_async_wait<KT_STAGES - 3>();
          __syncthreads();
          if (i + KT_STAGES - 1 < iterations)
            kt_load_stage<KT_A_LD, KT_B_LD>(sa + write * KT_A_STAGE, sb + write * KT_B_STAGE, a_batch, b_batch, s, row0,
                                            col0, (it0 + i + KT_STAGES - 1) * KT_BK);
          kt_cp_async_commit();
          write = write + 1 == KT_STAGES ? 0 : write + 1;
        }
#pragma unroll
        for (int j = 0; j < KT_NT; ++j) {
          const int q = step * KT_NT + j;  // block j's B buffer is q % 2 (an even count a slice)
          if (j == 0) {
            if (!last) kt_load_a(fa[(step + 1) % 2], a_now, (step + 1) * 8);
            else if (more) kt_load_a(fa[(step + 1) % 2], a_next, 0);
          }
          if (j + 1 < KT_NT) kt_load_b(fb[(q + 1) % 2], b_now, j + 1, step * 8);
          else if (!last) kt_load_b(fb[(q + 1) % 2], b_now, 0, (step + 1) * 8);
          else if (more) kt_load_b(fb[(q + 1) % 2], b_next, 0, 0);
#pragma unroll
          for (int m = 0; m < KT_MT; ++m) kt_dmma(acc + (m * KT_NT + j) * 4, fa[step % 2][m], fb[q % 2]);
        }
      }
      read = next;
    }
    kt_cp_async_wait<0>();
    kt_finish_tile<KT_PER_THREAD, true>(
        s, blockIdx.x, tile, t_begin, it, seg_end, acc,
        [=](int q) { return wrow + q / (KT_NT * 4) * 16 + q % 4 / 2 * 8 + lane / 4; },
        [=](int q) { return wcol + q / 4 % KT_NT * 8 + lane % 4 * 2 + q % 2; }, c, workspace, counters);
    it = seg_end;
  }
}
