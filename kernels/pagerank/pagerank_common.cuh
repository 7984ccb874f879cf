// Shared by every PageRank kernel: PagerankFamily::source() places this before the
// direction's own file (NVRTC sees one self-contained translation unit). KT_VALUE (float or
// double), KT_BLOCK (threads per block), KT_LANES (threads per vertex in the edge pass) and
// KT_ITEMS (vertices per thread group) come from -D options.
//
// sums[0] is the rank held by vertices without out-edges (spread uniformly over all), sums[1]
// the L1 change of the iteration; pagerank_check reads and clears both.
typedef KT_VALUE value_t;

// Adds every thread's v into *total with one atomic per block: atomics on one address are
// served one at a time (about a nanosecond each on an H100), so one per warp cost a graph of
// millions of vertices more per iteration than its edges did. Every thread of the block must
// call it, once per kernel (its shared array is not reused).
__device__ __forceinline__ value_t warp_sum(value_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ void add_to_total(value_t v, value_t* total) {
  constexpr int kWarps = (KT_BLOCK + 31) / 32;
  __shared__ value_t warp_totals[kWarps];
  v = warp_sum(v);
  if (kWarps > 1) {
    if ((threadIdx.x & 31) == 0) warp_totals[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x >= 32) return;
    v = warp_sum(threadIdx.x < kWarps ? warp_totals[threadIdx.x] : value_t(0));
  }
  if (threadIdx.x == 0 && v != value_t(0)) atomicAdd(total, v);
}

// Ranks start uniform.
extern "C" __global__ void __launch_bounds__(KT_BLOCK) pagerank_init(int n, value_t* __restrict__ rank) {
  const int v = blockIdx.x * KT_BLOCK + threadIdx.x;
  if (v < n) rank[v] = value_t(1) / value_t(n);
}

// The iteration's end: whether to go on (the change is not yet below the tolerance), and the
// sums cleared for the next one. One thread.
extern "C" __global__ void pagerank_check(value_t tolerance, value_t* __restrict__ sums, int* __restrict__ active) {
  active[0] = sums[1] >= tolerance ? 1 : 0;
  sums[0] = value_t(0);
  sums[1] = value_t(0);
}

// A vertex's new rank from what its in-edges brought, and its share of the change.
__device__ __forceinline__ value_t next_rank(value_t gathered, const value_t* sums, value_t base, value_t damping,
                                             value_t inverse_n) {
  return base + damping * (gathered + sums[0] * inverse_n);
}

// Each vertex's contribution (rank / out-degree) before a pull; vertices without out-edges add
// their rank to the dangling sum.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
pagerank_contrib(int n, const int* __restrict__ out_degree, const value_t* __restrict__ rank,
                 value_t* __restrict__ contrib, value_t* __restrict__ sums) {
  const int u = blockIdx.x * KT_BLOCK + threadIdx.x;
  value_t dangling = 0;
  if (u < n) {
    const int degree = out_degree[u];
    contrib[u] = degree > 0 ? rank[u] / value_t(degree) : value_t(0);
    if (degree == 0) dangling = rank[u];
  }
  add_to_total(dangling, sums);
}

// After a pass that added into `next` (a push, a pull over edges): every vertex turns what it
// received into its rank, and clears `next` for the next iteration (so no fill runs inside the
// loop).
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
pagerank_finish(int n, value_t* __restrict__ next, value_t* __restrict__ rank, value_t* __restrict__ sums,
                value_t base, value_t damping, value_t inverse_n) {
  const int v = blockIdx.x * KT_BLOCK + threadIdx.x;
  value_t change = 0;
  if (v < n) {
    const value_t updated = next_rank(next[v], sums, base, damping, inverse_n);
    change = fabs(updated - rank[v]);
    rank[v] = updated;
    next[v] = value_t(0);
  }
  add_to_total(change, sums + 1);
}
