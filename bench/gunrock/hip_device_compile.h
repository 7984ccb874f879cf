// Pre-included into every nvcc pass of Gunrock essentials (bench/gunrock/build.sh).
// Essentials' device paths test __HIP_DEVICE_COMPILE__ (gunrock/util/math.hxx: math::atomic::min,
// add, cas, exch; vector_frontier's device copy), which hipcc defines and plain nvcc does not:
// built by nvcc, BFS's atomic::min compares without writing, so no vertex past the source is ever
// reached. Defining it in the device pass only gives those functions their device branch.
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif
