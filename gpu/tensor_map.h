#pragma once
// A plan's tensor-map argument (launch_plan.h's TensorMapArg) as the 128-byte CUtensorMap a
// kernel takes by value: encoded by the driver once its buffer has an address, since the
// descriptor holds that address.
#include <cstddef>

#include "gpu/cuda_driver.h"
#include "kernels/launch_plan.h"

namespace ktune {

static_assert(sizeof(CUtensorMap) == kTensorMapBytes, "the plan's tensor maps are CUtensorMap's size");

// Throws std::runtime_error when the map reaches past its buffer's `buffer_bytes`, or
// CudaError when the driver refuses it (a misaligned address or stride, a box too large).
CUtensorMap encode_tensor_map(const CudaDriver& cu, const TensorMapArg& map, CUdeviceptr address, size_t buffer_bytes);

}  // namespace ktune
