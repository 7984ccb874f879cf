// ASpT tiling (digest-000 §5.5): a block per row panel of S, a group of KT_LANES threads per row
// holding a K tile of A's row in registers (sddmm_a_tile.cuh). For each dense tile of the panel
// the block stages that K tile of the B rows of its columns in shared memory (KT_SLOTS of them),
// and every row takes its run of entries in the tile from there; then each row takes its sparse
// rest from global memory. Entries are S's nonzeros reordered (sddmm_tiles.h): entry_cols holds
// a slot or a column, entry_nz where the output goes.
extern "C" __global__ void __launch_bounds__(KT_BLOCK, 1)
sddmm_tiled(int rows, const int* __restrict__ row_ptr, const int* __restrict__ tile_ptr,
            const int* __restrict__ tile_cols, const int* __restrict__ segment_ends,
            const int* __restrict__ entry_cols, const int* __restrict__ entry_nz,
            const value_t* __restrict__ a, const value_t* __restrict__ b, value_t* __restrict__ c) {
  __shared__ vec_t staged[KT_SLOTS * KT_TILE_VECS];
  const int local_row = threadIdx.x / KT_LANES, lane = threadIdx.x % KT_LANES;
  if (blockIdx.x * (KT_BLOCK / KT_LANES) >= rows) return;  // the one block of a matrix without rows
  const int row = blockIdx.x * (KT_BLOCK / KT_LANES) + local_row;
  const bool live = row < rows;  // rows past the end stay for the barriers and compute nothing
  const unsigned mask = group_mask();
  const int first_tile = tile_ptr[blockIdx.x], tiles = tile_ptr[blockIdx.x + 1] - first_tile;
  const int* ends = segment_ends + first_tile * (KT_BLOCK / KT_LANES) + local_row * tiles;
  const int begin = live ? row_ptr[row] : 0, end = live ? row_ptr[row + 1] : 0;
#pragma unroll 1
  for (int pass = 0; pass < KT_PASSES; ++pass) {
    vec_t a_tile[KT_CHUNKS];
    load_a_tile(row_of(a, live ? row : 0), pass, lane, a_tile);
    int e = begin;
    for (int t = 0; t < tiles; ++t) {
      __syncthreads();  // the previous tile is used up
      for (int i = threadIdx.x; i < KT_SLOTS * KT_TILE_VECS; i += KT_BLOCK) {
        const int col = tile_cols[(first_tile + t) * KT_SLOTS + i / KT_TILE_VECS], v = i % KT_TILE_VECS;
        if (col >= 0 && pass * KT_TILE_VECS + v < KT_VECS) staged[i] = load_vec(b_tile_of(b, col, pass), v);
      }
      __syncthreads();
      for (const int run_end = live ? ends[t] : 0; e < run_end; ++e) {
        const value_t sum = group_sum(tile_dot(a_tile, staged + entry_cols[e] * KT_TILE_VECS, pass, lane), mask);
        if (lane == 0) store_pass(c, entry_nz[e], sum, pass);
      }
    }
    for (; e < end; ++e) {
      const value_t sum = group_sum(tile_dot(a_tile, b_tile_of(b, entry_cols[e], pass), pass, lane), mask);
      if (lane == 0) store_pass(c, entry_nz[e], sum, pass);
    }
  }
}
