// What both wgmma kernels (gemm_wgmma.cu: cp.async ring; gemm_wgmma_tma.cu: TMA ring) share:
// the warpgroup tiling of the block tile, the 128-byte-swizzled stage of one k-slice of 128 bytes
// a row (64 16-bit elements or 32 tf32; 16-byte chunk c of row r at chunk c ^ (r % 8)), its
// descriptor, the accumulators and a slice's products.
#define KT_WG_N (KT_BN / KT_TN)
#define KT_M_BLOCKS (KT_TM / 64)
#define KT_PER_THREAD (KT_M_BLOCKS * KT_TN / 2)
#define KT_A_BYTES (KT_BM * 128)
#define KT_B_BYTES (KT_BN * 128)

// A wgmma shared-memory descriptor of a k-major operand in 128-byte swizzle: start address,
// leading byte offset 16 (unused by this swizzle), 1024 bytes between groups of 8 rows.
__device__ __forceinline__ unsigned long long kt_descriptor(unsigned address) {
  return (unsigned long long)((address & 0x3FFFF) >> 4) | (1ull << 16) | ((unsigned long long)(1024 >> 4) << 32) |
         (1ull << 62);
}

// Keeps the compiler from moving accumulator reads or writes across the asynchronous
// products that own them until their wait.
__device__ __forceinline__ void kt_fence_operands(float (&acc)[KT_PER_THREAD]) {
#pragma unroll
  for (int q = 0; q < KT_PER_THREAD; ++q) asm volatile("" : "+f"(acc[q])::"memory");
}

// A tile's accumulators cleared before its first product. The caller declares them per tile,
// outside any branch: ptxas serialises wgmma whose accumulators a divergent path may have
// touched.
__device__ __forceinline__ void kt_clear_accumulators(float (&acc)[KT_PER_THREAD]) {
#pragma unroll
  for (int q = 0; q < KT_PER_THREAD; ++q) acc[q] = 0.0f;
  kt_fence_operands(acc);
}

// One stage's slice through the tensor cores: 4 k-steps of 32 bytes along the swizzled rows (16
// k of bf16 or f16, 8 of tf32) of the warpgroup's m64 blocks, committed as one group.
__device__ __forceinline__ void kt_wgmma_slice(float (&acc)[KT_PER_THREAD], unsigned a_stage, unsigned b_stage, int grow,
                                               int gcol) {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (int kk = 0; kk < KT_BK * (int)sizeof(KT_IN) / 32; ++kk)
#pragma unroll
    for (int mb = 0; mb < KT_M_BLOCKS; ++mb)
      kt_wgmma(acc + mb * (KT_TN / 2), kt_descriptor(a_stage + (grow + mb * 64) * 128 + kk * 32),
               kt_descriptor(b_stage + gcol * 128 + kk * 32));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
