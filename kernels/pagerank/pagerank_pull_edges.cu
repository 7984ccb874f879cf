// Pull over edges: after each vertex's contribution (pagerank_contrib), a thread per in-edge
// (KT_ITEMS of them, a block apart) reads its tail's contribution, and each warp sums its
// edges by head with a segmented reduction (in_row lists every in-edge's head, sorted), so that
// every thread does the same work however skewed the in-degrees: the nonzero split of SpMV. A
// head's sum goes to `next` with a plain store when the warp holds all of its edges, with an
// atomicAdd when they run on past the warp's ends; pagerank_finish makes it the rank.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
pagerank_pull_edges(int m, const int* __restrict__ in_row, const int* __restrict__ in_idx,
                    const value_t* __restrict__ contrib, value_t* __restrict__ next) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int e = (blockIdx.x * KT_ITEMS + k) * KT_BLOCK + threadIdx.x;
    const bool live = e < m;
    const int head = live ? in_row[e] : -1;
    value_t sum = live ? __ldg(contrib + in_idx[e]) : value_t(0);
    // Each lane ends with the sum of its head's edges from itself to the warp's end: lane i
    // takes lane i + d's sum when lane i + d has the same head (heads are sorted, so every
    // lane between has it too).
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const value_t later = __shfl_down_sync(0xffffffffu, sum, d);
      const int later_head = __shfl_down_sync(0xffffffffu, head, d);
      if (lane + d < 32 && later_head == head) sum += later;
    }
    const int earlier_head = __shfl_up_sync(0xffffffffu, head, 1);
    const int last_head = __shfl_sync(0xffffffffu, head, 31);
    if (live && (lane == 0 || earlier_head != head)) {
      // Edges of this head before lane 0 or after lane 31 belong to other warps.
      if (lane == 0 || head == last_head) {
        atomicAdd(next + head, sum);
      } else {
        next[head] = sum;
      }
    }
  }
}
