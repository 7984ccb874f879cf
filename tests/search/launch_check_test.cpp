#include "search/launch_check.h"

#include <gtest/gtest.h>

#include "gpu/nvrtc_compiler.h"
#include "kernels/contraction/contraction_family.h"
#include "kernels/spmv/spmv_family.h"
#include "workload/generators.h"

namespace ktune {
namespace {

CompiledKernel compiled(const std::string& entry, int registers, int shared_bytes) {
  CompiledKernel k;
  k.ok = true;
  k.usage[entry].registers = registers;
  k.usage[entry].shared_bytes = shared_bytes;
  return k;
}

class LaunchCheck : public ::testing::Test {
 protected:
  SpmvFamily family;
  Workload w;
  GpuSpec gpu = spec_for_arch("sm_90");
  Config row1024 = family.space({}).from_json({{"schedule", "row"}, {"block", 1024}});
  void SetUp() override { w.matrix = generate_stencil_2d(8); }
};

TEST_F(LaunchCheck, AKernelThatFitsMayLaunch) {
  EXPECT_EQ(launch_violation(family, w, {}, row1024, compiled("spmv_row", 32, 0), gpu), "");
}

TEST_F(LaunchCheck, TooManyRegistersForTheBlockIsRefusedNamingTheEntry) {
  // 96 registers x 1024 threads > the 65536 registers of an SM.
  const std::string why = launch_violation(family, w, {}, row1024, compiled("spmv_row", 96, 0), gpu);
  EXPECT_NE(why.find("spmv_row"), std::string::npos) << why;
  EXPECT_NE(why.find("registers"), std::string::npos) << why;
}

TEST_F(LaunchCheck, TooMuchSharedMemoryIsRefused) {
  const std::string why = launch_violation(family, w, {}, row1024, compiled("spmv_row", 16, gpu.max_shared_per_block + 1), gpu);
  EXPECT_NE(why.find("shared memory"), std::string::npos) << why;
}

// A format the workload refuses is refused before launch, with the family's reason; the same
// configuration on a matrix that takes it may launch.
TEST_F(LaunchCheck, AFormatTheWorkloadRefusesIsRefusedBeforeLaunch) {
  const Config sell = family.space({}).from_json({{"schedule", "sell"}, {"block", 256}});
  EXPECT_EQ(launch_violation(family, w, {}, sell, compiled("spmv_sell", 32, 0), gpu), "");
  Workload skewed;
  skewed.matrix = generate_rmat(10, 16, 1);
  const std::string why = launch_violation(family, skewed, {}, sell, compiled("spmv_sell", 32, 0), gpu);
  EXPECT_NE(why.find("schedule sell refused"), std::string::npos) << why;
}

// The contraction's register tiles must stay in registers: NVRTC's ptxas spills 32 f64 outputs a
// thread at 1024 threads (64 registers each), and that configuration is refused before launch;
// the same tile at 128 threads is not.
TEST(ContractionLaunchCheck, ASpilledRegisterTileIsRefused) {
  const ContractionFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem p = make_problem(family, {{"preset", "sd_t_d2_1"}, {"extent", 16}}, Precision::uniform(Dtype::F64));
  const GpuSpec gpu = spec_for_arch("sm_90");
  const NvrtcCompiler compiler;
  auto check = [&](int64_t block, int64_t tile) {
    const Config c = {{"schedule", 1}, {"block", block}, {"coarsen", 16}, {"coarsen2", 2}, {"unroll", 16}, {"tile", tile}};
    const KernelSource s = family.source(p, c);
    const CompiledKernel k = compiler.compile(CompileRequest{s.code, s.entries, s.options, "sm_90"});
    EXPECT_TRUE(k.ok) << k.log;
    return std::make_pair(k.usage.at("contraction_tiled").spill_stores, launch_violation(family, dense, p, c, k, gpu));
  };
  const auto [spills, why] = check(1024, 256);
  ASSERT_GT(spills, 0);
  EXPECT_NE(why.find("spills"), std::string::npos) << why;
  const auto [none, fits] = check(128, 256);
  EXPECT_EQ(none, 0);
  EXPECT_EQ(fits, "");
}

}  // namespace
}  // namespace ktune
