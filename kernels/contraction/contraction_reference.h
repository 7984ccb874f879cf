#pragma once
// The contraction's operands, generated from their indices, and its CPU reference twin.
#include <vector>

#include "kernels/contraction/contraction_spec.h"

namespace ktune {

enum class ContractionTensor { In, A, B };

// Multiples of 1/64 in [-1, 1]: every product, and any sum of up to 2^16 of them, is exact in
// f32 and f64, so every summation order gives the reference's value.
std::vector<double> contraction_operand(ContractionTensor tensor, int64_t elements);

// out = in + sign · Σ over the contracted indices of A·B, in the output's storage order.
std::vector<double> contraction_reference(const ContractionSpec& s);

}  // namespace ktune
