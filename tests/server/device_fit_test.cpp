#include "server/device_fit.h"

#include <gtest/gtest.h>

#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(DeviceFit, AProblemLargerThanTheDeviceIsRefusedWithBothSizes) {
  const KernelFamily& spmv = *find_family("spmv");
  Workload w;
  w.matrix = generate_stencil_2d(200);  // about 0.8 MB of operands in f64
  const Problem p = Problem::of(Dtype::F64);
  DeviceInfo small;
  small.present = true;
  small.name = "a tiny GPU";
  small.memory_bytes = 500'000;
  try {
    check_fits_device(spmv, w, p, small);
    FAIL() << "no LimitError";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("a tiny GPU has 0.00 GB"), std::string::npos) << e.what();
  }
  DeviceInfo large = small;
  large.memory_bytes = int64_t{80} << 30;
  EXPECT_NO_THROW(check_fits_device(spmv, w, p, large));
  EXPECT_NO_THROW(check_fits_device(spmv, w, p, DeviceInfo{})) << "model-only: no device to refuse for";
}

}  // namespace
}  // namespace ktune
