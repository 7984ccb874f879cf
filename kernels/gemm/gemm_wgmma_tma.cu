// The wgmma GEMM (gemm_wgmma.cu's tiling, descriptors and epilogue) fed by TMA instead of
// cp.async: one producer thread (lane 0 of a warp beside the KT_THREADS consumers) issues each
// k-slice of A and B (128 bytes of k a row) as two bulk tensor copies into a ring stage, in the 128-byte
// swizzle the descriptors name (the tensor maps ask for CU_TENSOR_MAP_SWIZZLE_128B, which
// places 16-byte chunk c of 128-byte row r at chunk c ^ (r % 8) of a 1024-byte-aligned stage).
// Each stage has a full barrier (the producer's expect_tx; the copies' bytes complete it) and
// an empty one (each consumer warp arrives once its wgmma on the stage is done). No thread
// computes an address or waits for a copy of its own, and the k-tail and ragged tile edges
// arrive as zeros from the TMA unit.
// KT_CLUSTER 2: the two CTAs of a cluster compute neighbouring tiles that share one operand's
// slice (KT_SHARE 1: A, the same tile-row; 2: B, the same tile-column; gemm_schedule.h pads
// the tile grid so every pair exists): each loads half of it and multicasts the half to both,
// so L2 serves that operand once per pair. A stage then holds bytes the peer wrote, so its
// empty barrier waits for both CTAs' consumer warps (each arrives on its own and its peer's),
// and neither CTA exits before the other is done arriving on it.
// KT_TMA_STORE 1: C's tiles leave through shared memory by TMA (kt_store_tile_tma), so that a
// warpgroup's next tile starts while the last one's stores drain (an epilogue of direct stores
// held the warps until the store queue took them: 4096 x 4096 x 512 ran 0.67x cuBLAS, whose
// kernels store by TMA).
// Parameters (-D) beyond gemm_wgmma.cu's: KT_CLUSTER, KT_SHARE, KT_PRODUCER_WARP (1), KT_TMA_STORE.
#define KT_CONSUMER_WARPS (KT_THREADS / 32)
#define KT_STAGE_TX (KT_A_BYTES + KT_B_BYTES)

// Where the next slice comes from in the tensor maps' coordinates: k, and the first row of
// the batch-stacked A (batch * m + row0) and B transposed (batch * n + col0).
struct KtTmaCursor {
  int it, tile_end, k0, a_row, b_row;
};

__device__ __forceinline__ void kt_tma_seek(KtTmaCursor& c, const KtSchedule& s, int it) {
  const int tile = it / s.ipt, per_batch = s.tiles_m * s.tiles_n;
  const int batch = tile / per_batch;
  int row0, col0;
  kt_tile_origin(s, tile % per_batch, row0, col0);
  c.it = it;
  c.tile_end = (tile + 1) * s.ipt;
  c.k0 = (it - tile * s.ipt) * KT_BK;
  c.a_row = batch * s.m + row0;
  c.b_row = batch * s.n + col0;
}

// One operand's slice into its stage: whole, or (shared in a cluster of 2) this CTA's half,
// multicast to both CTAs.
template <int ROWS, bool SHARED>
__device__ __forceinline__ void kt_tma_slice(unsigned dst, const KtTensorMap* map, int k0, int row, unsigned bar,
                                             unsigned rank) {
  if (SHARED) {
    const int half = rank * (ROWS / 2);
    kt_tma_multicast(dst + half * 128, map, k0, row + half, bar, (unsigned short)0x3);
  } else {
    kt_tma_load(dst, map, k0, row, bar);
  }
}

// The producer: the CTA's units' iterations in the consumers' order, each into the next stage
// once every reader of its previous slice has let it go. The ring runs on across units, so a
// persistent CTA's next tile loads while its consumers store the last one.
__device__ __forceinline__ void kt_produce(const KtSchedule& s, const KtTensorMap* map_a, const KtTensorMap* map_b,
                                           unsigned sa, unsigned sb, unsigned full, unsigned empty) {
  const unsigned rank = KT_CLUSTER > 1 ? kt_cluster_rank() : 0;
  kt_tma_prefetch(map_a);
  kt_tma_prefetch(map_b);
  int stage = 0;
  unsigned phase = 0;
  for (int unit = blockIdx.x; unit < s.units; unit += s.grid) {
    int begin, end;
    kt_cta_range(s, unit, begin, end);
    KtTmaCursor cur;
    kt_tma_seek(cur, s, begin);
    for (int it = begin; it < end; ++it) {
      kt_mbar_wait(empty + stage * 8, phase ^ 1);  // round 0: the phase before the first, complete
      const unsigned bar = full + stage * 8;
      kt_mbar_expect_tx(bar, KT_STAGE_TX);  // both halves of a shared slice land here
      kt_tma_slice<KT_BM, KT_CLUSTER == 2 && KT_SHARE == 1>(sa + stage * KT_A_BYTES, map_a, cur.k0, cur.a_row, bar, rank);
      kt_tma_slice<KT_BN, KT_CLUSTER == 2 && KT_SHARE == 2>(sb + stage * KT_B_BYTES, map_b, cur.k0, cur.b_row, bar, rank);
      if (it + 1 == cur.tile_end) kt_tma_seek(cur, s, it + 1);
      else cur.k0 += KT_BK;
      if (++stage == KT_STAGES) stage = 0, phase ^= 1;
    }
  }
}

// A consumer warp lets a stage go: in a cluster, in both CTAs (the producers of both write it).
// Lane 0 arrives for its warp, which has passed wgmma.wait_group as a whole: on its own CTA's
// barrier directly, on the peer's through mapa (kt_mbar_arrive_cluster: no cluster-scope
// release). The warp then reconverges for the next .aligned wgmma instruction.
__device__ __forceinline__ void kt_release(unsigned bar, unsigned rank) {
  if (threadIdx.x % 32 == 0) {
    kt_mbar_arrive(bar);
#pragma unroll
    for (unsigned r = 0; r < KT_CLUSTER; ++r)
      if (r != rank) kt_mbar_arrive_cluster(bar, r);
  }
  __syncwarp();
}

#if KT_TMA_STORE
#define KT_C_BOX_BYTES 1024  // a warp's 16 rows by 16 columns of f32: 64-byte rows

// A warpgroup's part of a tile, stored box by box, each warp its own 16 rows through its two
// buffers at `buffers`: its threads write their fragments of a box (in the 64-byte swizzle the
// tensor map reads: 16-byte chunk c of row r at c ^ (r / 2 % 4), which also puts a store's eight
// rows in distinct banks), lane 0 hands the box to the TMA unit, and the warp goes on to the
// next box, rewriting a buffer once the TMA unit has read what it held; after the last, to the
// next tile's products. No warp waits for another. `boxes` counts the warp's boxes over its tiles.
__device__ __forceinline__ void kt_store_tile_tma(const KtSchedule& s, int tile, const float (&acc)[KT_PER_THREAD],
                                                  int grow, int gcol, unsigned buffers, const KtTensorMap* map_c,
                                                  unsigned& boxes) {
  const int per_batch = s.tiles_m * s.tiles_n, batch = tile / per_batch;
  int row0, col0;
  kt_tile_origin(s, tile % per_batch, row0, col0);
  const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
#pragma unroll
  for (int mb = 0; mb < KT_M_BLOCKS; ++mb) {
#pragma unroll
    for (int cb = 0; cb < KT_TN / 16; ++cb) {
      const unsigned buffer = buffers + (boxes & 1) * KT_C_BOX_BYTES;
      if (boxes >= 2) {
        if (lane == 0) kt_tma_store_wait_read<1>();  // the box before last has left this buffer
        __syncwarp();
      }
#pragma unroll
      for (int j = 0; j < 2; ++j) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          // Accumulators q, q + 1: box row lane / 4 + 8h, columns 8j + 2 (lane % 4) and the next.
          const int q = mb * (KT_TN / 2) + (cb * 2 + j) * 4 + h * 2;
          const int r = lane / 4 + h * 8;
          const unsigned at = buffer + r * 64 + ((j * 2 + lane % 4 / 2) ^ (r / 2 % 4)) * 16 + lane % 2 * 8;
          asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(acc[q]), "f"(acc[q + 1]) : "memory");
        }
      }
      kt_fence_proxy_async();
      __syncwarp();
      if (lane == 0) kt_tma_store(map_c, buffer, col0 + gcol + cb * 16, row0 + grow + mb * 64 + warp * 16, batch);
      ++boxes;
    }
  }
  __syncwarp();  // converged for the next .aligned wgmma
}
#endif

extern "C" __global__ void __launch_bounds__(KT_THREADS + 32, KT_MIN_CTAS)
    gemm_wgmma_tma(KT_SCHEDULE_PARAMS, const __grid_constant__ KtTensorMap map_a,
                   const __grid_constant__ KtTensorMap map_b,
#if KT_TMA_STORE
                   const __grid_constant__ KtTensorMap map_c,
#endif
                   KT_ACC* __restrict__ c, KT_ACC* __restrict__ workspace,
                   int* __restrict__ counters) {
  const KtSchedule s = KT_SCHEDULE;
  extern __shared__ __align__(1024) unsigned char kt_dynamic_smem[];
  // The swizzle repeats every 1024 bytes: the ring starts on such a boundary, C's boxes (KT_TMA_STORE)
  // follow it, then the barriers (at the same offsets in every CTA, as multicast and mapa need).
  // Without static shared memory (KT_TMA_STORE: the fix-up's two ints follow the barriers) the
  // dynamic memory starts there and the host asks for no room to align it: a CTA whose start
  // were not aligned would stop here rather than write past its memory.
  const unsigned base = (unsigned)__cvta_generic_to_shared(kt_dynamic_smem);
  const unsigned ring = (base + 1023u) & ~1023u;
  const unsigned sa = ring, sb = ring + KT_STAGES * KT_A_BYTES;
#if KT_TMA_STORE
  if (ring != base) __trap();
  const unsigned c_boxes = sb + KT_STAGES * KT_B_BYTES;
  const unsigned full = c_boxes + KT_CONSUMER_WARPS * 2 * KT_C_BOX_BYTES;
  int* const meet = reinterpret_cast<int*>(kt_dynamic_smem + (full + 2 * KT_STAGES * 8 - base));
#else
  const unsigned full = sb + KT_STAGES * KT_B_BYTES;
#endif
  const unsigned empty = full + KT_STAGES * 8;
  if (threadIdx.x == KT_THREADS) {
    for (int st = 0; st < KT_STAGES; ++st) {
      kt_mbar_init(full + st * 8, 1);
      kt_mbar_init(empty + st * 8, KT_CONSUMER_WARPS * KT_CLUSTER);
    }
    kt_mbar_init_fence();
  }
  // The barriers are initialised before anything waits on them, the peer's before this CTA's
  // copies or arrivals reach them.
  if (KT_CLUSTER > 1) kt_cluster_sync();
  else __syncthreads();
  if (threadIdx.x >= KT_THREADS) {
    if (threadIdx.x == KT_THREADS) kt_produce(s, &map_a, &map_b, sa, sb, full, empty);
    __syncwarp();
  } else {
    const int group = threadIdx.x / 128, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
    const int grow = group / KT_WG_N * KT_TM, gcol = group % KT_WG_N * KT_TN;
    const unsigned rank = KT_CLUSTER > 1 ? kt_cluster_rank() : 0;
    int stage = 0, held = 0;
    unsigned phase = 0;
#if KT_TMA_STORE
    unsigned boxes = 0;
#endif
    for (int unit = blockIdx.x; unit < s.units; unit += s.grid) {
      int begin, end;
      kt_cta_range(s, unit, begin, end);
      int it = begin;
      while (it < end) {
        const int tile = it / s.ipt, t_begin = tile * s.ipt;
        const int seg_end = min(end, t_begin + s.ipt);
        float acc[KT_PER_THREAD];  // per tile, outside any branch (kt_clear_accumulators)
        kt_clear_accumulators(acc);
        for (const int first = it; it < seg_end; ++it) {
          kt_mbar_wait(full + stage * 8, phase);
          kt_wgmma_slice(acc, sa + stage * KT_A_BYTES, sb + stage * KT_B_BYTES, grow, gcol);
          asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");  // the previous slice's products are done
          if (it != first) kt_release(empty + held * 8, rank);
          held = stage;
          if (++stage == KT_STAGES) stage = 0, phase ^= 1;
        }
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        kt_fence_operands(acc);
        kt_release(empty + held * 8, rank);
#if KT_TMA_STORE
        if (kt_fixup_tile<KT_PER_THREAD>(s, unit, tile, t_begin, max(begin, t_begin), seg_end, acc, workspace, counters,
                                         meet))
          kt_store_tile_tma(s, tile, acc, grow, gcol, c_boxes + threadIdx.x / 32 * 2 * KT_C_BOX_BYTES, &map_c, boxes);
#else
        kt_finish_tile<KT_PER_THREAD, true>(
            s, unit, tile, t_begin, max(begin, t_begin), seg_end, acc,
            [=](int q) { return grow + q / (KT_TN / 2) * 64 + warp * 16 + lane / 4 + q % 4 / 2 * 8; },
            [=](int q) { return gcol + q % (KT_TN / 2) / 4 * 8 + lane % 4 * 2 + q % 2; }, c, workspace, counters);
#endif
      }
    }
#if KT_TMA_STORE
    if (lane == 0) kt_tma_store_wait_all();  // the CTA's shared memory outlives the stores' reads
#endif
  }
  // A peer may still arrive on this CTA's empty barriers (or, with one CTA, nothing is pending).
  if (KT_CLUSTER > 1) kt_cluster_sync();
}
