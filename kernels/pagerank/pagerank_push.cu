// Push: every vertex scatters its contribution (rank / out-degree) along its out-edges with
// atomicAdd into `next`, KT_LANES threads per vertex (1: a thread, 32: a warp), KT_ITEMS
// vertices per group KT_BLOCK / KT_LANES apart; vertices without out-edges add their rank to
// the dangling sum. Then pagerank_finish turns what each vertex received into its rank.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
pagerank_scatter(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                 const value_t* __restrict__ rank, value_t* __restrict__ next, value_t* __restrict__ sums) {
  constexpr int kGroups = KT_BLOCK / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  const int first = blockIdx.x * kGroups * KT_ITEMS + threadIdx.x / KT_LANES;
  value_t dangling = 0;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int u = first + k * kGroups;
    if (u >= n) continue;
    const int begin = row_ptr[u];
    const int end = row_ptr[u + 1];
    if (begin == end) {
      if (lane == 0) dangling += rank[u];
      continue;
    }
    const value_t share = rank[u] / value_t(end - begin);
    for (int i = begin + lane; i < end; i += KT_LANES) atomicAdd(next + col_idx[i], share);
  }
  add_to_total(dangling, sums);
}
