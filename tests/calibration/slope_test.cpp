// The two-length arithmetic: slopes, cycles, the clock, and refusals of nonsense timings.
#include <gtest/gtest.h>

#include "model/calibration/slope.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(Slope, FixedCostCancels) {
  // 4 cycles per unit at 2 GHz (2 ns) after 7 us of launch and set-up.
  const TimedRun a{1000, 7 + 1000 * 0.002}, b{3000, 7 + 3000 * 0.002};
  EXPECT_NEAR(us_per_unit(a, b), 0.002, 1e-12);
  EXPECT_NEAR(cycles_per_unit(a, b, 2.0), 4.0, 1e-9);
  EXPECT_NEAR(cycles_per_unit(a, b, 1.5), 3.0, 1e-9);
}

TEST(Slope, ClockFromSpin) {
  // 1e6 cycles more took 625 us more: 1.6 GHz.
  EXPECT_NEAR(clock_ghz_from_spin({1e6, 630}, {2e6, 1255}), 1.6, 1e-9);
}

TEST(Slope, RefusesNonsense) {
  EXPECT_THROW(us_per_unit({100, 5}, {100, 9}), InputError);   // same work
  EXPECT_THROW(us_per_unit({200, 5}, {100, 9}), InputError);   // less work
  EXPECT_THROW(us_per_unit({100, 9}, {200, 9}), InputError);   // flat: optimised away
  EXPECT_THROW(us_per_unit({100, 9}, {200, 8}), InputError);   // faster with more work
  EXPECT_THROW(cycles_per_unit({100, 1}, {200, 2}, 0), InputError);
}

}  // namespace
}  // namespace ktune
