#include "db/compiled_kernel_repository.h"

#include <gtest/gtest.h>

#include "db_test_support.h"

namespace ktune {
namespace {

using CompiledKernelRepositoryTest = dbtest::DbTest;

CompiledKernelRecord sample() {
  CompiledKernelRecord k;
  k.key = "a3f1";
  k.arch = "sm_90";
  k.ok = true;
  k.ptx = ".version 8.0\n.target sm_90\n";
  k.cubin = dbtest::all_byte_values(5);
  k.lowered_names = {{"spmv<8>", "_Z4spmvILi8EEvv"}};
  k.usage = {{"spmv<8>", {{"registers", 32}, {"shared_bytes", 0}, {"spill_stores", 0}}}};
  k.log = "ptxas info: Used 32 registers";
  k.compile_seconds = 0.125;
  return k;
}

TEST_F(CompiledKernelRepositoryTest, SaveThenLoadKeepsEveryFieldAndEveryByte) {
  open();
  CompiledKernelRepository kernels(*db_);
  const CompiledKernelRecord k = sample();
  ASSERT_NE(k.cubin.find('\0'), std::string::npos);
  kernels.save(k);
  const auto got = kernels.load(k.key);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->key, k.key);
  EXPECT_EQ(got->arch, k.arch);
  EXPECT_EQ(got->ok, k.ok);
  EXPECT_EQ(got->ptx, k.ptx);
  EXPECT_EQ(got->cubin.size(), k.cubin.size());
  EXPECT_EQ(got->cubin, k.cubin);
  EXPECT_EQ(got->lowered_names, k.lowered_names);
  EXPECT_EQ(got->usage, k.usage);
  EXPECT_EQ(got->log, k.log);
  EXPECT_EQ(got->compile_seconds, k.compile_seconds);
  EXPECT_FALSE(kernels.load("unknown").has_value());
}

TEST_F(CompiledKernelRepositoryTest, SaveReplacesTheRecordWithTheSameKey) {
  open();
  CompiledKernelRepository kernels(*db_);
  kernels.save(sample());
  CompiledKernelRecord failed = sample();
  failed.ok = false;
  failed.ptx.clear();
  failed.cubin.clear();
  failed.log = "error: identifier \"x\" is undefined";
  kernels.save(failed);
  const auto got = kernels.load(failed.key);
  ASSERT_TRUE(got.has_value());
  EXPECT_FALSE(got->ok);
  EXPECT_TRUE(got->cubin.empty());
  EXPECT_EQ(got->log, failed.log);
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("SELECT count(*) FROM compiled_kernels").getInt64(), 1);
}

}  // namespace
}  // namespace ktune
