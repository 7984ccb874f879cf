// Shared by every SpMV schedule: SpmvFamily::source() places this before the schedule's own
// file, so the templates need no #include (NVRTC sees one self-contained translation unit).
// KT_VALUE (float or double) and KT_BLOCK (threads per block) come from -D options.
typedef KT_VALUE value_t;

// x is read through the read-only data cache: it is gathered, and reused across rows.
__device__ __forceinline__ value_t gather(const value_t* __restrict__ x, int col) {
  return __ldg(x + col);
}

// Where a warp reads the matrix in whole consecutive runs (merge and adaptive tiles), each line
// of it is used by one load and never again: those loads are streamed (evict-first in L1 and
// L2), so that they do not push x, which is gathered again and again, out of L2. Measured on the
// H200 (bench/README.md): fp64 R-MAT and uniform 5-10% faster. Not in the row and subwarp
// schedules: there a warp comes back to the same lines on its next iterations (a thread, or a
// few lanes, walk each row), and evict-first cost them up to 20% on the Laplacian.
template <typename T>
__device__ __forceinline__ T stream(const T* p) {
  return __ldcs(p);
}

// A thread's share of a tile's nonzeros [first_nz, first_nz + tile_nnz) (tile_nnz > 0): Items of
// them strided by the block (coalesced), every load in flight before any is used. Indices past
// the tile are clamped, not branched around (a branch per item would serialise the loads); the
// duplicates hit a line already being fetched.
template <int Items>
__device__ __forceinline__ void load_tile(int first_nz, int tile_nnz, const int* __restrict__ col_idx,
                                          const value_t* __restrict__ values, int (&col)[Items],
                                          value_t (&value)[Items]) {
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int nz = first_nz + min((int)threadIdx.x + k * KT_BLOCK, tile_nnz - 1);
    col[k] = stream(col_idx + nz);
    value[k] = stream(values + nz);
  }
}
