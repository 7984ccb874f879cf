// ASpT (Hong et al., PPoPP'19; digest-000 §5.4): A's rows in panels of KT_BLOCK / KT_LANES, a
// block a panel (and a K tile along y), a group of KT_LANES threads a row. In each panel the
// columns two rows or more use are dense, and the host has reordered each row's nonzeros tile by
// tile (KT_SLOTS dense columns a tile), the sparse rest last (spmm_aspt_tiling.h). The block
// stages each tile's rows of B (its K tile) in shared memory once, and every row of the panel
// multiplies its run of that tile from there; the sparse rest reads B from global memory as
// row_split does. A row's sums stay in registers throughout: C is stored once.
#define KT_PANEL_ROWS (KT_BLOCK / KT_LANES)
#define KT_PIECES (KT_K_TILE / KT_VEC)

// s += value * the staged row of B, this lane's columns.
__device__ __forceinline__ void add_staged(RowSlice& s, value_t value, const Piece* __restrict__ staged_row, int k0,
                                           int lane) {
#pragma unroll
  for (int j = 0; j < KT_RUNS; ++j) {
    if (!run_in_c(k0, lane, j)) continue;
    const Piece p = staged_row[j * KT_LANES + lane];
#pragma unroll
    for (int e = 0; e < KT_VEC; ++e) s.sum[j][e] += value * p.v[e];
  }
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmm_aspt(int rows, const int* __restrict__ tile_ptr, const int* __restrict__ tile_col_ptr,
          const int* __restrict__ tile_cols, const int* __restrict__ segment_ends,
          const int* __restrict__ row_ptr, const int* __restrict__ cols, const value_t* __restrict__ values,
          const value_t* __restrict__ b, value_t* __restrict__ c) {
  __shared__ Piece staged[KT_SLOTS][KT_PIECES];
  const int local_row = threadIdx.x / KT_LANES;
  const int lane = threadIdx.x % KT_LANES;
  const int k0 = blockIdx.y * KT_K_TILE;
  const int row = blockIdx.x * KT_PANEL_ROWS + local_row;
  const bool live = row < rows;  // rows past the matrix still reach every barrier
  const int staged_piece = threadIdx.x % KT_PIECES;
  const int staged_column = k0 + staged_piece * KT_VEC;
  int nz = live ? row_ptr[row] : 0;
  RowSlice s;
  clear(s);
  for (int t = tile_ptr[blockIdx.x]; t < tile_ptr[blockIdx.x + 1]; ++t) {
    __syncthreads();  // the previous tile is read by every row
    // KT_PIECES divides KT_BLOCK (both powers of two, a K tile of at most 128 elements): each
    // thread stages one piece of every few slots. This loop and the next are not unrolled: ptxas
    // (CUDA 13, sm_90) spills a few bytes of some shapes otherwise (spmm_compile_test), and the
    // block's other warps hide the latency unrolling would.
    const int first_col = tile_col_ptr[t], tile_width = tile_col_ptr[t + 1] - first_col;
#pragma unroll 1
    for (int slot = threadIdx.x / KT_PIECES; slot < tile_width; slot += KT_BLOCK / KT_PIECES) {
      const int col = tile_cols[first_col + slot];
      if (staged_column < KT_K) {
        staged[slot][staged_piece] = *reinterpret_cast<const Piece*>(b + (long long)col * KT_K + staged_column);
      }
    }
    __syncthreads();
    const int end = live ? segment_ends[t * KT_PANEL_ROWS + local_row] : 0;
#pragma unroll 1
    for (; nz < end; ++nz) add_staged(s, values[nz], staged[cols[nz]], k0, lane);
  }
  if (!live) return;
  const int end = row_ptr[row + 1];
  for (; nz < end; ++nz) add_product(s, values[nz], cols[nz], b, k0, lane);
  store_row(s, c, row, k0, lane);
}
