// One pass of the relaxation: every vertex of the queue offers its distance plus each out-edge's
// weight to the edge's head (atomicMin on the bits). A head whose distance dropped joins the
// next queue once per pass (its stamp, the pass it was queued for); under delta-stepping only
// when the new distance is below the threshold, else it waits in the far set (one flag) until
// a sweep moves it back. The queue ping-pongs between the halves of `queue` (2n entries).
// Both distances are read from L2 (__ldcg): a line of `dist` in this SM's L1 goes stale as other
// SMs' atomics lower it, and a stale (higher) distance lets losing offers through to the atomic
// and makes the winning ones worse (on an H200: 8-16% off the best configuration on R-MAT 20,
// musae-github and soc-Slashdot0902, 1% on R-MAT 22, bench/NOTES.md "SSSP's relaxation").
struct Relax {
  const int* __restrict__ row_ptr;
  const int* __restrict__ col_idx;
  const dist_t* __restrict__ weight;
  int* state;
  const int* current;
  int* next;
  int* dist;
  int* stamp;
  int* pending;
  int iteration;

  __device__ bool vertex(int item, int& v, int& begin, int& end) const {
    v = current[item];
    begin = row_ptr[v];
    end = row_ptr[v + 1];
    return begin < end;
  }
  // KT_RELAX_BATCH edges a thread at once in the segment and tile schedules (the `batch`
  // parameter; with 1 they call edge()), called by whole warps: a relaxation is a chain of
  // dependent round trips (index, weight and distances; then the atomic that lowers, the stamp,
  // the queue's tail), so each link is issued for the whole batch before any is waited on, and
  // the warp appends its heads with one atomic.
  static constexpr int kBatch = KT_RELAX_BATCH;
  __device__ void edges(const int (&v)[kBatch], const int (&e)[kBatch], int live) const {
    int w[kBatch], offer[kBatch], seen[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      w[b] = col_idx[e[b]];
      offer[b] = to_bits(from_bits(__ldcg(dist + v[b])) + weight[e[b]]);
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) seen[b] = __ldcg(dist + w[b]);
    bool lowered[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const bool tries = b < live && offer[b] < seen[b];  // most offers lose to the plain read
      lowered[b] = tries && atomicMin(dist + w[b], offer[b]) > offer[b];
    }
#if KT_DELTA_STEPPING
    // A head lowered to the threshold or past it waits in the far set (one flag) instead.
    const dist_t threshold = from_bits(state[STATE_THRESHOLD]);
    int newly_far = 0;
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const bool far = lowered[b] && !(from_bits(offer[b]) < threshold);
      newly_far += far && atomicOr(pending + w[b], 1) == 0;
      lowered[b] = lowered[b] && !far;
    }
#pragma unroll
    for (int d = 16; d > 0; d /= 2) newly_far += __shfl_xor_sync(0xffffffffu, newly_far, d);
    if ((threadIdx.x & 31) == 0 && newly_far > 0) atomicAdd(state + STATE_FAR, newly_far);
#endif
    int count = 0;
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      lowered[b] = lowered[b] && atomicMax(stamp + w[b], iteration + 1) <= iteration;  // once a pass
      count += lowered[b];
    }
    int slot = warp_queue_slots(state + STATE_NEXT, count);
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
      if (lowered[b]) next[slot++] = w[b];
  }
  __device__ bool edge(int v, int e) const {
    const int w = col_idx[e];
    const int offer = to_bits(from_bits(__ldcg(dist + v)) + weight[e]);
    // Most offers lose: a plain read spares them the atomic.
    if (offer < __ldcg(dist + w)) lower(w, offer);
    return false;
  }
  // An offer that beat the distance read: the atomic decides.
  __device__ void lower(int w, int offer) const {
    if (atomicMin(dist + w, offer) <= offer) return;
#if KT_DELTA_STEPPING
    if (!(from_bits(offer) < from_bits(state[STATE_THRESHOLD]))) {
      if (atomicOr(pending + w, 1) == 0) add_per_lane(state + STATE_FAR, 1);
      return;
    }
#endif
    if (atomicMax(stamp + w, iteration + 1) <= iteration) next[queue_slot(state + STATE_NEXT)] = w;
  }
};

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
sssp_relax(const int* __restrict__ row_ptr, const int* __restrict__ col_idx, const dist_t* __restrict__ weight,
           int* state, int* queue, int* dist, int* stamp, int* pending, int n, int offset) {
  const int iteration = state[STATE_PASS];
  Relax op{row_ptr, col_idx, weight, state, queue + (iteration & 1) * n, queue + ((iteration + 1) & 1) * n,
           dist + offset, stamp, pending, iteration};
  expand(op, state[STATE_ITEMS]);
}
