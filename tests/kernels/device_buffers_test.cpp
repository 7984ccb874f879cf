#include "kernels/device_buffers.h"

#include <gtest/gtest.h>

#include <cstring>

namespace ktune {
namespace {

template <typename T>
std::vector<T> read_back(const DeviceBuffer& b) {
  std::vector<T> out(b.bytes.size() / sizeof(T));
  std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
  return out;
}

TEST(DeviceBuffers, IndexBufferHoldsTheIndices) {
  const std::vector<int32_t> indices = {0, 7, -1, 123456};
  const DeviceBuffer b = index_buffer("col_idx", indices);
  EXPECT_EQ(b.name, "col_idx");
  EXPECT_EQ(b.size, 16u);
  EXPECT_EQ(read_back<int32_t>(b), indices);
}

TEST(DeviceBuffers, ValueBufferUploadsInTheKernelPrecision) {
  const std::vector<double> values = {0.1, -2.5, 1e-30};
  const DeviceBuffer f64 = value_buffer("values", values, Dtype::F64);
  EXPECT_EQ(f64.size, 24u);
  EXPECT_EQ(read_back<double>(f64), values);
  const DeviceBuffer f32 = value_buffer("values", values, Dtype::F32);
  EXPECT_EQ(f32.size, 12u);
  EXPECT_EQ(read_back<float>(f32), (std::vector<float>{0.1f, -2.5f, 1e-30f}));
}

TEST(DeviceBuffers, OutputBufferHasASizeAndNoBytes) {
  const DeviceBuffer b = output_buffer("y", 10, Dtype::F64);
  EXPECT_EQ(b.name, "y");
  EXPECT_EQ(b.size, 80u);
  EXPECT_TRUE(b.bytes.empty());
  EXPECT_EQ(output_buffer("y", 10, Dtype::F32).size, 40u);
}

}  // namespace
}  // namespace ktune
