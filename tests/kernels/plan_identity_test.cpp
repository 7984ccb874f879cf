#include "kernels/plan_identity.h"

#include <gtest/gtest.h>

#include "kernels/spmm/spmm_family.h"
#include "random_csr.h"

namespace ktune {
namespace {

using testing_support::csr_with_row_lengths;
using testing_support::workload_of;

const std::string kKernel = "kernel-key";

Config heavy_light(const SpmmFamily& family, const Problem& p, int64_t threshold) {
  Config c = family.space(p).first_valid();
  c["schedule"] = 2;  // heavy_light, in the order of spmm_space's choices
  c["block"] = 128;
  c["threshold"] = threshold;
  EXPECT_TRUE(family.space(p).valid(c)) << family.space(p).canonical(c);
  return c;
}

// heavy_light's threshold decides the plan only where some row is longer than it.
TEST(PlanIdentity, ConfigurationsThatMakeTheSamePlanShareItAndOnlyThose) {
  const SpmmFamily family;
  const Problem p = Problem::of(Dtype::F32, {{"k", 32}});
  const Workload short_rows = workload_of(csr_with_row_lengths({3, 0, 50, 1, 60}, 100));
  const Workload one_long = workload_of(csr_with_row_lengths({3, 0, 200, 1, 60}, 300));
  const auto identity = [&](const Workload& w, int64_t threshold) {
    return plan_identity(family.prepare(w, p, heavy_light(family, p, threshold)), kKernel);
  };
  EXPECT_EQ(identity(short_rows, 64), identity(short_rows, 256));
  EXPECT_EQ(identity(short_rows, 256), identity(short_rows, 1024));
  EXPECT_EQ(identity(one_long, 256), identity(one_long, 1024));
  EXPECT_NE(identity(one_long, 64), identity(one_long, 256));  // the row of 200 is cut at 64
  EXPECT_NE(identity(short_rows, 64), identity(one_long, 256));  // other data
  // Another kernel is other work, whatever the plan.
  const LaunchPlan plan = family.prepare(short_rows, p, heavy_light(family, p, 64));
  EXPECT_NE(plan_identity(plan, kKernel), plan_identity(plan, "another-kernel"));
}

TEST(PlanIdentity, EveryPartTheDeviceRunsCounts) {
  const SpmmFamily family;
  const Problem p = Problem::of(Dtype::F32, {{"k", 32}});
  const LaunchPlan plan = family.prepare(workload_of(csr_with_row_lengths({3, 0, 50}, 60)), p,
                                         family.space(p).first_valid());
  const std::string base = plan_identity(plan, kKernel);
  EXPECT_EQ(plan_identity(plan, kKernel), base);  // deterministic
  std::vector<LaunchPlan> changed(6, plan);
  changed[0].steps[0].grid.x += 1;
  changed[1].steps[0].args[0].scalar = std::get<int32_t>(plan.steps[0].args[0].scalar) + 1;
  changed[2].steps[0].args[0].scalar = static_cast<int64_t>(std::get<int32_t>(plan.steps[0].args[0].scalar));
  changed[3].buffers[0].bytes = HostBytes(std::vector<std::byte>(plan.buffers[0].bytes.size() + 4));
  changed[4].outputs[0].elements += 1;
  changed[5].program = {PlanOp::run(0)};
  for (size_t i = 0; i < changed.size(); ++i) EXPECT_NE(plan_identity(changed[i], kKernel), base) << "change " << i;
  // Host-only parts do not.
  LaunchPlan host_only = plan;
  host_only.prepare_seconds = 3;
  host_only.check_data.clear();
  EXPECT_EQ(plan_identity(host_only, kKernel), base);
}

}  // namespace
}  // namespace ktune
