// Shared by every SpMV schedule: SpmvFamily::source() places this before the schedule's own
// file, so the templates need no #include (NVRTC sees one self-contained translation unit).
// KT_VALUE (float or double) and KT_BLOCK (threads per block) come from -D options.
typedef KT_VALUE value_t;

// x is read through the read-only data cache: it is gathered, and reused across rows.
__device__ __forceinline__ value_t gather(const value_t* __restrict__ x, int col) {
  return __ldg(x + col);
}
