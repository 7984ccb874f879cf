// Pull: every unreached vertex looks for an in-neighbour in the frontier (its bitmap) and stops
// at the first (digest-003's vertex-centric pull; Beamer's bottom-up step). No vertex is
// claimed by two groups, but the flat schedules visit one vertex's edges from several threads,
// so the claim stays atomic.
struct Pull {
  const int* __restrict__ row_ptr;  // out-edges: the degree the direction switch adds up
  const int* __restrict__ in_row_ptr;
  const int* __restrict__ in_col_idx;
  int* state;
  const unsigned* bits;
  unsigned* next_bits;
  int* depth;
  int* parent;
  int level;

  __device__ bool vertex(int item, int& v, int& begin, int& end) const {
    v = item;
    if (depth[v] != KT_UNREACHED) return false;
    begin = in_row_ptr[v];
    end = in_row_ptr[v + 1];
    return begin < end;
  }
  __device__ bool edge(int v, int e) const {
    const int u = in_col_idx[e];
    if (!has_bit(bits, u)) return false;
    if (claim(depth, v, level)) {
#if KT_PARENTS
      parent[v] = u;
#endif
      join_next<false>(v, state, nullptr, next_bits, row_ptr);
    }
    return true;
  }
};

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
bfs_pull(const int* __restrict__ row_ptr, const int* __restrict__ in_row_ptr, const int* __restrict__ in_col_idx,
         int* state, const unsigned* bits, unsigned* next_bits, int* depth KT_PARENT_PARAM, int n, int offset) {
  Pull op{row_ptr, in_row_ptr, in_col_idx, state, bits, next_bits, depth + offset, KT_PARENT_ROW,
          state[STATE_ITERATION] + 1};
  expand(op, state[STATE_PULL_ITEMS]);  // n when this level pulls, else 0
}
