#include "gpu/tensor_permute.h"

#include <stdexcept>
#include <string>

#include "gpu/cuda_resources.h"
#include "gpu/nvrtc_compiler.h"

namespace ktune {
namespace {

constexpr unsigned kThreads = 256;

constexpr const char* kSource = R"(
extern "C" __global__ void __launch_bounds__(256)
    ktune_permute(const KT_T* __restrict__ src, KT_T* __restrict__ dst, const KT_T* __restrict__ in, KT_T scale,
                  long long elements) {
  const long long extent[KT_RANK] = KT_EXTENTS, stride[KT_RANK] = KT_STRIDES;
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= elements) return;
  long long rest = i, offset = 0;
#pragma unroll
  for (int d = 0; d < KT_RANK; ++d) {
    offset += rest % extent[d] * stride[d];
    rest /= extent[d];
  }
  const KT_T v = src[offset];
  dst[i] = KT_ACCUMULATE ? in[i] + scale * v : v;
}
)";

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

bool Permutation::identity() const {
  int64_t expected = 1;
  for (size_t d = 0; d < extents.size(); ++d) {
    if (extents[d] > 1 && strides[d] != expected) return false;
    expected *= extents[d];
  }
  return true;
}

struct TensorPermute::Loaded {
  std::string ptx;
  CudaModule module;
  CUfunction function;
  Loaded(const CudaDriver& cu, std::string code) : ptx(std::move(code)), module(cu, ptx.c_str()) {
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
  return request;
}

TensorPermute::TensorPermute(const CudaDriver& cu, Dtype dtype, const Permutation& p, bool accumulate)
    : cu_(cu), dtype_(dtype), elements_(p.elements()) {
  const CompiledKernel compiled = NvrtcCompiler().compile(tensor_permute_request(dtype, p, accumulate));
  if (!compiled.ok) throw std::runtime_error("compiling a tensor permutation: " + compiled.log);
  loaded_ = std::make_unique<Loaded>(cu, compiled.ptx);
}

TensorPermute::~TensorPermute() = default;

void TensorPermute::run(CUstream stream, CUdeviceptr src, CUdeviceptr dst, CUdeviceptr in, double scale) const {
  float scale32 = static_cast<float>(scale);
  long long elements = elements_;
  void* args[] = {&src, &dst, &in, dtype_ == Dtype::F64 ? static_cast<void*>(&scale) : &scale32, &elements};
  const unsigned blocks = static_cast<unsigned>((elements_ + kThreads - 1) / kThreads);
  cu_.check(cu_.launch_kernel(loaded_->function, blocks, 1, 1, kThreads, 1, 1, 0, stream, args, nullptr),
            "launching a tensor permutation");
}

}  // namespace ktune
