// Shared by every PageRank kernel: PagerankFamily::source() places this before the
// direction's own file (NVRTC sees one self-contained translation unit). KT_VALUE (float or
// double), KT_BLOCK (threads per block), KT_LANES (threads per vertex in the edge pass) and
// KT_ITEMS (vertices per thread group) come from -D options.
//
// sums[0] is the rank held by vertices without out-edges (spread uniformly over all), sums[1]
// the L1 change of the iteration; pagerank_check reads and clears both.
typedef KT_VALUE value_t;

// Adds every thread's v into *total, one atomic per warp (its lanes summed by shuffles).
// Every lane of the warp must call it.
__device__ __forceinline__ void add_to_total(value_t v, value_t* total) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0 && v != value_t(0)) atomicAdd(total, v);
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
