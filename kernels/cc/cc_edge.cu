// The edge pass, a thread per entry of the edge list (cc_edges.h: each undirected edge at least
// once), KT_ITEMS entries per thread KT_BLOCK apart (coalesced): every thread does the same work
// whatever the degrees. An entry's row (the edge's other end) is found between the rows recorded
// for its chunk of KT_CHUNK entries and the next, instead of read from a second array as long as
// the list.

// Entry e's row by a search of row_ptr between its chunk's recorded rows.
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

// A warp's 32 lanes take 32 consecutive entries, one chunk (KT_BLOCK is a
// multiple of 32). Where the chunk spans fewer than 32 rows, their starts come in one coalesced
// load and each lane counts those at or before its entry by a binary search over the lanes'
// registers (shuffles, not a chain of loads); a chunk spanning more (empty rows between) is
// searched in row_ptr. Each step runs for all of a thread's entries before the next, so that
// their loads are in flight together.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
cc_edge(int entries, const int* __restrict__ edge_ptr, const int* __restrict__ edge_col,
        const int* __restrict__ chunk_row, int* label, int* changed) {
  static_assert(KT_CHUNK == 32, "a warp's entries are one chunk");
  const int lane = threadIdx.x % 32;
  const int warp_first = blockIdx.x * KT_BLOCK * KT_ITEMS + threadIdx.x - lane;
  int lo[KT_ITEMS], hi[KT_ITEMS], start[KT_ITEMS], row[KT_ITEMS];
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int first = warp_first + k * KT_BLOCK;
    const bool held = first < entries;  // the same for the whole warp
    lo[k] = held ? chunk_row[first / KT_CHUNK] : 0;
    hi[k] = held ? chunk_row[first / KT_CHUNK + 1] : 0;
  }
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    // Lane j holds where row lo + 1 + j starts, counted from the warp's first entry.
    const bool read = hi[k] - lo[k] < 32 && lo[k] + 1 + lane <= hi[k];
    start[k] = read ? edge_ptr[lo[k] + 1 + lane] - (warp_first + k * KT_BLOCK) : 0x7fffffff;
  }
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    int below = 0, above = 32;  // the rows starting at or before this lane's entry: [below, above]
#pragma unroll
    for (int step = 0; step < 6; ++step) {
      const int mid = (below + above) / 2;
      const int s = __shfl_sync(0xffffffffu, start[k], mid & 31);
      if (below < above) {
        if (s <= lane)
          below = mid + 1;
        else
          above = mid;
      }
    }
    row[k] = lo[k] + below;
  }
  bool seen = false;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int e = warp_first + k * KT_BLOCK + lane;
    if (e >= entries) continue;
    if (hi[k] - lo[k] >= 32) row[k] = row_of_entry(edge_ptr, chunk_row, e);
    seen |= link(label, row[k], edge_col[e]);
  }
  report_change(seen, changed);
}
