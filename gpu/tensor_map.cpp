#include "gpu/tensor_map.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "workload/workload.h"

namespace ktune {
namespace {

CUtensorMapDataType data_type(Dtype d) {
  switch (d) {
    case Dtype::F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case Dtype::BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case Dtype::F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case Dtype::TF32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;  // copied as stored; the tensor cores read tf32
    case Dtype::F64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    case Dtype::I32: return CU_TENSOR_MAP_DATA_TYPE_INT32;
  }
  throw std::runtime_error("no tensor-map type for this element type");
}

CUtensorMapSwizzle swizzle(uint32_t bytes) {
  switch (bytes) {
    case 0: return CU_TENSOR_MAP_SWIZZLE_NONE;
    case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  throw std::runtime_error("a tensor map swizzles over 0, 32, 64 or 128 bytes, not " + std::to_string(bytes));
}

}  // namespace

CUtensorMap encode_tensor_map(const CudaDriver& cu, const TensorMapArg& map, CUdeviceptr address, size_t buffer_bytes) {
  const auto rank = static_cast<cuuint32_t>(map.dims.size());
  if (rank < 1 || rank > 5 || map.strides.size() + 1 != map.dims.size() || map.box.size() != map.dims.size())
    throw std::runtime_error("tensor map over '" + map.buffer + "': dims, strides and box do not agree");
  for (uint64_t d : map.dims)
    if (d == 0) throw std::runtime_error("tensor map over '" + map.buffer + "' has an empty dimension");
  // The farthest element it addresses must lie inside the buffer.
  uint64_t last = (map.dims[0] - 1) * dtype_size(map.dtype);
  for (size_t d = 1; d < map.dims.size(); ++d) last += (map.dims[d] - 1) * map.strides[d - 1];
  if (last + dtype_size(map.dtype) > buffer_bytes)
    throw std::runtime_error("tensor map over '" + map.buffer + "' reaches byte " + std::to_string(last) +
                             " of a buffer of " + std::to_string(buffer_bytes));
  const std::vector<cuuint64_t> dims(map.dims.begin(), map.dims.end());
  const std::vector<cuuint64_t> strides(map.strides.begin(), map.strides.end());
  const std::vector<cuuint32_t> box(map.box.begin(), map.box.end());
  const std::vector<cuuint32_t> element_strides(rank, 1);
  CUtensorMap out{};
  // OOB_FILL_NONE fills elements outside the dimensions with zeros (NAN_REQUEST_ZERO_FMA
  // would fill NaNs); L2 promotion to 256 bytes, as CUTLASS asks for its operand tiles.
  cu.check(cu.tensor_map_encode_tiled(&out, data_type(map.dtype), rank, reinterpret_cast<void*>(address), dims.data(),
                                      strides.data(), box.data(), element_strides.data(),
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle(map.swizzle_bytes),
                                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
           "encoding the tensor map over '" + map.buffer + "'");
  return out;
}

}  // namespace ktune
