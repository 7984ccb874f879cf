// Transpose-transpose-GEMM-transpose, what a user without ktune runs for a tensor contraction:
// each operand permuted into a column-major matrix (skipped where it already is one, either
// way round), one cuBLAS GEMM into a scratch C, and C permuted into the output as
// out = in + scale * C (the last transpose fused with the update, which favours the baseline).
// Args: the buffers a, b, in, out; permute_a and permute_b ({"extents", "strides"}: the
// matrix's dimensions and their strides in the operand; absent when the operand is used as
// stored); gemm (m, n, k, transpose_first, transpose_second, ld_first, ld_second, ldc) over the
// reshaped A (first) and B (second), run by cublasGemmEx, or by cublasLt when gemm names the
// `candidate` of its heuristic; permute_out (C's strides for each output dimension) and scale.
#include <memory>
#include <stdexcept>

#include "gpu/cuda_resources.h"
#include "gpu/tensor_permute.h"
#include "gpu/vendor_calls.h"

namespace ktune {
namespace {

Permutation permutation_of(const nlohmann::json& p) {
  return {p.at("extents").get<std::vector<int64_t>>(), p.at("strides").get<std::vector<int64_t>>()};
}

class CublasTtgt : public VendorInvocation {
 public:
  CublasTtgt(const nlohmann::json& args, VendorEnv& env)
      : env_(env), inner_(env), dtype_(env.precision.input), scale_(args.at("scale").get<double>()) {
    if (!env.precision.is_uniform())
      throw std::runtime_error("transpose-GEMM-transpose takes one dtype for inputs, accumulation and output");
    a_ = env.address(args.at("a").get<std::string>());
    b_ = env.address(args.at("b").get<std::string>());
    in_ = env.address(args.at("in").get<std::string>());
    out_ = env.address(args.at("out").get<std::string>());
    const size_t value = dtype_size(dtype_);
    if (args.contains("permute_a")) permute_a_ = reshape(args.at("permute_a"), value, a_scratch_);
    if (args.contains("permute_b")) permute_b_ = reshape(args.at("permute_b"), value, b_scratch_);
    const nlohmann::json& g = args.at("gemm");
    c_scratch_ = DeviceMemory(env.cu, static_cast<size_t>(g.at("m").get<int64_t>() * g.at("n").get<int64_t>()) * value);
    // The GEMM sees the reshaped operands and the scratch C under names of their own.
    const CUdeviceptr first = permute_a_ ? a_scratch_.get() : a_, second = permute_b_ ? b_scratch_.get() : b_;
    const CUdeviceptr c = c_scratch_.get();
    inner_.address = [first, second, c](const std::string& name) -> CUdeviceptr {
      if (name == "first") return first;
      if (name == "second") return second;
      if (name == "c") return c;
      throw std::runtime_error("transpose-GEMM-transpose has no buffer '" + name + "'");
    };
    nlohmann::json gemm = g;
    gemm.update({{"batch", 1}, {"stride_first", 0}, {"stride_second", 0}, {"stride_c", 0},
                 {"first", "first"}, {"second", "second"}, {"c", "c"}});
    gemm_ = g.contains("candidate") ? cublaslt_gemm_call(gemm, inner_) : cublas_gemm_call(gemm, inner_);
    permute_out_ = std::make_unique<TensorPermute>(env.cu, dtype_, permutation_of(args.at("permute_out")), true);
  }

  void run() override {
    if (permute_a_) permute_a_->run(env_.stream, a_, a_scratch_.get());
    if (permute_b_) permute_b_->run(env_.stream, b_, b_scratch_.get());
    gemm_->run();
    permute_out_->run(env_.stream, c_scratch_.get(), out_, in_, scale_);
  }

 private:
  std::unique_ptr<TensorPermute> reshape(const nlohmann::json& p, size_t value, DeviceMemory& scratch) {
    const Permutation permutation = permutation_of(p);
    scratch = DeviceMemory(env_.cu, static_cast<size_t>(permutation.elements()) * value);
    return std::make_unique<TensorPermute>(env_.cu, dtype_, permutation, false);
  }

  VendorEnv& env_;
  VendorEnv inner_;  // outlives the GEMM, which may keep a reference to it
  Dtype dtype_;
  double scale_;
  CUdeviceptr a_ = 0, b_ = 0, in_ = 0, out_ = 0;
  DeviceMemory a_scratch_, b_scratch_, c_scratch_;
  std::unique_ptr<TensorPermute> permute_a_, permute_b_, permute_out_;
  std::unique_ptr<VendorInvocation> gemm_;
};

}  // namespace

std::unique_ptr<VendorInvocation> cublas_ttgt_call(const nlohmann::json& args, VendorEnv& env) {
  return std::make_unique<CublasTtgt>(args, env);
}

}  // namespace ktune
