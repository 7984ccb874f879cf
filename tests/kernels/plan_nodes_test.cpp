// What an estimate charges as a program's launches: its nodes outside loops once, and a loop
// body's (nested loops flattened) once an expected iteration.
#include <gtest/gtest.h>

#include "kernels/launch_plan.h"

namespace ktune {
namespace {

TEST(PlanNodes, AStraightProgramCountsEachOpOnce) {
  const PlanNodes n = plan_nodes({PlanOp::fill("a", 0), PlanOp::run(0), PlanOp::copy("a", "b"), PlanOp::run(1)});
  EXPECT_EQ(n.outside, 4);
  EXPECT_EQ(n.per_iteration, 0);
  EXPECT_EQ(n.launches(10), 4);
}

TEST(PlanNodes, ALoopBodyCountsOnceAnIteration) {
  // A source's start, then levels of a fill, two launches and an inner loop of one launch.
  const std::vector<PlanOp> body = {PlanOp::fill("flag", 0), PlanOp::run(1), PlanOp::run(2),
                                    PlanOp::loop({PlanOp::run(3)}, "inner", 4)};
  const PlanNodes n = plan_nodes({PlanOp::fill("depths", 0), PlanOp::run(0), PlanOp::loop(body, "flag", 100)});
  EXPECT_EQ(n.outside, 2);
  EXPECT_EQ(n.per_iteration, 4);
  EXPECT_EQ(n.launches(0), 2);
  EXPECT_EQ(n.launches(25), 2 + 4 * 25);
  EXPECT_EQ(n.launches(1e12), 1000000000);  // a bound, not an expected run
}

TEST(PlanNodes, SeveralLoopsTakeTheLargestBody) {
  // One loop a source, as BFS and SSSP plan them: the iterations count every source's.
  const PlanNodes n = plan_nodes({PlanOp::run(0), PlanOp::loop({PlanOp::run(1), PlanOp::run(2)}, "s", 9),
                                  PlanOp::run(0), PlanOp::loop({PlanOp::run(1), PlanOp::run(2)}, "s", 9)});
  EXPECT_EQ(n.outside, 2);
  EXPECT_EQ(n.per_iteration, 2);
}

}  // namespace
}  // namespace ktune
