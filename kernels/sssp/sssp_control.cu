// The launches around the relaxation: a source's start, the end of each pass (one thread; the
// grids of the next launches follow from the slots it writes, so the plan needs no host round
// trip) and, for delta-stepping, the sweep that moves the far set's next bucket into the queue.
#define KT_SWEEP_BLOCK 256

// The source at distance 0 is the first queue. `delta` is the first threshold (unused by
// Bellman-Ford, whose queue takes every improved vertex).
extern "C" __global__ void sssp_start(int* state, int* queue, int* dist, int offset, int source, dist_t delta) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  dist[offset + source] = to_bits((dist_t)0);
  queue[0] = source;
  state[STATE_ACTIVE] = 1;
  state[STATE_ITEMS] = 1;
  state[STATE_NEXT] = 0;
  state[STATE_FAR] = 0;
  state[STATE_SWEEP_ITEMS] = 0;
  state[STATE_THRESHOLD] = to_bits(delta);
  state[STATE_PASS] = 0;
}

// The queue this pass wrote is the next pass's. Delta-stepping: when it is empty but vertices
// wait in the far set, the threshold moves up by delta and the sweep runs.
extern "C" __global__ void sssp_pass_end(int* state, int n, dist_t delta) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const int items = state[STATE_NEXT];
  const int far = state[STATE_FAR];
  state[STATE_ITEMS] = items;
  state[STATE_NEXT] = 0;
#if KT_DELTA_STEPPING
  const bool advance = items == 0 && far > 0;
  if (advance) {
    const dist_t threshold = from_bits(state[STATE_THRESHOLD]);
    // A float threshold too large to grow by delta takes everything left (the loop must end).
    state[STATE_THRESHOLD] = threshold + delta > threshold ? to_bits(threshold + delta) : KT_INFINITE_BITS;
  }
  state[STATE_SWEEP_ITEMS] = advance ? n : 0;
#endif
  state[STATE_ACTIVE] = items + far;
  state[STATE_PASS] += 1;  // the sweep after this launch already fills the next pass's queue
}

// The far set's vertices now below the threshold join the queue the next pass reads.
extern "C" __global__ void __launch_bounds__(KT_SWEEP_BLOCK)
sssp_sweep(int* state, int* queue, const int* dist, int* pending, int n, int offset) {
  const int items = state[STATE_SWEEP_ITEMS];
  const dist_t threshold = from_bits(state[STATE_THRESHOLD]);
  int* next = queue + (state[STATE_PASS] & 1) * n;
  for (int v = blockIdx.x * KT_SWEEP_BLOCK + threadIdx.x; v < items; v += gridDim.x * KT_SWEEP_BLOCK) {
    if (!pending[v] || !(from_bits(dist[offset + v]) < threshold)) continue;
    pending[v] = 0;
    add_per_lane(state + STATE_FAR, -1);
    next[queue_slot(state + STATE_ITEMS)] = v;
  }
}
