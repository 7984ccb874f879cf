#pragma once
// The dense input vector (x of y = A·x) that every family uploads and its CPU reference uses:
// a fixed, seeded sequence, so measurements and references agree across runs and machines.
#include <cstddef>
#include <vector>

namespace ktune {

// Values in [0.5, 1.5), each exactly representable in fp32, so the f32 and f64 kernels read the
// very same x as the double-precision reference (no rounding of x between them).
std::vector<double> deterministic_input_vector(size_t length);

// Element i of that sequence alone, for inputs written straight into device bytes.
double deterministic_input_value(size_t i);

// The dense input matrix (B of C = A·B): rows x cols, row-major, element (r, c) being element
// r * cols + c of the same sequence (in [0.5, 1.5) and exact in fp32 too). Its elements vary along
// rows and columns alike, so a kernel that reads the wrong row or column of it reads other values.
std::vector<double> deterministic_input_matrix(size_t rows, size_t cols);

}  // namespace ktune
