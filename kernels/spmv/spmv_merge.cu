// Merge-path SpMV (Merrill & Garland, SC'16). The rows + nnz merge items (one per row end, one
// per nonzero) are cut into equal tiles of KT_BLOCK * KT_ITEMS, so every thread does the same
// work whatever the row lengths. There is no partition pass: warps 0 and 1 of each block search
// the two ends of its tile in row_ptr, concurrently, 32 probes a round.
// The tile's row ends and products are staged in shared memory with coalesced loads; each thread
// then merges its KT_ITEMS items from there. Rows split between threads are summed by a
// segmented scan across the block; only a row split between blocks is finished by atomicAdd
// into y (at most two per block), which the launcher zeroes first.
#define KT_TILE (KT_BLOCK * KT_ITEMS)

struct MergeCoord {
  int row;  // row ends consumed before this point of the path
  int nz;   // nonzeros consumed before this point
};

union MergeItem {
  int row_end;
  value_t product;
};

// Where diagonal `diag` of a tile crosses the merge of its staged row ends tile[0, rows) with
// the nonzero indices first_nz, first_nz + 1, ... (nnz of them). A row end goes before nonzero
// k exactly when row_end <= k, i.e. after every nonzero of its row.
__device__ MergeCoord tile_merge_path_search(int diag, const MergeItem* tile, int rows,
                                             int first_nz, int nnz) {
  int lo = max(diag - nnz, 0);
  int hi = min(diag, rows);
  while (lo < hi) {
    const int pivot = (lo + hi) / 2;
    if (tile[pivot].row_end <= first_nz + (diag - pivot - 1)) {
      lo = pivot + 1;
    } else {
      hi = pivot;
    }
  }
  return {lo, diag - lo};
}

// The same search by a whole warp over all row ends (row_ptr + 1) in global memory: 32 probes a
// round make it log32(rows) rounds of dependent loads instead of log2(rows).
__device__ MergeCoord warp_merge_path_search(long long diag, const int* __restrict__ row_end,
                                             int rows, int nnz) {
  const int lane = threadIdx.x % 32;
  long long lo = max(diag - nnz, 0LL);
  long long hi = min(diag, (long long)rows);
  while (lo < hi) {
    const long long probe = lo + (hi - lo) * lane / 32;
    // Probes rise with the lane and the test is true below the answer, false from it on.
    const unsigned below = __ballot_sync(0xffffffffu, row_end[probe] <= diag - probe - 1);
    const int count = __popc(below);
    const long long last_below = __shfl_sync(0xffffffffu, probe, max(count - 1, 0));
    const long long first_not = __shfl_sync(0xffffffffu, probe, min(count, 31));
    if (count == 0) {
      hi = lo;
    } else {
      lo = last_below + 1;
      if (count < 32) hi = first_not;
    }
  }
  return {(int)lo, (int)(diag - lo)};
}

struct TailPrefix {
  value_t sum;  // tails of the threads before this one, back to the nearest that closed a row
  bool closed;  // false when that sum reaches back to the start of the block
};

// Exclusive segmented scan over the block's threads of (closed, tail) pairs, where a thread that
// closed a row starts a new segment: (c1, s1) then (c2, s2) combine to
// (c1 || c2, c2 ? s2 : s1 + s2).
__device__ TailPrefix tail_prefix(bool closed, value_t tail) {
  __shared__ value_t warp_sum[KT_BLOCK / 32];
  __shared__ bool warp_closed[KT_BLOCK / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  value_t sum = tail;
  bool has_closed = closed;
#pragma unroll
  for (int distance = 1; distance < 32; distance *= 2) {
    const value_t earlier_sum = __shfl_up_sync(0xffffffffu, sum, distance);
    const bool earlier_closed = __shfl_up_sync(0xffffffffu, (int)has_closed, distance);
    if (lane >= distance && !has_closed) {
      sum += earlier_sum;
      has_closed = earlier_closed;
    }
  }
  if (lane == 31) {
    warp_sum[warp] = sum;
    warp_closed[warp] = has_closed;
  }
  __syncthreads();
  TailPrefix before = {__shfl_up_sync(0xffffffffu, sum, 1),
                       (bool)__shfl_up_sync(0xffffffffu, (int)has_closed, 1)};
  if (lane == 0) before = {0, false};
  for (int w = warp - 1; w >= 0 && !before.closed; --w) {
    before.sum += warp_sum[w];
    before.closed = warp_closed[w];
  }
  return before;
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmv_merge(int rows, int nnz, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
           const value_t* __restrict__ values, const value_t* __restrict__ x,
           value_t* __restrict__ y) {
  __shared__ MergeItem tile[KT_TILE];
  __shared__ MergeCoord tile_start, tile_end;
  const long long path_length = (long long)rows + nnz;
  const long long diag = (long long)blockIdx.x * KT_TILE;
  if (threadIdx.x < 32) {
    const MergeCoord start = warp_merge_path_search(diag, row_ptr + 1, rows, nnz);
    if (threadIdx.x == 0) tile_start = start;
  } else if (threadIdx.x < 64) {
    const long long end_diag = min(diag + KT_TILE, path_length);
    const MergeCoord end = warp_merge_path_search(end_diag, row_ptr + 1, rows, nnz);
    if (threadIdx.x == 32) tile_end = end;
  }
  __syncthreads();
  // In registers: read from shared memory after each store below, the tile's bounds would have to
  // be reloaded (the stores might alias them), and each nonzero's loads would wait for the
  // previous product's store: one device-memory round trip after another (seen in the SASS).
  const MergeCoord start = tile_start, end = tile_end;

  // Row ends first, the products after them: together they are at most KT_TILE items.
  const int tile_rows = end.row - start.row;
  const int tile_nnz = end.nz - start.nz;
  MergeItem* products = tile + tile_rows;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    const int i = threadIdx.x + k * KT_BLOCK;
    if (i < tile_rows) tile[i].row_end = row_ptr[start.row + 1 + i];
  }
  // All of a thread's nonzeros load before the first product is stored.
  if (tile_nnz > 0) {
    int col[KT_ITEMS];
    value_t value[KT_ITEMS];
    load_tile(start.nz, tile_nnz, col_idx, values, col, value);
#pragma unroll
    for (int k = 0; k < KT_ITEMS; ++k) {
      const int i = threadIdx.x + k * KT_BLOCK;
      const value_t product = value[k] * gather(x, col[k]);
      if (i < tile_nnz) products[i].product = product;
    }
  }
  __syncthreads();

  const int tile_items = tile_rows + tile_nnz;
  MergeCoord at = tile_merge_path_search(min((int)threadIdx.x * KT_ITEMS, tile_items), tile,
                                         tile_rows, start.nz, tile_nnz);
  int first_row = -1;  // tile-relative row of this thread's first row end, if any
  value_t first_sum = 0;
  value_t sum = 0;
#pragma unroll
  for (int k = 0; k < KT_ITEMS; ++k) {
    if (at.row + at.nz >= tile_items) break;
    if (at.row < tile_rows && tile[at.row].row_end <= start.nz + at.nz) {
      if (first_row < 0) {
        first_row = at.row;
        first_sum = sum;
      } else {
        y[start.row + at.row] = sum;  // begun and ended in this thread: no one else adds
      }
      sum = 0;
      ++at.row;
    } else {
      sum += products[at.nz].product;
      ++at.nz;
    }
  }

  // `sum` is now this thread's tail: the nonzeros after its last row end. A thread's first row
  // also holds the tails of the threads before it, back to the last one that closed a row.
  const TailPrefix before = tail_prefix(first_row >= 0, sum);
  if (first_row >= 0) {
    value_t* out = y + start.row + first_row;
    if (before.closed) {
      *out = first_sum + before.sum;
    } else {
      atomicAdd(out, first_sum + before.sum);  // the row may have begun in an earlier block
    }
  }
  // The block's own tail goes to the row that continues into the next block.
  if (threadIdx.x == KT_BLOCK - 1 && end.row < rows) {
    atomicAdd(y + end.row, first_row >= 0 ? sum : before.sum + sum);
  }
}
