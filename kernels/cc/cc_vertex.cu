// The edge pass, KT_LANES threads per vertex (1: a thread per vertex, 32: a warp), each
// group taking KT_ITEMS vertices KT_BLOCK / KT_LANES apart (consecutive groups read
// consecutive row_ptr entries). Label propagation reduces the neighbours' minimum over the
// lanes with shuffles and only the vertex's own label is written (no atomics); hooking links
// every edge on its own; union-find takes each edge once, from its larger end.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
cc_vertex(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx, int* label, int* changed) {
  constexpr int kGroups = KT_BLOCK / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  const int first = blockIdx.x * kGroups * KT_ITEMS + threadIdx.x / KT_LANES;
  bool seen = false;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int v = first + k * kGroups;
    // Lanes past the last vertex stay (with an empty list) so that every shuffle sees a full warp.
    const bool live = v < n;
    const int begin = live ? row_ptr[v] : 0;
    const int end = live ? row_ptr[v + 1] : 0;
#if KT_ALGORITHM == ALGORITHM_UNION_FIND
    for (int i = begin + lane; i < end; i += KT_LANES) {
      const int u = col_idx[i];
      if (u < v) seen |= link(label, v, u);
    }
#elif KT_ALGORITHM == ALGORITHM_HOOKING
    for (int i = begin + lane; i < end; i += KT_LANES) seen |= link(label, v, col_idx[i]);
#else
    int smallest = 0x7fffffff;
    for (int i = begin + lane; i < end; i += KT_LANES) smallest = min(smallest, label[col_idx[i]]);
#pragma unroll
    for (int offset = KT_LANES / 2; offset > 0; offset /= 2)
      smallest = min(smallest, __shfl_down_sync(0xffffffffu, smallest, offset, KT_LANES));
    if (live && lane == 0 && smallest < label[v]) {
      label[v] = smallest;
      seen = true;
    }
#endif
  }
  report_change(seen, changed);
}
