// Appending to a frontier from many threads at once, shared by the graph families' kernels
// (placed first in their source). One atomic on the queue's tail per warp instead of one per
// lane: every lane of a pass appends to the same address, atomics on one address are served
// one at a time, and an atomic whose old value is used holds its warp until it returns. The
// lanes that append together are those executing the call together (__activemask, as
// cooperative groups' coalesced_threads), whatever divergence led there. A count nobody reads
// back (atomicAdd without a use: a reduction the warp does not wait for) needs none of this.

// The lowest lane of `lanes`.
__device__ __forceinline__ int first_lane(unsigned lanes) { return __clz(__brev(lanes)); }

// A distinct slot of the queue whose tail is *tail, for each calling lane.
__device__ __forceinline__ int queue_slot(int* tail) {
  const unsigned lanes = __activemask();
  const int lane = threadIdx.x & 31;
  const int leader = first_lane(lanes);
  int first = 0;
  if (lane == leader) first = atomicAdd(tail, __popc(lanes));
  first = __shfl_sync(lanes, first, leader);
  return first + __popc(lanes & ((1u << lane) - 1));
}

// *total += `each` for every calling lane, in one atomic. (The same sum as a plain atomicAdd
// per lane, which also does not hold the warp; in SSSP's delta-stepping, whose relaxation
// branches around it, ptxas spills less with this form.)
__device__ __forceinline__ void add_per_lane(int* total, int each) {
  const unsigned lanes = __activemask();
  if ((threadIdx.x & 31) == first_lane(lanes)) atomicAdd(total, each * __popc(lanes));
}

// `count` distinct slots of the queue whose tail is *tail for each lane of a whole warp (every
// lane calls it together), with one atomic for the warp: the first of this lane's slots.
__device__ __forceinline__ int warp_queue_slots(int* tail, int count) {
  const int lane = threadIdx.x & 31;
  int inclusive = count;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  const int total = __shfl_sync(0xffffffffu, inclusive, 31);
  int first = 0;
  if (lane == 31 && total > 0) first = atomicAdd(tail, total);
  return __shfl_sync(0xffffffffu, first, 31) + inclusive - count;
}
