// The edge pass, KT_LANES threads per vertex (1: a thread per vertex, 32: a warp), each
// group taking KT_ITEMS vertices KT_BLOCK / KT_LANES apart (consecutive groups read
// consecutive row_ptr entries). A vertex's neighbours are its out-list and the rest of its
// in-list (cc_edges.h; both_ways 0: there is no rest, the graph is symmetric).
// Label propagation reduces the neighbours' minimum over the lanes with shuffles and only the
// vertex's own label is written (no atomics); hooking links every edge on its own; union-find
// takes each edge once, from its larger end.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
cc_vertex(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx, const int* __restrict__ rest_ptr,
          const int* __restrict__ rest_idx, int both_ways, int* label, int* changed) {
  constexpr int kGroups = KT_BLOCK / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  const int first = blockIdx.x * kGroups * KT_ITEMS + threadIdx.x / KT_LANES;
  start_change_report();
  bool seen = false;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int v = first + k * kGroups;
    // Lanes past the last vertex stay (with an empty list) so that every shuffle sees a full warp.
    const bool live = v < n;
    const int out_begin = live ? row_ptr[v] : 0;
    const int out_end = live ? row_ptr[v + 1] : 0;
    const int rest_begin = live && both_ways ? rest_ptr[v] : 0;
    const int rest_end = live && both_ways ? rest_ptr[v + 1] : 0;
    // Each list in its own loop: a select between the two in one loop would cost the unrolled
    // loads their independence.
    const auto each_neighbour = [&](auto&& visit) {
      for (int i = out_begin + lane; i < out_end; i += KT_LANES) visit(col_idx[i]);
      for (int i = rest_begin + lane; i < rest_end; i += KT_LANES) visit(rest_idx[i]);
    };
#if KT_ALGORITHM == ALGORITHM_UNION_FIND
    each_neighbour([&](int u) {
      if (u < v) seen |= link(label, v, u);
    });
#elif KT_ALGORITHM == ALGORITHM_HOOKING
    each_neighbour([&](int u) { seen |= link(label, v, u); });
#else
    int smallest = 0x7fffffff;
    each_neighbour([&](int u) { smallest = min(smallest, label[u]); });
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
