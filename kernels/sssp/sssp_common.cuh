// Shared by every SSSP kernel: SsspFamily::source() places it after kernels/graph/graph_queue.cuh
// and before kernels/graph/graph_expand.cuh. Policy comes from -D options (sssp_config.h):
// KT_BLOCK, KT_COARSEN, KT_BALANCE, KT_DELTA_STEPPING, KT_FLOAT_WEIGHTS and KT_RELAX_BATCH.
//
// Distances live in an int buffer as bits. Non-negative floats order like their bit patterns
// read as ints, and non-negative ints are themselves, so one atomicMin on the bits lowers a
// distance of either type; unreached is the type's largest value (INT_MAX, or +inf).
#if KT_FLOAT_WEIGHTS
typedef float dist_t;
__device__ __forceinline__ dist_t from_bits(int bits) { return __int_as_float(bits); }
__device__ __forceinline__ int to_bits(dist_t d) { return __float_as_int(d); }
#define KT_INFINITE_BITS 0x7f800000
#else
typedef int dist_t;
__device__ __forceinline__ dist_t from_bits(int bits) { return bits; }
__device__ __forceinline__ int to_bits(dist_t d) { return d; }
#define KT_INFINITE_BITS 0x7fffffff
#endif

// The int32 slots of the `sssp_state` buffer: the plan's loop runs while STATE_ACTIVE (slot 0)
// is not zero; the relaxation's grid is sized from STATE_ITEMS and the sweep's from
// STATE_SWEEP_ITEMS (sssp_plan.h's kSsspStateSlots hold them all).
#define STATE_ACTIVE 0       // the queue's vertices plus those waiting in the far set
#define STATE_ITEMS 1        // vertices in the queue the next pass relaxes
#define STATE_NEXT 2         // the tail of the queue this pass writes
#define STATE_FAR 3          // delta-stepping: vertices waiting in the far set
#define STATE_SWEEP_ITEMS 4  // delta-stepping: n when the far set is swept after this pass, else 0
#define STATE_THRESHOLD 5    // delta-stepping: the near/far split, as distance bits
#define STATE_PASS 6         // the loop's iteration (a loop's launches are the same every pass)
