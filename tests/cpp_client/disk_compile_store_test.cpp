// The client's disk cache of compiled kernels: NVRTC's output (a cubin for sm_90, which needs
// no GPU) saved per source and architecture, and loaded by a later process instead of compiling.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "clients/cpp/disk_compile_store.h"
#include "gpu/compile_cache.h"
#include "kernels/kernel_family.h"
#include "tests/server/ktuned_process.h"

namespace ktune {
namespace {

CompileRequest spmv_default(const std::string& arch) {
  const KernelFamily& spmv = *find_family("spmv");
  const Problem problem = Problem::of(Dtype::F32);
  KernelSource source = spmv.source(problem, spmv.space(problem).first_valid());
  return {source.code, source.entries, source.options, arch};
}

// What a process starting afresh has: no kernel in memory, the directory on disk.
struct FreshProcess {
  explicit FreshProcess(const std::filesystem::path& dir) : store(dir.string()), cache(compiler, 8, &store) {}
  NvrtcCompiler compiler;
  DiskCompileStore store;
  CompileCache cache;
};

TEST(DiskCompileStore, ASecondProcessLoadsTheCubinInsteadOfCompiling) {
  const auto dir = testing::fresh_dir("cubin-cache");
  const CompileRequest request = spmv_default("sm_90");
  std::shared_ptr<const CompiledKernel> first;
  {
    FreshProcess one(dir);
    first = one.cache.get(request);
    ASSERT_TRUE(first->ok) << first->log;
    ASSERT_FALSE(first->cubin.empty());
    EXPECT_EQ(one.cache.stats().compiles, 1u);
    EXPECT_TRUE(std::filesystem::exists(one.store.path_of(first->key)));
  }
  FreshProcess two(dir);
  const std::shared_ptr<const CompiledKernel> loaded = two.cache.get(request);
  EXPECT_EQ(two.cache.stats().compiles, 0u);
  EXPECT_EQ(two.cache.stats().hits_store, 1u);
  EXPECT_EQ(loaded->cubin, first->cubin);
  EXPECT_EQ(loaded->lowered_names, first->lowered_names);
  EXPECT_EQ(loaded->usage.at(request.entries.front()).registers, first->usage.at(request.entries.front()).registers);
}

TEST(DiskCompileStore, TheKeyIsTheSourceAndTheDevicesArchitecture) {
  const auto dir = testing::fresh_dir("cubin-arch");
  FreshProcess process(dir);
  const auto hopper = process.cache.get(spmv_default("sm_90"));
  const auto ampere = process.cache.get(spmv_default("sm_80"));
  CompileRequest other_source = spmv_default("sm_90");
  other_source.options.push_back("-DKT_UNUSED=1");
  const auto changed = process.cache.get(other_source);
  EXPECT_EQ(process.cache.stats().compiles, 3u);
  EXPECT_NE(hopper->key, ampere->key);
  EXPECT_NE(hopper->key, changed->key);
  EXPECT_NE(hopper->cubin, ampere->cubin);
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files += entry.path().extension() == ".kernel";
  EXPECT_EQ(files, 3u);
}

TEST(DiskCompileStore, ADamagedFileIsCompiledAgainAndReplaced) {
  const auto dir = testing::fresh_dir("cubin-damaged");
  const CompileRequest request = spmv_default("sm_90");
  std::string path;
  {
    FreshProcess one(dir);
    path = one.store.path_of(one.cache.get(request)->key);
  }
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);  // a crash half-way
  FreshProcess two(dir);
  EXPECT_TRUE(two.cache.get(request)->ok);
  EXPECT_EQ(two.cache.stats().compiles, 1u);
  FreshProcess three(dir);
  three.cache.get(request);
  EXPECT_EQ(three.cache.stats().hits_store, 1u);
}

TEST(DiskCompileStore, CompileErrorsAreNotSaved) {
  const auto dir = testing::fresh_dir("cubin-error");
  FreshProcess process(dir);
  const auto broken = process.cache.get({"extern \"C\" __global__ void k() { nonsense; }", {"k"}, {}, "sm_90"});
  EXPECT_FALSE(broken->ok);
  EXPECT_FALSE(std::filesystem::exists(process.store.path_of(broken->key)));
}

}  // namespace
}  // namespace ktune
