#include "kernels/sddmm/sddmm_reference.h"

#include <stdexcept>
#include <string>

#include "workload/parallel.h"

namespace ktune {

namespace {

// nnz * K products: a large problem's reference is worth every core.
constexpr int64_t kProductsPerThread = int64_t{1} << 24;

}  // namespace

std::vector<double> sddmm_reference(const CsrF64& s, const std::vector<float>& a, const std::vector<float>& b,
                                    int32_t k) {
  const size_t width = static_cast<size_t>(k);
  if (a.size() != static_cast<size_t>(s.rows) * width || b.size() != static_cast<size_t>(s.cols) * width) {
    throw std::invalid_argument("sddmm_reference: A and B must be " + std::to_string(s.rows) + " and " +
                                std::to_string(s.cols) + " rows of " + std::to_string(k));
  }
  std::vector<double> c(static_cast<size_t>(s.nnz()));
  const int threads = worker_count(s.nnz() * k, kProductsPerThread);
  parallel_for(threads, threads, [&](int t) {
    const int32_t end = static_cast<int32_t>(part_begin(s.rows, threads, t + 1));
    for (int32_t r = static_cast<int32_t>(part_begin(s.rows, threads, t)); r < end; ++r) {
      const float* a_row = a.data() + static_cast<size_t>(r) * width;
      for (int32_t i = s.row_ptr[r]; i < s.row_ptr[r + 1]; ++i) {
        const float* b_row = b.data() + static_cast<size_t>(s.col_idx[i]) * width;
        double sum = 0;
        for (size_t j = 0; j < width; ++j) sum += static_cast<double>(a_row[j]) * b_row[j];
        c[static_cast<size_t>(i)] = sum;
      }
    }
  });
  return c;
}

}  // namespace ktune
