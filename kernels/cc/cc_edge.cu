// The edge pass, a thread per undirected edge (each once, u < v), KT_ITEMS edges per thread
// KT_BLOCK apart (coalesced): every thread does the same work whatever the degrees.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
cc_edge(int edges, const int* __restrict__ edge_u, const int* __restrict__ edge_v, int* label, int* changed) {
  const int first = blockIdx.x * KT_BLOCK * KT_ITEMS + threadIdx.x;
  bool seen = false;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int e = first + k * KT_BLOCK;
    if (e < edges) seen |= link(label, edge_u[e], edge_v[e]);
  }
  report_change(seen, changed);
}
