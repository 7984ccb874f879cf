#pragma once
// The dense operands of SDDMM, A (rows x K) and B (cols x K), row-major: fixed seeded values, so
// that the device inputs and the CPU reference agree across runs and machines. Each operand is
// its own sequence: were A's rows B's, A·Bᵀ would be symmetric and a kernel that swapped them
// would pass.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/launch_plan.h"

namespace ktune {

enum class DenseOperand { A, B };

// Every value of the operand, in [-1, 1) with 20 fraction bits: exact in fp32, so the f32 and
// f64 kernels read the very values the double-precision reference does, and this copy of
// them takes half the memory of doubles.
std::vector<float> dense_operand(DenseOperand which, int64_t rows, int32_t k);

// The same values as a device input in `dtype`, written straight into its bytes: an operand of
// gigabytes is not held twice.
DeviceBuffer dense_operand_buffer(std::string name, DenseOperand which, int64_t rows, int32_t k, Dtype dtype);

}  // namespace ktune
