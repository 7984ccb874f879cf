// Shared by the GEMM kernels: the decomposition of the MAC-loop iterations over CTAs and the
// epilogue that writes a tile or fixes it up from its peers' partials (gemm_schedule.h says
// why the last CTA to finish a tile fixes it up). Parameters (-D): KT_IN (input type), KT_ACC
// (accumulator and C type), KT_BM, KT_BN, KT_BK, KT_THREADS, KT_A_T and KT_B_T (1: operand
// stored transposed, gemm_shape.h), KT_RASTER (tile-rows a rasterisation group), KT_SPLIT_REDUCE
// (1: fixed split-K's parts added by a launch of their own).

struct KtSchedule {
  int m, n, k, batch;
  int tiles_m, tiles_n, ipt;
  int sk_tiles, sk_ctas, sk_share, sk_extra, split, grid, units;
};

// The schedule arrives as scalars (a launch passes no structs), in this order.
#define KT_SCHEDULE_PARAMS                                                                              \
  int m, int n, int k, int batch, int tiles_m, int tiles_n, int ipt, int sk_tiles, int sk_ctas, int sk_share, \
      int sk_extra, int split, int grid, int units
#define KT_SCHEDULE {m, n, k, batch, tiles_m, tiles_n, ipt, sk_tiles, sk_ctas, sk_share, sk_extra, split, grid, units}

// Unit c's iterations [begin, end): gemm_schedule.cpp's twin. A CTA runs units blockIdx.x,
// blockIdx.x + grid, ... (one, except in the persistent decomposition). All in 32 bits (the
// space keeps the iteration count below 2^31): a 64-bit division is a call, and its saved
// registers spill.
__device__ __forceinline__ void kt_cta_range(const KtSchedule& s, int c, int& begin, int& end) {
  if (c < s.sk_ctas) {
    begin = c * s.sk_share + min(c, s.sk_extra);
    end = begin + s.sk_share + (c < s.sk_extra ? 1 : 0);
    return;
  }
  const int d = c - s.sk_ctas;
  const int tile = s.sk_tiles + d / s.split, part = d % s.split;
  begin = tile * s.ipt + part * s.ipt / s.split;
  end = tile * s.ipt + (part + 1) * s.ipt / s.split;
}

// The origin in C of tile `in_batch` of a batch's tiles_m x tiles_n, in the order CTAs take
// them (rasterisation): groups of KT_RASTER tile-rows, each walked column by column, so that
// tiles running together share B's columns and their rows of A stay in L2. KT_RASTER 1 is
// row-major.
__device__ __forceinline__ void kt_tile_origin(const KtSchedule& s, int in_batch, int& row0, int& col0) {
  const int per_group = KT_RASTER * s.tiles_n;
  const int first = in_batch / per_group * KT_RASTER;
  const int height = min(s.tiles_m - first, KT_RASTER);
  const int within = in_batch % per_group;
  row0 = (first + within % height) * KT_BM;
  col0 = within / height * KT_BN;
}

// The workspace slot of unit c's segment of the tile starting at t_begin: its first segment
// (the one starting where its range does) or its last.
__device__ __forceinline__ int kt_slot(const KtSchedule& s, int c, int t_begin) {
  int b, e;
  kt_cta_range(s, c, b, e);
  return (b >= t_begin) ? c : s.units + c;
}

// Where the threads computing a tile meet in its epilogue: the whole CTA, or, beside a producer
// warp that only loads (KT_PRODUCER_WARP: gemm_wgmma_tma.cu), the KT_THREADS consumers alone,
// on named barrier 1 (the producer never reaches the epilogue).
__device__ __forceinline__ void kt_tile_sync() {
#if defined(KT_PRODUCER_WARP) && KT_PRODUCER_WARP
  asm volatile("bar.sync 1, %0;" ::"n"(KT_THREADS) : "memory");
#else
  __syncthreads();
#endif
}

// Two accumulators side by side in one store: float2 or double2.
template <typename T> struct KtPair;
template <> struct KtPair<float> { typedef float2 T; };
template <> struct KtPair<double> { typedef double2 T; };

// Brings unit `me`'s part of a tile together with its peers'. `acc[q]` is the thread's q-th
// accumulator, held by thread `tid` of the TILE_THREADS computing the tile. A unit with the whole
// tile has it already; otherwise it leaves its partial in its slot and counts itself in, and the
// last to arrive adds the others'. Returns whether this unit now holds the tile's sum and stores it.
// `meet` is two ints of shared memory where thread 0 tells the others the tile's first and last
// unit (the last < 0 when another unit finishes the tile).
template <int PER_THREAD>
__device__ __forceinline__ bool kt_fixup_tile(const KtSchedule& s, int me, int tile, int t_begin, int seg_begin,
                                              int seg_end, KT_ACC (&acc)[PER_THREAD], KT_ACC* __restrict__ workspace,
                                              int* __restrict__ counters, volatile int* meet) {
  const int tid = threadIdx.x;
  const int t_end = t_begin + s.ipt;
  if (seg_begin == t_begin && seg_end == t_end) return true;
  KT_ACC* mine = workspace + (long long)kt_slot(s, me, t_begin) * (KT_BM * KT_BN);
#pragma unroll
  for (int q = 0; q < PER_THREAD; ++q) mine[q * KT_THREADS + tid] = acc[q];
  __threadfence();
  kt_tile_sync();
  if (tid == 0) {
    // The units whose ranges meet this tile are consecutive: walk out from this one.
    int lo = me, hi = me;
    int b, e;
    for (; lo > 0; --lo) {
      kt_cta_range(s, lo - 1, b, e);
      if (e <= t_begin) break;
    }
    for (; hi + 1 < s.units; ++hi) {
      kt_cta_range(s, hi + 1, b, e);
      if (b >= t_end) break;
    }
    const int arrived = atomicAdd(counters + tile, 1);
    meet[0] = lo;
    meet[1] = arrived == hi - lo ? hi : -1;
  }
  kt_tile_sync();
  const int lo = meet[0], hi = meet[1];
  if (hi < 0) return false;
  __threadfence();
  for (int p = lo; p <= hi; ++p) {
    if (p == me) continue;
    const KT_ACC* theirs = workspace + (long long)kt_slot(s, p, t_begin) * (KT_BM * KT_BN);
#pragma unroll
    for (int q = 0; q < PER_THREAD; ++q) acc[q] += __ldcg(theirs + q * KT_THREADS + tid);
  }
  if (tid == 0) counters[tile] = 0;  // ready for the next run
  return true;
}

// Stores a tile's accumulators into `base` (C, or split-K's copy of it), each at tile row
// row_of(q) and column col_of(q).
// PAIRED: accumulators q and q + 1 (q even) lie side by side in a row, q's column even (the
// tensor kernels' fragments, SIMT micro-tiles of even width), so that where C's rows have an
// even length a pair goes out in one store: the epilogue's scalar stores filled the SM's store
// queue (H100 profile of 4096 x 4096 x 512: LG throttle 55% of a warp's stalls).
template <int PER_THREAD, bool PAIRED, typename RowOf, typename ColOf>
__device__ __forceinline__ void kt_store_tile(const KtSchedule& s, int tile, const KT_ACC (&acc)[PER_THREAD],
                                              RowOf row_of, ColOf col_of, KT_ACC* __restrict__ base) {
  const int per_batch = s.tiles_m * s.tiles_n;
  const int b = tile / per_batch;
  int row0, col0;
  kt_tile_origin(s, tile % per_batch, row0, col0);
  KT_ACC* out = base + (long long)b * s.m * s.n;
  if (PAIRED && s.n % 2 == 0) {
#pragma unroll
    for (int q = 0; q < PER_THREAD; q += 2) {
      const int row = row0 + row_of(q), col = col0 + col_of(q);
      typedef typename KtPair<KT_ACC>::T Pair;
      // n even and col even: the pair is whole inside the row, aligned to its size.
      if (row < s.m && col < s.n) *reinterpret_cast<Pair*>(out + (long long)row * s.n + col) = Pair{acc[q], acc[q + 1]};
    }
    return;
  }
#pragma unroll
  for (int q = 0; q < PER_THREAD; ++q) {
    const int row = row0 + row_of(q), col = col0 + col_of(q);
    if (row < s.m && col < s.n) out[(long long)row * s.n + col] = acc[q];
  }
}

// Writes unit `me`'s part of a tile (kt_fixup_tile, kt_store_tile). Fixed split-K
// (KT_SPLIT_REDUCE 1) instead stores each part whole into its own copy of C in the workspace, and
// a launch of its own adds the copies (gemm_split_reduce.cu).
template <int PER_THREAD, bool PAIRED, typename RowOf, typename ColOf>
__device__ __forceinline__ void kt_finish_tile(const KtSchedule& s, int me, int tile, int t_begin, int seg_begin,
                                               int seg_end, KT_ACC (&acc)[PER_THREAD], RowOf row_of, ColOf col_of,
                                               KT_ACC* __restrict__ c, KT_ACC* __restrict__ workspace,
                                               int* __restrict__ counters) {
#if KT_SPLIT_REDUCE
  kt_store_tile<PER_THREAD, PAIRED>(s, tile, acc, row_of, col_of,
                                    workspace + (long long)((me - s.sk_ctas) % s.split) * s.batch * s.m * s.n);
#else
  __shared__ int kt_meet[2];
  if (kt_fixup_tile<PER_THREAD>(s, me, tile, t_begin, seg_begin, seg_end, acc, workspace, counters, kt_meet))
    kt_store_tile<PER_THREAD, PAIRED>(s, tile, acc, row_of, col_of, c);
#endif
}

// A(b, row, kk) and B(b, kk, col) of one batch's operands (gemm_shape.h), zero outside.
__device__ __forceinline__ KT_IN kt_load_a(const KT_IN* a, const KtSchedule& s, int row, int kk) {
  if (row >= s.m || kk >= s.k) return (KT_IN)0;
  return KT_A_T ? a[(long long)kk * s.m + row] : a[(long long)row * s.k + kk];
}
__device__ __forceinline__ KT_IN kt_load_b(const KT_IN* b, const KtSchedule& s, int kk, int col) {
  if (col >= s.n || kk >= s.k) return (KT_IN)0;
  return KT_B_T ? b[(long long)col * s.k + kk] : b[(long long)kk * s.n + col];
}

// What each thread loads of a k-slice: BM x BK of A and BK x BN of B spread over the CTA, in
// vectors of KT_*_VEC elements along the operand's contiguous dimension, up to KT_VECTOR_BYTES
// (16 for the tensor kernel: a 2-byte element loaded alone wastes most of each load; the SIMT
// kernel's element, whose registers cannot hold both paths' addresses without spilling).
#define KT_A_LOADS (KT_BM * KT_BK / KT_THREADS)
#define KT_B_LOADS (KT_BK * KT_BN / KT_THREADS)
#define KT_VEC_MAX (KT_VECTOR_BYTES / (int)sizeof(KT_IN))
#define KT_VEC_OF(loads, run) \
  ((loads) % KT_VEC_MAX == 0 && (run) % KT_VEC_MAX == 0 ? KT_VEC_MAX \
   : KT_VEC_MAX >= 4 && (loads) % (KT_VEC_MAX / 2) == 0 && (run) % (KT_VEC_MAX / 2) == 0 ? KT_VEC_MAX / 2 : 1)
#define KT_A_VEC KT_VEC_OF(KT_A_LOADS, KT_A_T ? KT_BM : KT_BK)
#define KT_B_VEC KT_VEC_OF(KT_B_LOADS, KT_B_T ? KT_BK : KT_BN)
// Load i of this thread: vector i / VEC (threads take neighbouring vectors), element i % VEC.
#define KT_A_E(i) ((threadIdx.x + (i) / KT_A_VEC * KT_THREADS) * KT_A_VEC + (i) % KT_A_VEC)
#define KT_B_E(i) ((threadIdx.x + (i) / KT_B_VEC * KT_THREADS) * KT_B_VEC + (i) % KT_B_VEC)

// N elements from p, 16-byte aligned or aligned to N of them, in one load.
template <int BYTES> struct KtBits;
template <> struct KtBits<2> { typedef unsigned short T; };
template <> struct KtBits<4> { typedef unsigned T; };
template <> struct KtBits<8> { typedef uint2 T; };
template <> struct KtBits<16> { typedef uint4 T; };
template <int N>
__device__ __forceinline__ void kt_load_vector(const KT_IN* p, KT_IN* out) {
  union {
    typename KtBits<N * sizeof(KT_IN)>::T bits;
    KT_IN e[N];
  } v;
  v.bits = *reinterpret_cast<const typename KtBits<N * sizeof(KT_IN)>::T*>(p);
#pragma unroll
  for (int j = 0; j < N; ++j) out[j] = v.e[j];
}

// Slice element e of A at (row, kk), of B at (kk, col): along the operand's contiguous
// dimension first, so that neighbouring threads read neighbouring addresses.
__device__ __forceinline__ void kt_a_element(int e, int& row, int& kk) {
  if (KT_A_T) { kk = e / KT_BM; row = e % KT_BM; } else { row = e / KT_BK; kk = e % KT_BK; }
}
__device__ __forceinline__ void kt_b_element(int e, int& kk, int& col) {
  if (KT_B_T) { col = e / KT_BK; kk = e % KT_BK; } else { kk = e / KT_BN; col = e % KT_BN; }
}

// This thread's elements of the slice at k0 of the tile at (row0, col0), into registers: a
// vector in one load where it lies whole inside the operand and its rows keep vectors aligned
// (the leading dimension a multiple of the vector), element by element (zero outside) elsewhere.
__device__ __forceinline__ void kt_fetch(const KT_IN* a, const KT_IN* b, const KtSchedule& s, int row0, int col0,
                                         int k0, KT_IN (&ra)[KT_A_LOADS], KT_IN (&rb)[KT_B_LOADS]) {
  int r, kk, c;
  const bool a_aligned = (KT_A_T ? s.m : s.k) % KT_A_VEC == 0;
#pragma unroll
  for (int i = 0; i < KT_A_LOADS; i += KT_A_VEC) {
    kt_a_element(KT_A_E(i), r, kk);
    const int row = row0 + r, k = k0 + kk;
    const bool whole = KT_A_T ? row + KT_A_VEC <= s.m && k < s.k : row < s.m && k + KT_A_VEC <= s.k;
    if (KT_A_VEC > 1 && a_aligned && whole) {
      kt_load_vector<KT_A_VEC>(KT_A_T ? a + (long long)k * s.m + row : a + (long long)row * s.k + k, ra + i);
    } else {
#pragma unroll
      for (int j = 0; j < KT_A_VEC; ++j) ra[i + j] = kt_load_a(a, s, row + (KT_A_T ? j : 0), k + (KT_A_T ? 0 : j));
    }
  }
  const bool b_aligned = (KT_B_T ? s.k : s.n) % KT_B_VEC == 0;
#pragma unroll
  for (int i = 0; i < KT_B_LOADS; i += KT_B_VEC) {
    kt_b_element(KT_B_E(i), kk, c);
    const int k = k0 + kk, col = col0 + c;
    const bool whole = KT_B_T ? col < s.n && k + KT_B_VEC <= s.k : k < s.k && col + KT_B_VEC <= s.n;
    if (KT_B_VEC > 1 && b_aligned && whole) {
      kt_load_vector<KT_B_VEC>(KT_B_T ? b + (long long)col * s.k + k : b + (long long)k * s.n + col, rb + i);
    } else {
#pragma unroll
      for (int j = 0; j < KT_B_VEC; ++j) rb[i + j] = kt_load_b(b, s, k + (KT_B_T ? j : 0), col + (KT_B_T ? 0 : j));
    }
  }
}

// cp.async, for the tensor-core kernels' rings of k-slices: one 16-byte chunk from global to
// shared memory; a chunk outside the operand reads no bytes (its address, which may lie past the
// operand, is not dereferenced) and fills its 16 with zeros.
__device__ __forceinline__ void kt_cp_async16(unsigned shared_address, const KT_IN* src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(shared_address), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void kt_cp_async16(KT_IN* dst, const KT_IN* src, bool valid) {
  kt_cp_async16((unsigned)__cvta_generic_to_shared(dst), src, valid);
}
__device__ __forceinline__ void kt_cp_async_commit() { asm volatile("cp.async.commit_group;"); }

// ROWS x COLS of an operand stored with leading dimension `ld`, from (r0, c0), valid inside
// rows_total x cols_total (zeros outside), into `dst` with leading dimension LD: the
// tensor-core kernels' stage of a ring. 16-byte chunks by cp.async, neighbouring threads on
// neighbouring chunks of a row. Where the CTA's threads span whole rows, a thread's chunks lie
// in one column, a fixed count of rows apart: one address and one bound a slice, the rest by
// increments (a 64-bit multiply and two bounds a chunk made 21 instructions a DMMA: H100
// profile of cbcb423). Contiguous extents that are not a chunk's multiple (KT_ALIGNED 0) are
// copied element by element, synchronously.
template <int ROWS, int COLS, int LD>
__device__ __forceinline__ void kt_copy_slice(KT_IN* dst, const KT_IN* src, int ld, int r0, int c0, int rows_total,
                                              int cols_total) {
  constexpr int kElements = 16 / sizeof(KT_IN), kPerRow = COLS / kElements, kChunks = ROWS * kPerRow;
#if KT_ALIGNED
  constexpr bool kInColumns = KT_THREADS % kPerRow == 0 && kChunks % KT_THREADS == 0;
#else
  constexpr bool kInColumns = false;
#endif
  if (kInColumns) {
    constexpr int kStep = KT_THREADS / kPerRow;  // rows between a thread's chunks
    const int r = threadIdx.x / kPerRow, c = threadIdx.x % kPerRow * kElements;
    const KT_IN* from = src + (long long)(r0 + r) * ld + (c0 + c);
    const long long step = (long long)kStep * ld;
    const bool inside = c0 + c < cols_total;
    const int rows_left = rows_total - r0 - r;
    const unsigned to = (unsigned)__cvta_generic_to_shared(dst + r * LD + c);  // then compile-time offsets
#pragma unroll
    for (int i = 0; i < kChunks / KT_THREADS; ++i)
      kt_cp_async16(to + i * kStep * LD * (int)sizeof(KT_IN), from + i * step, inside && i * kStep < rows_left);
  } else {
#pragma unroll
    for (int i = 0; i < (kChunks + KT_THREADS - 1) / KT_THREADS; ++i) {
      const int chunk = i * KT_THREADS + threadIdx.x;
      if (kChunks % KT_THREADS != 0 && chunk >= kChunks) break;
      const int r = chunk / kPerRow, c = chunk % kPerRow * kElements;
      const int row = r0 + r, col = c0 + c;
      KT_IN* to = dst + r * LD + c;
#if KT_ALIGNED
      const bool valid = row < rows_total && col < cols_total;
      kt_cp_async16(to, valid ? src + (long long)row * ld + col : src, valid);
#else
#pragma unroll
      for (int j = 0; j < kElements; ++j)
        to[j] = row < rows_total && col + j < cols_total ? src[(long long)row * ld + col + j] : (KT_IN)0;
#endif
    }
  }
}

// The k-slice at k0 of the tile at (row0, col0) into one stage of the ring: A's slice as
// [BK][A_LD] where stored transposed (m contiguous), else [BM][A_LD]; B's as [BN][B_LD] where
// transposed (k contiguous), else [BK][B_LD] (the kernel pads the rows).
template <int A_LD, int B_LD>
__device__ __forceinline__ void kt_load_stage(KT_IN* sa, KT_IN* sb, const KT_IN* a, const KT_IN* b, const KtSchedule& s,
                                              int row0, int col0, int k0) {
  if (KT_A_T) kt_copy_slice<KT_BK, KT_BM, A_LD>(sa, a, s.m, k0, row0, s.k, s.m);
  else kt_copy_slice<KT_BM, KT_BK, A_LD>(sa, a, s.k, row0, k0, s.m, s.k);
  if (KT_B_T) kt_copy_slice<KT_BN, KT_BK, B_LD>(sb, b, s.k, col0, k0, s.n, s.k);
  else kt_copy_slice<KT_BK, KT_BN, B_LD>(sb, b, s.n, k0, col0, s.k, s.n);
}
// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void kt_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
}

// The cp.async ring over `iterations` k-slices of one tile, from slice it0: KT_STAGES - 1 slices
// in flight while a slice's STEPS k-steps compute. `load(sa_stage, sb_stage, step, buffer)`
// reads a step's fragments from shared memory into one of two register buffers;
// `compute(buffer, sa_stage, sb_stage, step, more)` multiplies a buffer's fragments and, where
// `more`, reads that step of that stage into the other buffer as it goes. AHEAD computes each step
// while the next one's fragments load, across a slice's end too, so that no product waits for
// shared memory (STEPS even: every slice then starts on buffer 0); otherwise a step loads into
// buffer 0, then computes. sa and sb are the rings' bases; the stage layouts are the kernel's (its
// padding), hence template parameters. Ends with every copy landed, so the caller may reuse the
// ring.
template <int A_LD, int B_LD, int A_STAGE, int B_STAGE, int STEPS, bool AHEAD, typename Load, typename Compute>
__device__ __forceinline__ void kt_ring_mainloop(KT_IN* sa, KT_IN* sb, const KT_IN* a, const KT_IN* b,
                                                 const KtSchedule& s, int row0, int col0, int it0, int iterations,
                                                 Load load, Compute compute) {
  static_assert(!AHEAD || STEPS % 2 == 0, "a slice's steps alternate two fragment buffers");
  __syncthreads();  // every warp is done with the previous tile's slices
#pragma unroll
  for (int st = 0; st < KT_STAGES - 1; ++st) {
    if (st < iterations)
      kt_load_stage<A_LD, B_LD>(sa + st * A_STAGE, sb + st * B_STAGE, a, b, s, row0, col0, (it0 + st) * KT_BK);
    kt_cp_async_commit();
  }
  if (AHEAD) {
    kt_cp_async_wait<KT_STAGES - 2>();  // slice 0 has landed (this thread's chunks)
    __syncthreads();                    // ... every thread's
    load(sa, sb, 0, 0);
  }
  int read = 0, write = KT_STAGES - 1;
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
    if (!AHEAD) {
      kt_cp_async_wait<KT_STAGES - 2>();  // slice i has landed (this thread's chunks)
      __syncthreads();                    // ... every thread's, and slice i - 1's stage is free
    }
    // Slice i - 1's stage is free: every warp read its last fragments before the barrier above
    // or (AHEAD) the one that let it read slice i's first.
    if (i + KT_STAGES - 1 < iterations)
      kt_load_stage<A_LD, B_LD>(sa + write * A_STAGE, sb + write * B_STAGE, a, b, s, row0, col0,
                                (it0 + i + KT_STAGES - 1) * KT_BK);
    kt_cp_async_commit();
    write = write + 1 == KT_STAGES ? 0 : write + 1;
    const int next = read + 1 == KT_STAGES ? 0 : read + 1;
#pragma unroll
    for (int step = 0; step < STEPS; ++step) {
      if (!AHEAD) {
        load(sa + read * A_STAGE, sb + read * B_STAGE, step, 0);
        compute(0, sa, sb, 0, false);
      } else if (step + 1 < STEPS) {
        compute(step % 2, sa + read * A_STAGE, sb + read * B_STAGE, step + 1, true);
      } else {
        const bool more = i + 1 < iterations;
        if (more) {
          kt_cp_async_wait<KT_STAGES - 2>();  // slice i + 1 has landed (this thread's chunks)
          __syncthreads();                    // ... every thread's
        }
        compute(step % 2, sa + next * A_STAGE, sb + next * B_STAGE, 0, more);
      }
    }
    read = next;
  }
  kt_cp_async_wait<0>();
}
