// Shared by the row and tiled schedules, after sddmm_common.cuh: a group of KT_LANES threads
// holds a K tile of A's row in registers, KT_CHUNKS vectors a lane (lane l the vectors l,
// l + KT_LANES, ...), and passes over K tile by tile. KT_CHUNKS comes from a -D option.
#define KT_TILE_VECS (KT_LANES * KT_CHUNKS)
#define KT_PASSES ((KT_VECS + KT_TILE_VECS - 1) / KT_TILE_VECS)

// Whether chunk j of this lane lies inside K in this pass.
__device__ __forceinline__ bool in_k(int pass, int j, int lane) {
  return pass * KT_TILE_VECS + j * KT_LANES + lane < KT_VECS;
}

// Chunks past K hold zeros: left undefined, they were spilled by ptxas.
__device__ __forceinline__ void load_a_tile(const vec_t* __restrict__ a_row, int pass, int lane,
                                            vec_t (&a_tile)[KT_CHUNKS]) {
#pragma unroll
  for (int j = 0; j < KT_CHUNKS; ++j)
    a_tile[j] = in_k(pass, j, lane) ? load_vec(a_row, pass * KT_TILE_VECS + j * KT_LANES + lane) : zero_vec();
}

// This lane's share of the dot product of the A tile with the same K tile of a row of B,
// `b_tile` pointing at the tile's first vector (in global or shared memory).
__device__ __forceinline__ value_t tile_dot(const vec_t (&a_tile)[KT_CHUNKS], const vec_t* b_tile, int pass,
                                            int lane) {
  value_t sum = 0;
#pragma unroll
  for (int j = 0; j < KT_CHUNKS; ++j)
    if (in_k(pass, j, lane)) sum = dot(a_tile[j], load_vec(b_tile, j * KT_LANES + lane), sum);
  return sum;
}

// B's row `col` from the start of this pass's K tile.
__device__ __forceinline__ const vec_t* b_tile_of(const value_t* __restrict__ b, int col, int pass) {
  return row_of(b, col) + pass * KT_TILE_VECS;
}

// The first pass stores an output; later ones add their K tile's share to it.
__device__ __forceinline__ void store_pass(value_t* __restrict__ c, int nz, value_t sum, int pass) {
  c[nz] = pass == 0 ? sum : c[nz] + sum;
}
