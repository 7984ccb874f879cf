// Pull: after each vertex's contribution (pagerank_contrib), every vertex gathers its
// in-neighbours' contributions over the transposed graph (in_ptr, in_idx) with SpMV's row
// schedules: KT_LANES threads per vertex (1: spmv_row, 2..32: spmv_subwarp), KT_ITEMS
// vertices per group KT_BLOCK / KT_LANES apart. Each vertex writes only its own rank.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
pagerank_pull(int n, const int* __restrict__ in_ptr, const int* __restrict__ in_idx,
              const value_t* __restrict__ contrib, value_t* __restrict__ rank, value_t* __restrict__ sums,
              value_t base, value_t damping, value_t inverse_n) {
  constexpr int kGroups = KT_BLOCK / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  const int first = blockIdx.x * kGroups * KT_ITEMS + threadIdx.x / KT_LANES;
  value_t change = 0;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int v = first + k * kGroups;
    // Lanes past the last vertex stay (with an empty list) so that every shuffle sees a full warp.
    const bool live = v < n;
    const int begin = live ? in_ptr[v] : 0;
    const int end = live ? in_ptr[v + 1] : 0;
    value_t gathered = 0;
#pragma unroll 4
    for (int i = begin + lane; i < end; i += KT_LANES) gathered += __ldg(contrib + in_idx[i]);
#pragma unroll
    for (int offset = KT_LANES / 2; offset > 0; offset /= 2)
      gathered += __shfl_down_sync(0xffffffffu, gathered, offset, KT_LANES);
    if (live && lane == 0) {
      const value_t next = next_rank(gathered, sums, base, damping, inverse_n);
      change += fabs(next - rank[v]);
      rank[v] = next;
    }
  }
  add_to_total(change, sums + 1);
}
