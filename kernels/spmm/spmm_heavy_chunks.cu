// heavy_light's heavy rows (RS-SpMM's dual scheme, digest-000 §4.2): each row longer than the
// threshold is cut into chunks of at most `chunk` nonzeros, a group of KT_LANES threads a chunk,
// so a hub row is spread over many groups instead of holding one. A group adds its chunk's
// partial row into C atomically; the plan zeroes those rows first (spmm_zero_rows). `chunks`
// holds {row, first nonzero} of each.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmm_heavy_chunks(int count, int chunk, const int2* __restrict__ chunks, const int* __restrict__ row_ptr,
                  const int* __restrict__ col_idx, const value_t* __restrict__ values, const value_t* __restrict__ b,
                  value_t* __restrict__ c) {
  const long long i = group_index();
  if (i >= count) return;
  const int lane = threadIdx.x % KT_LANES;
  const int k0 = blockIdx.y * KT_K_TILE;
  const int2 at = chunks[i];
  const int end = min(at.y + chunk, row_ptr[at.x + 1]);
  RowSlice s;
  clear(s);
  for (int nz = at.y; nz < end; ++nz) add_product(s, values[nz], col_idx[nz], b, k0, lane);
  add_row(s, c, at.x, k0, lane);
}
