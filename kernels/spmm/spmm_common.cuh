// Shared by every SpMM schedule: SpmmFamily::source() places this before the schedule's own
// files, so the templates need no #include. KT_VALUE (float or double), KT_K (the width of B and
// C), KT_BLOCK, KT_LANES, KT_VEC and KT_K_TILE come from -D options.
//
// A group of KT_LANES threads computes a row's slice of KT_K_TILE columns of C (blockIdx.y picks
// the slice). Lane l holds KT_RUNS runs of KT_VEC consecutive columns, run j at column
// (j * KT_LANES + l) * KT_VEC of the slice: each run of the group reads one contiguous, aligned
// piece of a row of B (vector loads, coalesced), and the lane's sums stay in registers.
typedef KT_VALUE value_t;

#define KT_SPAN (KT_LANES * KT_VEC)
#define KT_RUNS (KT_K_TILE > KT_SPAN ? KT_K_TILE / KT_SPAN : 1)

struct alignas(sizeof(value_t) * KT_VEC) Piece {
  value_t v[KT_VEC];
};

struct RowSlice {
  value_t sum[KT_RUNS][KT_VEC];
};

__device__ __forceinline__ void clear(RowSlice& s) {
#pragma unroll
  for (int j = 0; j < KT_RUNS; ++j)
#pragma unroll
    for (int e = 0; e < KT_VEC; ++e) s.sum[j][e] = 0;
}

// The column of C where run j of `lane` begins in the slice from k0.
__device__ __forceinline__ int run_column(int k0, int lane, int j) { return k0 + (j * KT_LANES + lane) * KT_VEC; }

// Whether run j of `lane` lies in C: always when every slice is whole and every lane has runs,
// which the compiler then sees; otherwise the last slice, or a tile narrower than the group,
// leaves some runs out. KT_VEC divides KT_K, so a run is wholly in or wholly out.
__device__ __forceinline__ bool run_in_c(int k0, int lane, int j) {
  if (KT_K % KT_K_TILE == 0 && KT_K_TILE >= KT_SPAN) return true;
  return (j * KT_LANES + lane) * KT_VEC < KT_K_TILE && run_column(k0, lane, j) < KT_K;
}

// s += value * B[col][this lane's columns]: B is gathered by column index and reused across
// rows, so it is read through the read-only data cache.
__device__ __forceinline__ void add_product(RowSlice& s, value_t value, int col, const value_t* __restrict__ b,
                                            int k0, int lane) {
  const value_t* b_row = b + (long long)col * KT_K;
#pragma unroll
  for (int j = 0; j < KT_RUNS; ++j) {
    if (!run_in_c(k0, lane, j)) continue;
    const Piece p = *reinterpret_cast<const Piece*>(b_row + run_column(k0, lane, j));
#pragma unroll
    for (int e = 0; e < KT_VEC; ++e) s.sum[j][e] += value * p.v[e];
  }
}

// C[row][this lane's columns] = s: the row is this group's alone.
__device__ __forceinline__ void store_row(const RowSlice& s, value_t* __restrict__ c, int row, int k0, int lane) {
  value_t* c_row = c + (long long)row * KT_K;
#pragma unroll
  for (int j = 0; j < KT_RUNS; ++j) {
    if (!run_in_c(k0, lane, j)) continue;
    Piece p;
#pragma unroll
    for (int e = 0; e < KT_VEC; ++e) p.v[e] = s.sum[j][e];
    *reinterpret_cast<Piece*>(c_row + run_column(k0, lane, j)) = p;
  }
}

// C[row][this lane's columns] += s, atomically: other groups add into the same row (the plan
// zeroes it first, spmm_zero_rows).
__device__ __forceinline__ void add_row(const RowSlice& s, value_t* __restrict__ c, int row, int k0, int lane) {
  value_t* c_row = c + (long long)row * KT_K;
#pragma unroll
  for (int j = 0; j < KT_RUNS; ++j) {
    if (!run_in_c(k0, lane, j)) continue;
#pragma unroll
    for (int e = 0; e < KT_VEC; ++e) atomicAdd(c_row + run_column(k0, lane, j) + e, s.sum[j][e]);
  }
}

// Groups are numbered across the grid's x: KT_BLOCK / KT_LANES of them a block.
__device__ __forceinline__ long long group_index() {
  return (long long)blockIdx.x * (KT_BLOCK / KT_LANES) + threadIdx.x / KT_LANES;
}
