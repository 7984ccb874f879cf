#include <gtest/gtest.h>

#include "model/saake/ptx_module_cache.h"
#include "tests/saake/spmv_candidates.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(PtxModuleCache, ParsesEachCompiledKernelOnce) {
  const CompiledKernel row = *testing_support::compile_spmv(
      testing_support::spmv_config("block=128;items_per_thread=1;lanes=1;schedule=row"), Dtype::F32);
  const CompiledKernel merge = *testing_support::compile_spmv(
      testing_support::spmv_config("block=128;items_per_thread=2;lanes=1;schedule=merge"), Dtype::F32);
  PtxModuleCache cache(1);
  const auto first = cache.get(row);
  EXPECT_EQ(cache.get(row), first);
  EXPECT_EQ(cache.parses(), 1u);
  EXPECT_NE(first->find("spmv_row"), nullptr);
  // Capacity 1: the merge kernel evicts the row kernel, which must then be parsed again.
  EXPECT_NE(cache.get(merge)->find("spmv_merge"), nullptr);
  EXPECT_NE(cache.get(row), nullptr);
  EXPECT_EQ(cache.parses(), 3u);
}

TEST(PtxModuleCache, RefusesKernelsWithoutUsablePtx) {
  PtxModuleCache cache;
  CompiledKernel failed;
  failed.key = "k";
  failed.log = "error: expected ';'";
  EXPECT_THROW(cache.get(failed), InputError);
  CompiledKernel empty;
  empty.ok = true;
  EXPECT_THROW(cache.get(empty), InputError);
  EXPECT_EQ(cache.parses(), 0u);
}

}  // namespace
}  // namespace ktune
