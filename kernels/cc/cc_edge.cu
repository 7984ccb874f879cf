// The edge pass, a thread per entry of the edge list (cc_edges.h: each undirected edge at least
// once), KT_ITEMS entries per thread KT_BLOCK apart (coalesced): every thread does the same work
// whatever the degrees. An entry's row (the edge's other end) is found by a search between the
// rows of its chunk's first entry and the next chunk's, which a warp's lanes share: a few reads
// of row_ptr that stay in L1, instead of a second array as long as the list.
__device__ __forceinline__ int row_of_entry(const int* __restrict__ row_ptr, const int* __restrict__ chunk_row, int e) {
  int lo = chunk_row[e / KT_CHUNK];
  int hi = chunk_row[e / KT_CHUNK + 1];
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (row_ptr[mid] <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
cc_edge(int entries, const int* __restrict__ edge_ptr, const int* __restrict__ edge_col,
        const int* __restrict__ chunk_row, int* label, int* changed) {
  const int first = blockIdx.x * KT_BLOCK * KT_ITEMS + threadIdx.x;
  bool seen = false;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int e = first + k * KT_BLOCK;
    if (e < entries) seen |= link(label, row_of_entry(edge_ptr, chunk_row, e), edge_col[e]);
  }
  report_change(seen, changed);
}
