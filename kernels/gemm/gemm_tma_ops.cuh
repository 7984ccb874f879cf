// The sm_90 pieces of a TMA-fed ring (gemm_wgmma_tma.cu): the tensor-map parameter, mbarriers
// (a stage's "full": its bytes have landed; "empty": every reader is done with it), the bulk
// tensor copies, plain or multicast to the CTAs of a cluster, and the cluster's rank and barrier.
// The mbarrier phases follow CUTLASS's PipelineTmaAsync: a waiter names the parity of the phase
// it waits to see completed; the parity of the phase before the first is complete at once.

// The 128-byte descriptor cuTensorMapEncodeTiled writes, passed by value as a __grid_constant__
// parameter: NVRTC sees no cuda.h, so its layout (opaque, 64-byte aligned) is declared here.
struct __align__(64) KtTensorMap {
  unsigned long long opaque[16];
};

__device__ __forceinline__ void kt_mbar_init(unsigned bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}
// Makes the initialised barriers visible to the cluster's other CTAs and to the async proxy.
__device__ __forceinline__ void kt_mbar_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// The producer's arrival on a full barrier, announcing the bytes its phase waits for (the
// copies' complete_tx counts them down, whichever CTA of the cluster issued them).
__device__ __forceinline__ void kt_mbar_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

// Spins until the phase of parity `parity` of the barrier has completed.
__device__ __forceinline__ void kt_mbar_wait(unsigned bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// One arrival on the barrier at the same offset in CTA `rank` of the cluster: mapa turns the
// local address into that CTA's. The arrival keeps mbarrier.arrive's default .release.cta, as
// CUTLASS's ClusterBarrier::arrive(cta_id) does: an empty barrier's arrival publishes no data
// (the stage was read by wgmma, whose wait_group has retired it, and is next written by TMA),
// so it needs no cluster-scope release. `.release.cluster` (until 62c2d56) asks for a
// cluster-scope fence before every arrival, two per consumer warp and slice, stalling the warp
// that must next issue wgmma: the prime suspect for clusters of 2 running about 1.9x slower
// than CTAs of one on an H100.
__device__ __forceinline__ void kt_mbar_arrive_cluster(unsigned bar, unsigned rank) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(bar),
      "r"(rank)
      : "memory");
}
__device__ __forceinline__ void kt_mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void kt_tma_prefetch(const KtTensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}

// The box at element (x, y) of a 2-d tensor map (x the contiguous dimension) into shared
// memory at `dst`; its bytes count down `bar`. Elements outside the tensor land as zeros and
// still count, so a ragged tile's box completes like any other.
__device__ __forceinline__ void kt_tma_load(unsigned dst, const KtTensorMap* map, int x, int y, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          dst),
      "l"(map), "r"(x), "r"(y), "r"(bar)
      : "memory");
}
// The same box into the same offset `dst` of every CTA of the cluster in `mask`, counting down
// the barrier at offset `bar` in each.
__device__ __forceinline__ void kt_tma_multicast(unsigned dst, const KtTensorMap* map, int x, int y, unsigned bar,
                                                 unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, "
      "%3}], [%4], %5;" ::"r"(dst),
      "l"(map), "r"(x), "r"(y), "r"(bar), "h"(mask)
      : "memory");
}

// The box at (x, y, z) of a 3-d tensor map from shared memory at `src` (laid out and swizzled as
// the map says) to global memory, as this thread's next bulk group; elements outside the
// tensor are not written.
__device__ __forceinline__ void kt_tma_store(const KtTensorMap* map, unsigned src, int x, int y, int z) {
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n"
      "cp.async.bulk.commit_group;" ::"l"(map),
      "r"(src), "r"(x), "r"(y), "r"(z)
      : "memory");
}
// Waits until at most N of this thread's bulk groups have yet to read their shared memory.
template <int N>
__device__ __forceinline__ void kt_tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
// Waits until every bulk group of this thread is complete.
__device__ __forceinline__ void kt_tma_store_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
// Makes this thread's writes to shared memory visible to the TMA unit (the async proxy).
__device__ __forceinline__ void kt_fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

__device__ __forceinline__ unsigned kt_cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}
// Every thread of every CTA of the cluster (a CTA launched without one is a cluster of one).
// Not .aligned: the producer warp's lanes arrive from different paths.
__device__ __forceinline__ void kt_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}
