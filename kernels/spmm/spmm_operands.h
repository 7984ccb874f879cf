#pragma once
// The dense operands of C = A·B: B (cols x K) and C (rows x K), row-major. B is
// deterministic_input_matrix (kernels/input_vector.h), the same on the device and in the CPU
// reference.
#include <cstdint>
#include <string>

#include "kernels/launch_plan.h"
#include "workload/csr_matrix.h"

namespace ktune {

// What a device holds at the least for the problem: A as CSR, B and C.
constexpr double kSpmmMaxDeviceBytes = 64.0 * (uint64_t{1} << 30);
double spmm_device_bytes(const CsrF64& a, int32_t k, Dtype dtype);

// B as a device input in `dtype`, written straight into its bytes: an operand of gigabytes is
// not held twice.
DeviceBuffer dense_input_buffer(std::string name, int64_t rows, int32_t k, Dtype dtype);

}  // namespace ktune
