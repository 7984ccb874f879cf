#include "model/calibration/slope.h"

#include <cmath>
#include <string>

#include "workload/input_error.h"

namespace ktune {

double us_per_unit(const TimedRun& a, const TimedRun& b) {
  if (!(b.units > a.units) || !(a.units >= 0))
    throw InputError("a two-length benchmark needs more work at the second length (" + std::to_string(a.units) +
                     " then " + std::to_string(b.units) + " units)");
  const double slope = (b.us - a.us) / (b.units - a.units);
  if (!(slope > 0) || !std::isfinite(slope))
    throw InputError("the time did not grow with the work (" + std::to_string(a.us) + " us for " +
                     std::to_string(a.units) + " units, " + std::to_string(b.us) + " us for " +
                     std::to_string(b.units) + "): the work was optimised away or lost in noise");
  return slope;
}

double cycles_per_unit(const TimedRun& a, const TimedRun& b, double clock_ghz) {
  if (!(clock_ghz > 0)) throw InputError("the clock must be positive to count cycles");
  return us_per_unit(a, b) * clock_ghz * 1e3;
}

double clock_ghz_from_spin(const TimedRun& a, const TimedRun& b) { return 1e-3 / us_per_unit(a, b); }

}  // namespace ktune
