#pragma once
// The CPU reference of a GEMM on a sample of C's elements: a full product of 8192^3 in double
// precision takes minutes, 300 dot products of length k milliseconds. The sample is spread
// evenly over the batch x m x n elements (with a hashed offset inside each stride, so that it
// falls on every residue of the tiles) plus the four corners of the first and last batch,
// where boundary tiles are cut. A kernel that gets a tile or a k-range wrong gets every element
// of it wrong, so a sample catches it; a single wrong element outside the sample is not caught.
#include <cstdint>
#include <vector>

#include "kernels/gemm/gemm_shape.h"

namespace ktune {

constexpr size_t kGemmSpreadSamples = 256;

// Sorted, distinct linear indices into C (b * m * n + row * n + col); every element when C
// holds no more than the sample would.
std::vector<int64_t> gemm_sample_indices(const GemmShape& s);

struct GemmSampleValue {
  double value = 0;      // sum_k a * b, in double
  double magnitude = 0;  // sum_k |a * b|: what the rounding error of the sum scales with
};

GemmSampleValue gemm_reference_at(const GemmShape& s, int64_t index);

}  // namespace ktune
