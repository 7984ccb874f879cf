#pragma once
// The operands of a GEMM, generated from their indices: element i of A or B is a hash of
// (operand, i) mapped to j/128 for an integer j in [-127, 127]. Seven significant bits are
// exact in bf16, f16, f32 and f64, so every precision reads the very same values as the CPU
// reference, and the products of two of them are exact in f32.
//
// Why host-filled buffers rather than a generate kernel: every step of a LaunchPlan is timed
// with the measurement, and a plan has no untimed set-up step; the bytes are shared between
// the configurations of a tune (prepare_next) and hashed once, so a 8192^3 problem pays its
// 2 x 128 MiB of bf16 once per tune.
#include <cstdint>
#include <vector>

#include "kernels/gemm/gemm_shape.h"
#include "kernels/launch_plan.h"

namespace ktune {

enum class GemmOperand : uint32_t { A = 1, B = 2 };

// Element `index` of an operand, as stored (GemmShape::a_index / b_index).
double gemm_input_value(GemmOperand operand, int64_t index);

// The operand as a device input in `dtype` (f32, f64, bf16 or f16).
DeviceBuffer gemm_operand_buffer(const std::string& name, GemmOperand operand, double elements, Dtype dtype);

// The bit pattern of a value exact in the 16-bit type (gemm_input_value's values are).
uint16_t to_bf16_bits(float v);
uint16_t to_f16_bits(float v);

}  // namespace ktune
