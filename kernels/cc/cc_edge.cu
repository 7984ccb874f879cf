// The edge pass, a thread per entry of the edge list (cc_edges.h: each undirected edge at least
// once), KT_ITEMS entries per thread KT_BLOCK apart (coalesced): every thread does the same work
// whatever the degrees. An entry's row (the edge's other end) is found between the rows recorded
// for its chunk of KT_CHUNK entries and the next, instead of read from a second array as long as
// the list.

// Entry e's row by a search of row_ptr (a chunk spanning 32 rows or more: empty rows between).
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

// The rows of a warp's 32 consecutive entries, one chunk (KT_BLOCK is a multiple of 32). Where
// the chunk spans fewer than 32 rows, their starts come in one coalesced load, and each lane
// counts those at or before its entry by a binary search over the lanes' registers: shuffles,
// not a chain of loads. Called by whole warps that hold entries (e - lane < entries).
__device__ __forceinline__ int warp_row_of_entry(const int* __restrict__ row_ptr, const int* __restrict__ chunk_row,
                                                 int e, int entries) {
  static_assert(KT_CHUNK == 32, "a warp's entries are one chunk");
  const int lane = threadIdx.x % 32;
  const int first = e - lane;
  const int lo = chunk_row[first / KT_CHUNK];
  const int hi = chunk_row[first / KT_CHUNK + 1];
  if (hi - lo >= 32) return row_of_entry(row_ptr, chunk_row, min(e, entries - 1));
  // Lane j holds where row lo + 1 + j starts, counted from the warp's first entry.
  const int start = lo + 1 + lane <= hi ? row_ptr[lo + 1 + lane] - first : 0x7fffffff;
  int below = 0, above = 32;  // the rows starting at or before this lane's entry: [below, above]
#pragma unroll
  for (int step = 0; step < 6; ++step) {
    const int mid = (below + above) / 2;
    const int s = __shfl_sync(0xffffffffu, start, mid & 31);
    if (below < above) {
      if (s <= lane)
        below = mid + 1;
      else
        above = mid;
    }
  }
  return lo + below;
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
cc_edge(int entries, const int* __restrict__ edge_ptr, const int* __restrict__ edge_col,
        const int* __restrict__ chunk_row, int* label, int* changed) {
  const int first = blockIdx.x * KT_BLOCK * KT_ITEMS + threadIdx.x;
  start_change_report();
  bool seen = false;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int e = first + k * KT_BLOCK;
    if (e - static_cast<int>(threadIdx.x % 32) < entries) {  // the whole warp, or none of it
      const int u = warp_row_of_entry(edge_ptr, chunk_row, e, entries);
      if (e < entries) seen |= link(label, u, edge_col[e]);
    }
  }
  report_change(seen, changed);
}
