#include "kernels/host_memory_limit.h"

#include <gtest/gtest.h>

#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(HostMemoryLimit, OperandsOverHalfTheMachineAreRefusedWithTheirSizeAndAdvice) {
  const double physical = physical_memory_bytes();
  ASSERT_GT(physical, 0);
  EXPECT_NO_THROW(check_host_operands("small", 1 << 20, "no advice needed"));
  EXPECT_NO_THROW(check_host_operands("half", kHostOperandShare * physical, "no advice needed"));
  try {
    check_host_operands("spmm with k = 1024 (B)", physical, "ask for a smaller k");
    FAIL() << "operands as large as the machine's memory passed";
  } catch (const LimitError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("spmm with k = 1024 (B) needs " + std::to_string(static_cast<int64_t>(physical / (1 << 20))) +
                        " MiB of host memory"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("ask for a smaller k"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace ktune
