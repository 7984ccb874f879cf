#include "gpu/tensor_permute.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/compile_cache.h"
#include "gpu/cuda_resources.h"
#include "gpu/nvrtc_compiler.h"

namespace ktune {
namespace {

constexpr unsigned kThreads = 256;
constexpr int64_t kTile = 32;

// KT_TILED 0: a thread per destination element, the source gathered. KT_TILED 1: the source's
// unit-stride dimension (KT_DS) and the destination's first dimension are transposed through a
// shared-memory tile, so that both sides move whole lines; a block per tile and combination of
// the other dimensions.
constexpr const char* kSource = R"(
__device__ __forceinline__ void kt_put(KT_T* dst, const KT_T* in, KT_T scale, long long i, KT_T v) {
  dst[i] = KT_ACCUMULATE ? in[i] + scale * v : v;
}

extern "C" __global__ void __launch_bounds__(256)
    ktune_permute(const KT_T* __restrict__ src, KT_T* __restrict__ dst, const KT_T* __restrict__ in, KT_T scale,
                  long long elements) {
  const long long extent[KT_RANK] = KT_EXTENTS, stride[KT_RANK] = KT_STRIDES;
#if KT_TILED
  __shared__ KT_T tile[KT_T0][KT_TS + 1];
  const long long tiles0 = (extent[0] + KT_T0 - 1) / KT_T0, tiless = (extent[KT_DS] + KT_TS - 1) / KT_TS;
  long long rest = blockIdx.x;
  const long long t0 = rest % tiles0 * KT_T0;
  rest /= tiles0;
  const long long ts = rest % tiless * KT_TS;
  rest /= tiless;
  long long src_base = 0, dst_base = 0, dst_stride = 1, ds_dst_stride = 1;
#pragma unroll
  for (int d = 0; d < KT_RANK; ++d) {
    if (d == KT_DS) ds_dst_stride = dst_stride;
    if (d != 0 && d != KT_DS) {
      const long long digit = rest % extent[d];
      rest /= extent[d];
      src_base += digit * stride[d];
      dst_base += digit * dst_stride;
    }
    dst_stride *= extent[d];
  }
  for (int e = threadIdx.x; e < KT_T0 * KT_TS; e += blockDim.x) {
    const int i0 = e / KT_TS, is = e % KT_TS;  // the source's unit stride fastest
    if (t0 + i0 < extent[0] && ts + is < extent[KT_DS]) tile[i0][is] = src[src_base + (t0 + i0) * stride[0] + ts + is];
  }
  __syncthreads();
  for (int e = threadIdx.x; e < KT_T0 * KT_TS; e += blockDim.x) {
    const int i0 = e % KT_T0, is = e / KT_T0;  // the destination's first dimension fastest
    if (t0 + i0 < extent[0] && ts + is < extent[KT_DS])
      kt_put(dst, in, scale, dst_base + t0 + i0 + (ts + is) * ds_dst_stride, tile[i0][is]);
  }
#else
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= elements) return;
  long long rest = i, offset = 0;
#pragma unroll
  for (int d = 0; d < KT_RANK; ++d) {
    offset += rest % extent[d] * stride[d];
    rest /= extent[d];
  }
  kt_put(dst, in, scale, i, src[offset]);
#endif
}
)";

// The destination dimension whose source stride is 1, when the first one's is not: the
// dimension to transpose through shared memory. -1 where a plain gather reads whole lines.
int tiled_dimension(const Permutation& p) {
  if (p.extents.empty() || p.extents[0] == 1 || p.strides[0] == 1) return -1;
  for (size_t d = 1; d < p.extents.size(); ++d)
    if (p.strides[d] == 1 && p.extents[d] > 1) return static_cast<int>(d);
  return -1;
}

std::string braced(const std::vector<int64_t>& values) {
  std::string s = "{";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + std::to_string(values[i]) + "LL";
  return s + "}";
}

}  // namespace

int64_t Permutation::elements() const {
  int64_t n = 1;
  for (int64_t e : extents) n *= e;
  return n;
}

struct TensorPermute::Loaded {
  CudaModule module;
  CUfunction function;
  Loaded(const CudaDriver& cu, const CompiledKernel& kernel) : module(cu, kernel.ptx.c_str()) {
    function = module.function("ktune_permute");
  }
};

CompileRequest tensor_permute_request(Dtype dtype, const Permutation& p, bool accumulate) {
  if (dtype != Dtype::F32 && dtype != Dtype::F64)
    throw std::runtime_error(std::string("a tensor permutation takes f32 or f64 values, not ") + to_string(dtype));
  if (p.extents.size() != p.strides.size()) throw std::runtime_error("a permutation needs one stride per extent");
  // A scalar is one dimension of extent 1: C++ has no arrays of zero length.
  const bool scalar = p.extents.empty();
  CompileRequest request;
  request.code = kSource;
  request.entries = {"ktune_permute"};
  request.arch = "compute_75";  // the oldest CUDA 13 compiles for
  request.options = {std::string("-DKT_T=") + (dtype == Dtype::F64 ? "double" : "float"),
                     "-DKT_RANK=" + std::to_string(scalar ? 1 : p.extents.size()),
                     "-DKT_EXTENTS=" + (scalar ? std::string("{1LL}") : braced(p.extents)),
                     "-DKT_STRIDES=" + (scalar ? std::string("{0LL}") : braced(p.strides)),
                     std::string("-DKT_ACCUMULATE=") + (accumulate ? "1" : "0")};
  const int ds = tiled_dimension(p);
  request.options.push_back("-DKT_TILED=" + std::to_string(ds >= 0));
  if (ds >= 0) {
    request.options.push_back("-DKT_DS=" + std::to_string(ds));
    request.options.push_back("-DKT_T0=" + std::to_string(std::min(kTile, p.extents[0])));
    request.options.push_back("-DKT_TS=" + std::to_string(std::min(kTile, p.extents[static_cast<size_t>(ds)])));
  }
  return request;
}

TensorPermute::TensorPermute(const CudaDriver& cu, Dtype dtype, const Permutation& p, bool accumulate)
    : cu_(cu), dtype_(dtype), elements_(p.elements()) {
  const int ds = tiled_dimension(p);
  if (ds < 0) {
    blocks_ = (elements_ + kThreads - 1) / kThreads;
  } else {
    const int64_t e0 = p.extents[0], es = p.extents[static_cast<size_t>(ds)];
    const int64_t t0 = std::min(kTile, e0), ts = std::min(kTile, es);
    blocks_ = (e0 + t0 - 1) / t0 * ((es + ts - 1) / ts) * (elements_ / (e0 * es));
  }
  static const NvrtcCompiler compiler;
  static CompileCache compiled(compiler, 64, nullptr);
  const std::shared_ptr<const CompiledKernel> kernel = compiled.get(tensor_permute_request(dtype, p, accumulate));
  if (!kernel->ok) throw std::runtime_error("compiling a tensor permutation: " + kernel->log);
  loaded_ = std::make_unique<Loaded>(cu, *kernel);
}

TensorPermute::~TensorPermute() = default;

void TensorPermute::run(CUstream stream, CUdeviceptr src, CUdeviceptr dst, CUdeviceptr in, double scale) const {
  float scale32 = static_cast<float>(scale);
  long long elements = elements_;
  void* args[] = {&src, &dst, &in, dtype_ == Dtype::F64 ? static_cast<void*>(&scale) : &scale32, &elements};
  cu_.check(cu_.launch_kernel(loaded_->function, static_cast<unsigned>(blocks_), 1, 1, kThreads, 1, 1, 0, stream, args, nullptr),
            "launching a tensor permutation");
}

}  // namespace ktune
