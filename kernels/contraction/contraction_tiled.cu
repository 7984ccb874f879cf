// A tensor contraction as a batch of small matrix products, the operands staged in shared memory
// (the chapter's thread-block tiling). A block owns a tile of the output: KT_TM outputs along
// "m" (the output's fastest index X, then M2, both held by operand P) times KT_TN along "n" (Y,
// then N2, held by the other operand Q), at one point of every other output index. The tile's
// slices of P and Q are copied to shared memory KT_KC summed terms at a time, in the order their
// storage runs, so every operand layout reads whole lines. A thread owns KT_COARSEN outputs along
// m, KT_TM / KT_COARSEN apart (a warp's lanes read and write consecutive output elements), times
// KT_COARSEN2 along n. It loads its outputs' old values before the products so that their DRAM
// latency overlaps the copies. Indices past the extent (a tile larger than it) are guarded.
// Parameters (-D), besides KT_T, KT_BLOCK, KT_COARSEN, KT_COARSEN2, KT_UNROLL, KT_SUBTRACT,
// KT_EXTENT, KT_NOUT, KT_NCON and KT_CONTRACTED: the tile KT_TX x KT_TM2 x KT_TY x KT_TN2 and the
// output indices M2, Y, N2 are (KT_DM2, KT_DY, KT_DN2; -1 where absent), KT_KC, KT_P_IS_A; each
// output index's tile (KT_TILE) and stride in P and Q (KT_OUT_P, KT_OUT_Q); each summed index's
// stride in P and Q (KT_CON_P, KT_CON_Q); KT_P_SUM_FAST, KT_Q_SUM_FAST (1: the summed index runs
// faster in the operand's storage than the tile's first index).
#define KT_TM (KT_TX * KT_TM2)
#define KT_TN (KT_TY * KT_TN2)

namespace {

constexpr int kThreadsM = KT_TM / KT_COARSEN;  // threads along m; KT_BLOCK / kThreadsM along n
constexpr int kThreadsN = KT_BLOCK / kThreadsM;

// The storage offset of the summed term c (its indices in mixed radix) in one operand.
__device__ __forceinline__ long long summed_offset(int c, const long long (&strides)[KT_NCON]) {
  long long off = 0;
#pragma unroll
  for (int d = 0; d < KT_NCON; ++d) {
    off += (c % KT_EXTENT) * strides[d];
    c /= KT_EXTENT;
  }
  return off;
}

// Copies the slice (ROWS tile positions) x (KT_KC summed terms) of one operand into s[k][row].
// Position `row` is (row % FIRST_TILE) along the first index, (row / FIRST_TILE) along the second.
template <int ROWS, int FIRST_TILE, bool SUM_FAST>
__device__ __forceinline__ void stage(KT_T (*s)[ROWS + 1], const KT_T* __restrict__ operand, long long origin,
                                      int first0, int second0, long long first_stride, long long second_stride,
                                      const long long (&summed)[KT_NCON], int c0) {
  for (int e = threadIdx.x; e < ROWS * KT_KC; e += KT_BLOCK) {
    const int k = SUM_FAST ? e % KT_KC : e / ROWS;
    const int row = SUM_FAST ? e / KT_KC : e % ROWS;
    const int first = row % FIRST_TILE, second = row / FIRST_TILE;
    KT_T v = 0;
    if (first0 + first < KT_EXTENT && second0 + second < KT_EXTENT && c0 + k < KT_CONTRACTED)
      v = __ldg(operand + origin + first * first_stride + second * second_stride + summed_offset(c0 + k, summed));
    s[k][row] = v;
  }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    contraction_tiled(const KT_T* __restrict__ t_in, const KT_T* __restrict__ a, const KT_T* __restrict__ b,
                      KT_T* __restrict__ t_out) {
  __shared__ KT_T p_s[KT_KC][KT_TM + 1];
  __shared__ KT_T q_s[KT_KC][KT_TN + 1];
  const KT_T* __restrict__ p = KT_P_IS_A ? a : b;
  const KT_T* __restrict__ q = KT_P_IS_A ? b : a;
  const long long tile[KT_NOUT] = KT_TILE, out_p[KT_NOUT] = KT_OUT_P, out_q[KT_NOUT] = KT_OUT_Q;
  const long long con_p[KT_NCON] = KT_CON_P, con_q[KT_NCON] = KT_CON_Q;
  // The tile's origin: the block's number in mixed radix over the tiles of every output index.
  long long rest = blockIdx.x, t0 = 0, p0 = 0, q0 = 0, stride = 1;
  long long t_m2 = 0, t_y = 0, t_n2 = 0, p_x = out_p[0], p_m2 = 0, q_y = 0, q_n2 = 0;
  int x0 = 0, m20 = 0, y0 = 0, n20 = 0;
#pragma unroll
  for (int d = 0; d < KT_NOUT; ++d) {
    const long long tiles = (KT_EXTENT + tile[d] - 1) / tile[d];
    const int digit = static_cast<int>(rest % tiles * tile[d]);
    rest /= tiles;
    t0 += digit * stride;
    p0 += digit * out_p[d];
    q0 += digit * out_q[d];
    if (d == 0) x0 = digit;
    if (d == KT_DM2) m20 = digit, t_m2 = stride, p_m2 = out_p[d];
    if (d == KT_DY) y0 = digit, t_y = stride, q_y = out_q[d];
    if (d == KT_DN2) n20 = digit, t_n2 = stride, q_n2 = out_q[d];
    stride *= KT_EXTENT;
  }
  const int tm = threadIdx.x % kThreadsM, tn = threadIdx.x / kThreadsM;
  // An output's place in T3 along m and n, or -1 past the extent.
  const auto m_offset = [&](int i) -> long long {
    const int m = tm + i * kThreadsM, x = m % KT_TX, m2 = m / KT_TX;
    return x0 + x < KT_EXTENT && m20 + m2 < KT_EXTENT ? x + m2 * t_m2 : -1;
  };
  const auto n_offset = [&](int j) -> long long {
    const int n = tn + j * kThreadsN, y = n % KT_TY, n2 = n / KT_TY;
    return y0 + y < KT_EXTENT && n20 + n2 < KT_EXTENT ? y * t_y + n2 * t_n2 : -1;
  };
  KT_T acc[KT_COARSEN][KT_COARSEN2];
#pragma unroll
  for (int i = 0; i < KT_COARSEN; ++i)
#pragma unroll
    for (int j = 0; j < KT_COARSEN2; ++j) {
      const long long mo = m_offset(i), no = n_offset(j);
      acc[i][j] = mo >= 0 && no >= 0 ? t_in[t0 + mo + no] : KT_T(0);
    }
  for (int c0 = 0; c0 < KT_CONTRACTED; c0 += KT_KC) {
    stage<KT_TM, KT_TX, KT_P_SUM_FAST>(p_s, p, p0, x0, m20, p_x, p_m2, con_p, c0);
    stage<KT_TN, KT_TY, KT_Q_SUM_FAST>(q_s, q, q0, y0, n20, q_y, q_n2, con_q, c0);
    __syncthreads();
#pragma unroll KT_UNROLL
    for (int k = 0; k < KT_KC; ++k) {
      KT_T pv[KT_COARSEN], qv[KT_COARSEN2];
#pragma unroll
      for (int i = 0; i < KT_COARSEN; ++i) pv[i] = p_s[k][tm + i * kThreadsM];
#pragma unroll
      for (int j = 0; j < KT_COARSEN2; ++j) qv[j] = q_s[k][tn + j * kThreadsN];
#pragma unroll
      for (int i = 0; i < KT_COARSEN; ++i)
#pragma unroll
        for (int j = 0; j < KT_COARSEN2; ++j) acc[i][j] += (KT_SUBTRACT ? -pv[i] : pv[i]) * qv[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < KT_COARSEN; ++i)
#pragma unroll
    for (int j = 0; j < KT_COARSEN2; ++j) {
      const long long mo = m_offset(i), no = n_offset(j);
      if (mo >= 0 && no >= 0) t_out[t0 + mo + no] = acc[i][j];
    }
}
