#include "gpu/cuda_driver.h"

#include <gtest/gtest.h>

#include "gpu/cusparse_api.h"

namespace ktune {
namespace {

TEST(CudaDriver, LoadGivesADriverOrAReason) {
  std::string why = "unset";
  const CudaDriver* driver = CudaDriver::load(&why);
  if (driver) {
    EXPECT_TRUE(why.empty());
    EXPECT_NE(driver->launch_kernel, nullptr);
    EXPECT_NE(driver->launch_kernel_ex, nullptr);
    EXPECT_NE(driver->tensor_map_encode_tiled, nullptr);
    EXPECT_NE(driver->mem_alloc, nullptr);
    GTEST_SKIP() << "a CUDA driver is present";
  }
  EXPECT_FALSE(why.empty());
  EXPECT_NE(why.find("libcuda"), std::string::npos) << why;
  // Loading is attempted once; asking again gives the same answer.
  std::string again;
  EXPECT_EQ(CudaDriver::load(&again), nullptr);
  EXPECT_EQ(again, why);
  EXPECT_EQ(CudaDriver::load(), nullptr);
}

TEST(CusparseApi, LoadGivesAnApiOrAReason) {
  std::string why = "unset";
  const CusparseApi* api = CusparseApi::load(&why);
  if (!api) {
    EXPECT_NE(why.find("cuSPARSE"), std::string::npos) << why;
    return;
  }
  EXPECT_TRUE(why.empty());
  EXPECT_NE(api->spmv, nullptr);
  EXPECT_NE(api->spmv_preprocess, nullptr);
  // The library describes its own errors; no device is needed for that.
  try {
    api->check(CUSPARSE_STATUS_INVALID_VALUE, "testing");
    ADD_FAILURE() << "no exception";
  } catch (const CusparseError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("testing: ", 0), 0u) << e.what();
  }
  EXPECT_NO_THROW(api->check(CUSPARSE_STATUS_SUCCESS, "fine"));
}

}  // namespace
}  // namespace ktune
