#pragma once
// A tensor permutation on the device, for vendor baselines that reshape operands around a
// library call (transpose-transpose-GEMM-transpose): dst[i] = src[offset(i)], or with `in`,
// dst[i] = in[i] + scale * src[offset(i)], where i runs over the destination in storage order
// (first dimension fastest) and offset(i) sums each dimension's digit times its stride in the
// source. The extents and strides are compiled in (NVRTC, once per shape), so that the
// index arithmetic divides by constants. Where the source's unit-stride dimension is not the
// destination's first, the two are transposed through shared memory (both sides move whole
// lines); otherwise a thread per element gathers.
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "gpu/cuda_driver.h"
#include "kernels/precision.h"

namespace ktune {

struct Permutation {
  std::vector<int64_t> extents;  // of the destination, first fastest
  std::vector<int64_t> strides;  // of each destination dimension, in the source
  int64_t elements() const;
};

// The NVRTC request of a permutation (PTX: the driver compiles it for the device it runs on);
// std::runtime_error for dtypes other than f32 and f64 or mismatched extents and strides.
CompileRequest tensor_permute_request(Dtype dtype, const Permutation& p, bool accumulate);

class TensorPermute {
 public:
  // Compiles the permutation for f32 or f64 values (once per process and shape: every
  // measurement of a baseline prepares it anew); throws std::runtime_error otherwise or when
  // NVRTC fails, CudaError when the module does not load.
  TensorPermute(const CudaDriver& cu, Dtype dtype, const Permutation& p, bool accumulate);
  ~TensorPermute();
  // Enqueues it on `stream`; `in` is read only when accumulating.
  void run(CUstream stream, CUdeviceptr src, CUdeviceptr dst, CUdeviceptr in = 0, double scale = 1) const;

 private:
  struct Loaded;
  const CudaDriver& cu_;
  Dtype dtype_;
  int64_t elements_;
  int64_t blocks_;
  std::unique_ptr<Loaded> loaded_;
};

}  // namespace ktune
