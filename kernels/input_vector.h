#pragma once
// The dense input vector (x of y = A·x) that every family uploads and its CPU reference uses:
// a fixed, seeded sequence, so measurements and references agree across runs and machines.
#include <cstddef>
#include <vector>

namespace ktune {

// Values in [0.5, 1.5), each exactly representable in fp32, so the f32 and f64 kernels read the
// very same x as the double-precision reference (no rounding of x between them).
std::vector<double> deterministic_input_vector(size_t length);

}  // namespace ktune
