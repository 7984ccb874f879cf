// The tensor permutation of the vendor baselines (gpu/tensor_permute.h) without a GPU: its
// size and its kernel, compiled by NVRTC for every rank the contractions use.
#include "gpu/tensor_permute.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "gpu/nvrtc_compiler.h"

namespace ktune {
namespace {

TEST(TensorPermute, ElementsAreTheProductOfTheExtents) {
  EXPECT_EQ((Permutation{{4, 3, 2}, {6, 2, 1}}.elements()), 24);
  EXPECT_EQ(Permutation{}.elements(), 1);
}

TEST(TensorPermute, CompilesForEveryRankAndBothDtypes) {
  const std::vector<Permutation> cases = {
      {}, {{7}, {1}}, {{16, 16, 16, 16, 16, 16}, {4096, 1, 65536, 16, 1048576, 256}}};
  for (const Permutation& p : cases)
    for (Dtype dtype : {Dtype::F32, Dtype::F64})
      for (bool accumulate : {false, true}) {
        const CompiledKernel k = NvrtcCompiler().compile(tensor_permute_request(dtype, p, accumulate));
        EXPECT_TRUE(k.ok) << k.log;
        EXPECT_NE(k.ptx.find(".entry ktune_permute"), std::string::npos);
      }
}

// The third case's source has unit stride in the destination's second dimension: that pair
// goes through shared memory; the others gather.
TEST(TensorPermute, TransposesThroughSharedMemoryOnlyWhereTheFirstDimensionGathers) {
  auto tiled = [](const Permutation& p) {
    const std::vector<std::string> o = tensor_permute_request(Dtype::F64, p, true).options;
    return std::find(o.begin(), o.end(), "-DKT_TILED=1") != o.end();
  };
  EXPECT_TRUE(tiled({{16, 16, 16}, {16, 1, 256}}));
  EXPECT_FALSE(tiled({{16, 16, 16}, {1, 256, 16}}));
  EXPECT_FALSE(tiled({{1, 16}, {16, 1}}));
  EXPECT_FALSE(tiled({}));
}

TEST(TensorPermute, RefusesOtherDtypesAndMismatchedStrides) {
  EXPECT_THROW(tensor_permute_request(Dtype::BF16, Permutation{{4}, {1}}, false), std::runtime_error);
  EXPECT_THROW(tensor_permute_request(Dtype::F32, Permutation{{4, 4}, {1}}, false), std::runtime_error);
}

}  // namespace
}  // namespace ktune
