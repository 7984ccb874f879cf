#include "kernels/gemm/gemm_reference.h"

#include <algorithm>
#include <cmath>

#include "kernels/gemm/gemm_operands.h"

namespace ktune {

std::vector<int64_t> gemm_sample_indices(const GemmShape& s) {
  const int64_t total = static_cast<int64_t>(s.c_elements());
  std::vector<int64_t> out;
  if (total <= static_cast<int64_t>(kGemmSpreadSamples) + 8) {
    for (int64_t i = 0; i < total; ++i) out.push_back(i);
    return out;
  }
  const int64_t spread = static_cast<int64_t>(kGemmSpreadSamples);
  for (int64_t i = 0; i < spread; ++i) {
    const int64_t begin = i * total / spread, end = (i + 1) * total / spread;
    // A fixed odd multiplier walks the offsets through every residue of the stride.
    const int64_t offset = static_cast<int64_t>((static_cast<uint64_t>(i) * 2654435761u) % static_cast<uint64_t>(end - begin));
    out.push_back(begin + offset);
  }
  for (int64_t b : {int64_t{0}, s.batch - 1})
    for (int64_t row : {int64_t{0}, s.m - 1})
      for (int64_t col : {int64_t{0}, s.n - 1}) out.push_back((b * s.m + row) * s.n + col);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

GemmSampleValue gemm_reference_at(const GemmShape& s, int64_t index) {
  const int64_t b = index / (s.m * s.n);
  const int64_t row = index / s.n % s.m, col = index % s.n;
  GemmSampleValue out;
  for (int64_t kk = 0; kk < s.k; ++kk) {
    const double product = gemm_input_value(GemmOperand::A, s.a_index(b, row, kk)) *
                           gemm_input_value(GemmOperand::B, s.b_index(b, kk, col));
    out.value += product;
    out.magnitude += std::fabs(product);
  }
  return out;
}

}  // namespace ktune
