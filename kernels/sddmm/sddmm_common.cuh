// Shared by every SDDMM schedule: SddmmFamily::source() places this before the schedule's own
// file, so the templates need no #include. From -D options: KT_VALUE (float or double),
// KT_BLOCK (threads per block), KT_K (the dense width K), KT_LANES (threads of a group, which
// spread K between them) and KT_VEC (elements per vector load).
typedef KT_VALUE value_t;

// The kernels declare __launch_bounds__(KT_BLOCK, 1): given the block size alone, ptxas (CUDA 13)
// holds them to 32 registers, enough for full occupancy, and spills A's tile and the coarsened
// sums; one block an SM lets a kernel take the registers it needs, which its occupancy then shows.

// KT_VEC consecutive elements of a row of A or B, moved by one load: K is a multiple of KT_VEC,
// so every row starts aligned.
struct __align__(sizeof(value_t) * KT_VEC) vec_t {
  value_t v[KT_VEC];
};

#define KT_VECS (KT_K / KT_VEC)  // vectors in a row of K

// Vector `vec` of a row of A or B (global memory) or of a staged tile (shared memory), returned
// by value: read through a reference, the compiler would split it into scalar loads.
__device__ __forceinline__ vec_t load_vec(const vec_t* __restrict__ vectors, int vec) {
  return vectors[vec];
}

__device__ __forceinline__ vec_t zero_vec() {
  vec_t zero;
#pragma unroll
  for (int e = 0; e < KT_VEC; ++e) zero.v[e] = 0;
  return zero;
}

__device__ __forceinline__ value_t dot(const vec_t& a, const vec_t& b, value_t sum) {
#pragma unroll
  for (int e = 0; e < KT_VEC; ++e) sum = fma(a.v[e], b.v[e], sum);
  return sum;
}

// Row `row` of a row-major matrix of K columns, as vectors; 64-bit: rows * K passes 2^31.
__device__ __forceinline__ const vec_t* row_of(const value_t* __restrict__ m, int row) {
  return reinterpret_cast<const vec_t*>(m + static_cast<long long>(row) * KT_K);
}

// The lanes of this thread's group in its warp. Groups of one warp may leave a loop at different
// times (rows differ in length), so their shuffles name only their own lanes.
__device__ __forceinline__ unsigned group_mask() {
  const unsigned lanes = KT_LANES == 32 ? 0xffffffffu : (1u << KT_LANES) - 1;
  return lanes << (threadIdx.x % 32 / KT_LANES * KT_LANES);
}

// The group's total, in its first lane.
__device__ __forceinline__ value_t group_sum(value_t sum, unsigned mask) {
#pragma unroll
  for (int offset = KT_LANES / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(mask, sum, offset, KT_LANES);
  return sum;
}
