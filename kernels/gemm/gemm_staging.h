#pragma once
// The wgmma kernels read both operands k-major from rows that start 16-byte aligned (cp.async's
// 16-byte copies, TMA's global strides): layout nt with k a multiple of 8 (16-bit inputs) or 4
// (tf32). An operand stored otherwise (A transposed, B not, or either when k is not such a
// multiple) is first copied into that form by gemm_stage.cu, its rows k rounded up to 16 bytes
// with zeros after k, and the
// product runs in layout nt over the padded k, where the zeros add nothing. A user's
// operands in any layout then reach the warpgroup tensor cores for one pass over each staged
// operand (the alternative, element-by-element copies into the ring, ran 4000 x 3000 x 2500 at
// a third of cuBLAS).
#include <vector>

#include "kernels/gemm/gemm_config.h"
#include "kernels/launch_plan.h"

namespace ktune {

struct GemmStaging {
  bool a = false, b = false;  // operands copied before the product
  GemmShape run;              // the shape the product kernel reads

  // Nothing staged unless `c` is a wgmma configuration and `s` needs it.
  static GemmStaging of(const GemmShape& s, const GemmConfig& c, const Precision& p);
  bool any() const { return a || b; }
  // The buffers the product reads A and B from.
  const char* a_buffer() const { return a ? "a_k_major" : "a"; }
  const char* b_buffer() const { return b ? "b_k_major" : "b"; }
  double a_elements() const { return a ? static_cast<double>(run.batch) * run.m * run.k : 0; }
  double b_elements() const { return b ? static_cast<double>(run.batch) * run.n * run.k : 0; }
  // Bytes the staging passes read and write.
  double moved_bytes(const GemmShape& s, const Precision& p) const;
  // The copies, before the product's launch.
  std::vector<LaunchStep> launches(const GemmShape& s) const;
};

}  // namespace ktune
