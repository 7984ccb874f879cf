// Nonzero-parallel: a group of KT_LANES threads per nonzero, KT_COARSEN consecutive nonzeros per
// group, their dot products interleaved so that every load of a pass over K is in flight at
// once. Each lane takes every KT_LANES-th vector of the rows of A and B; a shuffle sums the
// lanes. row_idx (the row of each nonzero) is built on the host.
extern "C" __global__ void __launch_bounds__(KT_BLOCK, 1)
sddmm_nonzero(int nnz, const int* __restrict__ row_idx, const int* __restrict__ col_idx,
              const value_t* __restrict__ a, const value_t* __restrict__ b, value_t* __restrict__ c) {
  if (nnz == 0) return;
  const int first = (blockIdx.x * (KT_BLOCK / KT_LANES) + threadIdx.x / KT_LANES) * KT_COARSEN;
  const int lane = threadIdx.x % KT_LANES;
  // Past the end a group repeats the last nonzero and stores nothing: one branch at the store
  // rather than one around every load.
  const vec_t* a_row[KT_COARSEN];
  const vec_t* b_row[KT_COARSEN];
  value_t sum[KT_COARSEN];
#pragma unroll
  for (int i = 0; i < KT_COARSEN; ++i) {
    const int nz = min(first + i, nnz - 1);
    a_row[i] = row_of(a, row_idx[nz]);
    b_row[i] = row_of(b, col_idx[nz]);
    sum[i] = 0;
  }
#pragma unroll 2
  for (int pass = 0; pass < (KT_VECS + KT_LANES - 1) / KT_LANES; ++pass) {
    const int v = pass * KT_LANES + lane;
    if (KT_VECS % KT_LANES == 0 || v < KT_VECS) {
#pragma unroll
      for (int i = 0; i < KT_COARSEN; ++i) sum[i] = dot(load_vec(a_row[i], v), load_vec(b_row[i], v), sum[i]);
    }
  }
#pragma unroll
  for (int i = 0; i < KT_COARSEN; ++i) {
    const value_t total = group_sum(sum[i], group_mask());
    if (lane == 0 && first + i < nnz) c[first + i] = total;
  }
}
