// Appending to a frontier from many threads at once, shared by the graph families' kernels
// (placed first in their source). One atomic on the queue's tail per warp instead of one per
// lane: every lane of a pass appends to the same address, and atomics on one address are
// served one at a time. The lanes that append together are those executing the call together
// (__activemask, as cooperative groups' coalesced_threads), whatever divergence led there.

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

// *total += `each` for every calling lane, in one atomic.
__device__ __forceinline__ void add_per_lane(int* total, int each) {
  const unsigned lanes = __activemask();
  if ((threadIdx.x & 31) == first_lane(lanes)) atomicAdd(total, each * __popc(lanes));
}

// *total += the calling lanes' values, in one atomic. Each lane gathers every member's value in
// turn (the members may be any lanes, so a halving tree would read lanes outside them).
__device__ __forceinline__ void add_across_lanes(int* total, int value) {
  const unsigned lanes = __activemask();
  int sum = 0;
  for (unsigned rest = lanes; rest != 0; rest &= rest - 1) sum += __shfl_sync(lanes, value, first_lane(rest));
  if ((threadIdx.x & 31) == first_lane(lanes)) atomicAdd(total, sum);
}
