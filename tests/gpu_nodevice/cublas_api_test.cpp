// cuBLAS and cublasLt are loaded at run time: without the library the loader says so, with it
// every function resolves and errors read as cuBLAS describes them. No device is needed.
#include "gpu/cublas_api.h"

#include <gtest/gtest.h>

#include "gpu/vendor_calls.h"

namespace ktune {
namespace {

TEST(CublasApi, AMissingLibraryIsNamedWithDlopensReason) {
  static const char* const missing[] = {"libcublas.so.99"};
  std::string why;
  EXPECT_EQ(open_first_library(missing, 1, "cuBLAS", &why), nullptr);
  EXPECT_EQ(why.rfind("cuBLAS is not installed: ", 0), 0u) << why;
  EXPECT_NE(why.find("libcublas.so.99"), std::string::npos) << why;
}

TEST(CublasApi, LoadGivesAnApiOrAReason) {
  std::string why = "unset";
  const CublasApi* api = CublasApi::load(&why);
  if (!api) {
    EXPECT_NE(why.find("cuBLAS"), std::string::npos) << why;
    return;
  }
  EXPECT_TRUE(why.empty());
  EXPECT_NE(api->gemm_strided_batched_ex, nullptr);
  try {
    api->check(CUBLAS_STATUS_INVALID_VALUE, "testing");
    ADD_FAILURE() << "no exception";
  } catch (const CublasError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("testing: ", 0), 0u) << e.what();
  }
  EXPECT_NO_THROW(api->check(CUBLAS_STATUS_SUCCESS, "fine"));
}

TEST(CublasLtApi, LoadGivesAnApiOrAReason) {
  std::string why = "unset";
  const CublasLtApi* api = CublasLtApi::load(&why);
  if (!api) {
    EXPECT_NE(why.find("cublasLt"), std::string::npos) << why;
    return;
  }
  EXPECT_TRUE(why.empty());
  EXPECT_NE(api->heuristic, nullptr);
  EXPECT_NE(api->matmul, nullptr);
}

TEST(CublasCalls, AreKnownToTheWorker) {
  EXPECT_TRUE(has_vendor_call("cublas_gemm"));
  EXPECT_TRUE(has_vendor_call("cublaslt_gemm"));
}

}  // namespace
}  // namespace ktune
