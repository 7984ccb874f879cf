// Tensor-core GEMM for bf16 and f16 inputs (raw 16-bit words, KT_IN = unsigned short: NVRTC
// finds no cuda_bf16.h) with f32 accumulation: a BM x BN tile per CTA, a TM x TN tile per warp
// of m16n8k16 mma.sync fed by ldmatrix. k-slices stream through a KT_STAGES-deep ring of
// shared-memory buffers filled by cp.async, so that the loads of slices ahead overlap this
// slice's mma. Each operand's slice keeps its layout in memory (copied in 16-byte chunks as it
// lies); ldmatrix.trans turns an M- or N-contiguous slice into the fragment mma wants. Rows are
// padded by 8 elements: ldmatrix's eight 16-byte rows then fall in distinct banks.
// Shapes whose contiguous extents are not multiples of 8 (KT_ALIGNED 0) cannot use 16-byte
// copies: their slices are copied element by element, zero outside, synchronously.
// Extra parameters (-D): KT_TM, KT_TN, KT_STAGES, KT_MMA_BF16, KT_ALIGNED.
#define KT_WARPS_N (KT_BN / KT_TN)
#define KT_MT (KT_TM / 16)
#define KT_NT (KT_TN / 8)
#define KT_PER_THREAD (KT_MT * KT_NT * 4)
// A's slice as [BK][BM + 8] when stored transposed (m contiguous), else [BM][BK + 8]; B's as
// [BN][BK + 8] when transposed (k contiguous), else [BK][BN + 8].
#define KT_A_ROWS (KT_A_T ? KT_BK : KT_BM)
#define KT_A_COLS (KT_A_T ? KT_BM : KT_BK)
#define KT_B_ROWS (KT_B_T ? KT_BN : KT_BK)
#define KT_B_COLS (KT_B_T ? KT_BK : KT_BN)
#define KT_A_LD (KT_A_COLS + 8)
#define KT_B_LD (KT_B_COLS + 8)
#define KT_A_STAGE (KT_A_ROWS * KT_A_LD)
#define KT_B_STAGE (KT_B_ROWS * KT_B_LD)

__device__ __forceinline__ void kt_ldmatrix_x4(unsigned (&r)[4], const KT_IN* p) {
  const unsigned address = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void kt_ldmatrix_x4_trans(unsigned (&r)[4], const KT_IN* p) {
  const unsigned address = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void kt_mma(float* d, const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if KT_MMA_BF16
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};"
#else
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};"
#endif
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// A's fragment of rows m0..m0+15, k kk..kk+15: the four 8x8 matrices rows +0/+8, then k +0/+8.
__device__ __forceinline__ void kt_fragment_a(unsigned (&f)[4], const KT_IN* sa, int m0, int kk, int lane) {
  const int half_m = (lane / 8) % 2 * 8, half_k = lane / 16 * 8;
  if (KT_A_T) kt_ldmatrix_x4_trans(f, sa + (kk + lane % 8 + half_k) * KT_A_LD + m0 + half_m);
  else kt_ldmatrix_x4(f, sa + (m0 + lane % 8 + half_m) * KT_A_LD + kk + half_k);
}

// B's fragments of two n8 blocks at n0 and n0 + 8, k kk..kk+15: k +0/+8 of the first, then of
// the second.
__device__ __forceinline__ void kt_fragment_b(unsigned (&f)[4], const KT_IN* sb, int n0, int kk, int lane) {
  const int half_k = (lane / 8) % 2 * 8, half_n = lane / 16 * 8;
  if (KT_B_T) kt_ldmatrix_x4(f, sb + (n0 + lane % 8 + half_n) * KT_B_LD + kk + half_k);
  else kt_ldmatrix_x4_trans(f, sb + (kk + lane % 8 + half_k) * KT_B_LD + n0 + half_n);
}

// The MAC loop over iterations [it0, it1) of one tile, into the warp's m16n8 accumulators
// (block (i, j) at (i * KT_NT + j) * 4): a 16-deep step's A fragments for every 16 rows and B's
// for every pair of n8 blocks, then their products.
__device__ __forceinline__ void kt_mac_loop(const KT_IN* a, const KT_IN* b, const KtSchedule& s, int row0, int col0,
                                            int it0, int it1, KT_IN* smem, float (&acc)[KT_PER_THREAD], int wrow,
                                            int wcol, int lane) {
  KT_IN* sa = smem;
  KT_IN* sb = smem + KT_STAGES * KT_A_STAGE;
#pragma unroll
  for (int q = 0; q < KT_PER_THREAD; ++q) acc[q] = 0.0f;
  unsigned fa[KT_MT][4], fb[KT_NT / 2][4];
  kt_ring_mainloop<KT_A_LD, KT_B_LD, KT_A_STAGE, KT_B_STAGE, KT_BK / 16, false>(
      sa, sb, a, b, s, row0, col0, it0, it1 - it0,
      [&](const KT_IN* sa_stage, const KT_IN* sb_stage, int step, int) {
#pragma unroll
        for (int i = 0; i < KT_MT; ++i) kt_fragment_a(fa[i], sa_stage, wrow + i * 16, step * 16, lane);
#pragma unroll
        for (int j = 0; j < KT_NT; j += 2) kt_fragment_b(fb[j / 2], sb_stage, wcol + j * 8, step * 16, lane);
      },
      [&](int, const KT_IN*, const KT_IN*, int, bool) {
#pragma unroll
        for (int j = 0; j < KT_NT; j += 2)
#pragma unroll
          for (int i = 0; i < KT_MT; ++i) {
            kt_mma(acc + (i * KT_NT + j) * 4, fa[i], fb[j / 2][0], fb[j / 2][1]);
            kt_mma(acc + (i * KT_NT + j + 1) * 4, fa[i], fb[j / 2][2], fb[j / 2][3]);
          }
      });
}

extern "C" __global__ void __launch_bounds__(KT_THREADS, 1)
    gemm_tensor(KT_SCHEDULE_PARAMS, const KT_IN* __restrict__ a, const KT_IN* __restrict__ b, KT_ACC* __restrict__ c,
                KT_ACC* __restrict__ workspace, int* __restrict__ counters) {
  const KtSchedule s = KT_SCHEDULE;
  extern __shared__ __align__(128) unsigned char kt_dynamic_smem[];
  KT_IN* smem = reinterpret_cast<KT_IN*>(kt_dynamic_smem);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wrow = (warp / KT_WARPS_N) * KT_TM, wcol = (warp % KT_WARPS_N) * KT_TN;
  int it, end;
  kt_cta_range(s, blockIdx.x, it, end);
  const int per_batch = s.tiles_m * s.tiles_n;
  while (it < end) {
    const int tile = it / s.ipt;
    const int t_begin = tile * s.ipt;
    const int seg_end = min(end, t_begin + s.ipt);
    const int in_batch = tile % per_batch, batch = tile / per_batch;
    float acc[KT_PER_THREAD];
    int row0, col0;
    kt_tile_origin(s, in_batch, row0, col0);
    kt_mac_loop(a + (long long)batch * s.m * s.k, b + (long long)batch * s.k * s.n, s, row0, col0, it - t_begin,
                seg_end - t_begin, smem, acc, wrow, wcol, lane);
    // The m16n8 accumulator: a lane holds rows lane/4 and lane/4 + 8, columns 2 (lane % 4) + 0/1.
    kt_finish_tile<KT_PER_THREAD, true>(
        s, blockIdx.x, tile, t_begin, it, seg_end, acc,
        [=](int q) { return wrow + q / (KT_NT * 4) * 16 + lane / 4 + q % 4 / 2 * 8; },
        [=](int q) { return wcol + q / 4 % KT_NT * 8 + lane % 4 * 2 + q % 2; }, c, workspace, counters);
    it = seg_end;
  }
}
