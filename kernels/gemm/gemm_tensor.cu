// Tensor-core GEMM for bf16 and f16 inputs (raw 16-bit words, KT_IN = unsigned short: NVRTC
// finds no cuda_bf16.h) with f32 accumulation: a BM x BN tile per CTA, a TM x TN tile per warp
// of m16n8k16 mma.sync, fed by ldmatrix. Slices of k are staged through shared memory
// k-contiguous for both operands whatever their layout in memory (the transpose happens on the
// store from registers), rows padded by 8 elements: ldmatrix's eight 16-byte rows then fall
// in distinct banks. KT_STAGES 2 loads the next slice into registers during this one. The
// accumulators leave through shared memory so that the epilogue (gemm_common.cuh) sees one
// element per thread and slot. Extra parameters (-D): KT_TM, KT_TN, KT_STAGES, KT_MMA_BF16.
#define KT_WARPS_N (KT_BN / KT_TN)
#define KT_ROW (KT_BK + 8)
#define KT_C_COLS (KT_BN + 4)
#define KT_PER_THREAD (KT_BM * KT_BN / KT_THREADS)
#define KT_SLICES_BYTES (KT_STAGES * (KT_BM + KT_BN) * KT_ROW * 2)
#define KT_C_BYTES (KT_BM * KT_C_COLS * 4)
#define KT_SMEM_BYTES (KT_SLICES_BYTES > KT_C_BYTES ? KT_SLICES_BYTES : KT_C_BYTES)
#define KT_MT (KT_TM / 16)
#define KT_NT (KT_TN / 8)

// A as [BM][BK + 8], B as [BN][BK + 8]: k-contiguous rows, what ldmatrix reads.
__device__ __forceinline__ void kt_stage(KT_IN* sa, KT_IN* sb, const KT_IN (&ra)[KT_A_LOADS],
                                         const KT_IN (&rb)[KT_B_LOADS]) {
  int r, kk, c;
#pragma unroll
  for (int i = 0; i < KT_A_LOADS; ++i) {
    kt_a_element(KT_A_E(i), r, kk);
    sa[r * KT_ROW + kk] = ra[i];
  }
#pragma unroll
  for (int i = 0; i < KT_B_LOADS; ++i) {
    kt_b_element(KT_B_E(i), kk, c);
    sb[c * KT_ROW + kk] = rb[i];
  }
}

__device__ __forceinline__ void kt_ldmatrix_x4(unsigned (&r)[4], const KT_IN* p) {
  const unsigned address = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void kt_mma(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
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

__device__ __forceinline__ void kt_compute(const KT_IN* sa, const KT_IN* sb, float (&acc)[KT_MT][KT_NT][4]) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wrow = (warp / KT_WARPS_N) * KT_TM, wcol = (warp % KT_WARPS_N) * KT_TN;
#pragma unroll
  for (int kk = 0; kk < KT_BK; kk += 16) {
    unsigned fa[KT_MT][4];
    // A's four 8x8 matrices in the fragment's order: rows +0/+8, then k +0/+8.
#pragma unroll
    for (int i = 0; i < KT_MT; ++i)
      kt_ldmatrix_x4(fa[i], sa + (wrow + i * 16 + lane % 8 + (lane / 8) % 2 * 8) * KT_ROW + kk + lane / 16 * 8);
#pragma unroll
    for (int j = 0; j < KT_NT; j += 2) {
      // Two n8 blocks of B: k +0/+8 of the first, then of the second.
      unsigned fb[4];
      kt_ldmatrix_x4(fb, sb + (wcol + j * 8 + lane % 8 + lane / 16 * 8) * KT_ROW + kk + (lane / 8) % 2 * 8);
#pragma unroll
      for (int i = 0; i < KT_MT; ++i) {
        kt_mma(acc[i][j], fa[i], fb[0], fb[1]);
        kt_mma(acc[i][j + 1], fa[i], fb[2], fb[3]);
      }
    }
  }
}

// The MAC loop over iterations [it0, it1) of one tile; the accumulators end in `out` (thread
// tid's q-th at element q * KT_THREADS + tid of the tile, row-major).
__device__ __forceinline__ void kt_mac_loop(const KT_IN* a, const KT_IN* b, const KtSchedule& s, int row0, int col0,
                                            int it0, int it1, unsigned char* smem, float (&out)[KT_PER_THREAD]) {
  KT_IN* sa = reinterpret_cast<KT_IN*>(smem);
  KT_IN* sb = sa + KT_STAGES * KT_BM * KT_ROW;
  float acc[KT_MT][KT_NT][4];
#pragma unroll
  for (int i = 0; i < KT_MT; ++i)
#pragma unroll
    for (int j = 0; j < KT_NT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0f;
  KT_IN ra[KT_A_LOADS], rb[KT_B_LOADS];
  kt_fetch(a, b, s, row0, col0, it0 * KT_BK, ra, rb);
  __syncthreads();  // the previous tile's epilogue is done with the shared memory
  kt_stage(sa, sb, ra, rb);
  __syncthreads();
  int stage = 0;
  for (int it = it0; it < it1; ++it) {
    const bool more = it + 1 < it1;
    if (more) kt_fetch(a, b, s, row0, col0, (it + 1) * KT_BK, ra, rb);
    kt_compute(sa + stage * KT_BM * KT_ROW, sb + stage * KT_BN * KT_ROW, acc);
    if (KT_STAGES == 1) __syncthreads();
    else stage ^= 1;
    if (more) kt_stage(sa + stage * KT_BM * KT_ROW, sb + stage * KT_BN * KT_ROW, ra, rb);
    __syncthreads();
  }
  float* cs = reinterpret_cast<float*>(smem);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wrow = (warp / KT_WARPS_N) * KT_TM, wcol = (warp % KT_WARPS_N) * KT_TN;
  // The m16n8 accumulator: lane holds rows lane/4 and lane/4 + 8, columns 2 (lane % 4) + 0/1.
#pragma unroll
  for (int i = 0; i < KT_MT; ++i)
#pragma unroll
    for (int j = 0; j < KT_NT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q)
        cs[(wrow + i * 16 + lane / 4 + q / 2 * 8) * KT_C_COLS + wcol + j * 8 + lane % 4 * 2 + q % 2] = acc[i][j][q];
  __syncthreads();
#pragma unroll
  for (int q = 0; q < KT_PER_THREAD; ++q) {
    const int e = q * KT_THREADS + threadIdx.x;
    out[q] = cs[(e / KT_BN) * KT_C_COLS + e % KT_BN];
  }
}

extern "C" __global__ void __launch_bounds__(KT_THREADS, 1)
    gemm_tensor(KT_SCHEDULE_PARAMS, const KT_IN* __restrict__ a, const KT_IN* __restrict__ b, KT_ACC* __restrict__ c,
                KT_ACC* __restrict__ workspace, int* __restrict__ counters) {
  const KtSchedule s = KT_SCHEDULE;
  __shared__ __align__(128) unsigned char smem[KT_SMEM_BYTES];
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
                seg_end - t_begin, smem, acc);
    const int tid = threadIdx.x;
    kt_finish_tile<KT_PER_THREAD>(
        s, tile, t_begin, it, seg_end, acc, [=](int q) { return (q * KT_THREADS + tid) / KT_BN; },
        [=](int q) { return (q * KT_THREADS + tid) % KT_BN; }, c, workspace, counters);
    it = seg_end;
  }
}
