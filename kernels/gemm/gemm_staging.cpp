#include "kernels/gemm/gemm_staging.h"

namespace ktune {

namespace {

constexpr int64_t kTile = 64;          // gemm_stage.cu's KT_STAGE_TILE

uint32_t blocks_of(int64_t extent) { return static_cast<uint32_t>((extent + kTile - 1) / kTile); }

LaunchStep stage_step(const char* from, const char* to, int64_t rows, const GemmShape& s, int64_t kp, bool transposed) {
  LaunchStep step;
  step.entry = "gemm_stage_k_major";
  step.grid = {blocks_of(kp), blocks_of(rows), static_cast<uint32_t>(s.batch)};
  step.block = {32, 8, 1};
  step.args = {KernelArg::of_buffer(from), KernelArg::of_buffer(to)};
  for (int64_t v : {rows, s.k, kp, static_cast<int64_t>(transposed)})
    step.args.push_back(KernelArg::of_scalar(static_cast<int32_t>(v)));
  return step;
}

}  // namespace

GemmStaging GemmStaging::of(const GemmShape& s, const GemmConfig& c, const Precision& p) {
  GemmStaging g;
  g.run = s;
  if (c.kernel != GemmKernel::Wgmma) return g;
  const int64_t align = 16 / static_cast<int64_t>(dtype_size(p.input));  // elements in 16 bytes
  const bool ragged_k = s.k % align != 0;
  g.a = s.a_transposed || ragged_k;
  g.b = !s.b_transposed || ragged_k;
  g.run.k = (s.k + align - 1) / align * align;
  g.run.a_transposed = false;
  g.run.b_transposed = true;
  return g;
}

double GemmStaging::moved_bytes(const GemmShape& s, const Precision& p) const {
  const double read = (a ? s.a_elements() : 0) + (b ? s.b_elements() : 0);
  return (read + a_elements() + b_elements()) * static_cast<double>(dtype_size(p.input));
}

std::vector<LaunchStep> GemmStaging::launches(const GemmShape& s) const {
  std::vector<LaunchStep> steps;
  if (a) steps.push_back(stage_step("a", "a_k_major", s.m, s, run.k, s.a_transposed));
  if (b) steps.push_back(stage_step("b", "b_k_major", s.n, s, run.k, !s.b_transposed));
  return steps;
}

}  // namespace ktune
