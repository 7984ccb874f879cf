// CSR-Adaptive SpMV (Greathouse & Daga, SC'14) with the long-row slices of its second version.
// The host cuts the rows into row blocks (spmv_adaptive_partition.h), one thread block each:
// - a run of short rows whose nonzeros fit one tile of KT_TILE (CSR-stream): the block stages
//   the tile's products in shared memory with coalesced loads, KT_ITEMS per thread in flight,
//   then reduces each row from there with a power-of-two group of threads;
// - one row (CSR-vector): the whole block strides over it and reduces through shuffles;
// - one slice of a very long row: the same, added into y atomically (y is zeroed first).
// A boundary of row_blocks is {first row, or ~row for a slice; first nonzero}; a block's rows
// and nonzeros end where the next boundary begins.
#define KT_TILE (KT_BLOCK * KT_ITEMS)

// Where a column's x lies. adaptive_hot (-DKT_HOT_X) passes x_hot too, the x of the matrix's
// hot columns gathered by spmv_gather_hot_x, and stores a hot column's index as ~slot in it.
#ifdef KT_HOT_X
#define KT_X_PARAMS const value_t* __restrict__ x, const value_t* __restrict__ x_hot
#define KT_X_ARGS x, x_hot
__device__ __forceinline__ value_t x_at(int col, KT_X_PARAMS) {
  return col < 0 ? __ldg(x_hot + ~col) : gather(x, col);
}
#else
#define KT_X_PARAMS const value_t* __restrict__ x
#define KT_X_ARGS x
__device__ __forceinline__ value_t x_at(int col, KT_X_PARAMS) { return gather(x, col); }
#endif

__device__ __forceinline__ int boundary_row(int stored) { return stored < 0 ? ~stored : stored; }

// Sum over `width` consecutive lanes (a power of two up to 32), in lane 0 of each group.
__device__ __forceinline__ value_t group_sum(value_t sum, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset, width);
  }
  return sum;
}

// Every thread of the block takes a strided share of [begin, end); the total lands in thread 0.
__device__ value_t block_row_sum(int begin, int end, const int* __restrict__ col_idx,
                                 const value_t* __restrict__ values, KT_X_PARAMS) {
  __shared__ value_t warp_sums[KT_BLOCK / 32];
  value_t sum = 0;
#pragma unroll 4
  for (int i = begin + threadIdx.x; i < end; i += KT_BLOCK) {
    sum += stream(values + i) * x_at(stream(col_idx + i), KT_X_ARGS);
  }
  sum = group_sum(sum, 32);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < KT_BLOCK / 32 ? warp_sums[threadIdx.x] : 0;
    sum = group_sum(sum, 32);
  }
  return sum;
}

// Where row `row` of a block's `rows` lies in its tile; empty past the last row.
struct TileRow {
  int begin, end;
};

__device__ __forceinline__ TileRow tile_row(int row, int rows, int first_row, int first_nz,
                                            const int* __restrict__ row_ptr) {
  if (row >= rows) return {0, 0};
  return {row_ptr[first_row + row] - first_nz, row_ptr[first_row + row + 1] - first_nz};
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmv_adaptive(const int2* __restrict__ row_blocks, const int* __restrict__ row_ptr,
              const int* __restrict__ col_idx, const value_t* __restrict__ values,
              KT_X_PARAMS, value_t* __restrict__ y) {
  __shared__ value_t products[KT_TILE];
  const int2 from = row_blocks[blockIdx.x];
  const int2 to = row_blocks[blockIdx.x + 1];
  const bool slice = from.x < 0;
  const int first_row = boundary_row(from.x);
  const int rows = boundary_row(to.x) - first_row;  // meaningless for a slice
  const int first_nz = from.y;

  if (slice || rows == 1) {
    const value_t sum = block_row_sum(first_nz, to.y, col_idx, values, KT_X_ARGS);
    if (threadIdx.x == 0) {
      if (slice) {
        atomicAdd(y + first_row, sum);
      } else {
        y[first_row] = sum;
      }
    }
    return;
  }

  // As many threads per row as the block can give every row at once, up to a warp; rows beyond
  // the block's threads (short or empty ones) take further passes of one thread each.
  const int width = rows >= KT_BLOCK ? 1 : min(32, 1 << (31 - __clz(KT_BLOCK / max(rows, 1))));
  const int lane = threadIdx.x % width;
  const int rows_per_pass = KT_BLOCK / width;
  // The first pass's row bounds load together with the tile, not after the barrier.
  TileRow row_range = tile_row(threadIdx.x / width, rows, first_row, first_nz, row_ptr);

  // Whole rows: the tile holds all their nonzeros, loaded coalesced whatever the row lengths.
  const int tile_nnz = to.y - first_nz;
  if (tile_nnz > 0) {
    int col[KT_ITEMS];
    value_t value[KT_ITEMS];
    load_tile(first_nz, tile_nnz, col_idx, values, col, value);
#pragma unroll
    for (int k = 0; k < KT_ITEMS; ++k) {
      const int i = threadIdx.x + k * KT_BLOCK;
      const value_t product = value[k] * x_at(col[k], KT_X_ARGS);
      products[i] = i < tile_nnz ? product : 0;
    }
  }
  __syncthreads();

  // Every thread runs every pass, so each shuffle sees a full warp.
  for (int pass = 0; pass < rows; pass += rows_per_pass) {
    const int row = pass + threadIdx.x / width;
    if (pass > 0) row_range = tile_row(row, rows, first_row, first_nz, row_ptr);
    value_t sum = 0;
    for (int i = row_range.begin + lane; i < row_range.end; i += width) sum += products[i];
    sum = group_sum(sum, width);
    if (row < rows && lane == 0) y[first_row + row] = sum;
  }
}
