#pragma once
// The arithmetic of a two-length microbenchmark. A kernel that does `units` of work takes
// t = fixed + units * per_unit; the fixed part (launch, set-up, the first cold misses of a
// chase, the tail of the last wave) is the same at both lengths, so the slope between them is
// the cost of one unit alone.
namespace ktune {

struct TimedRun {
  double units = 0;  // work done: dependent operations, warp instructions per SM, sectors per SM...
  double us = 0;     // measured kernel time
};

// Microseconds per unit. Throws InputError unless b has more units than a and took longer:
// a flat or falling time means the work was optimised away or drowned in noise.
double us_per_unit(const TimedRun& a, const TimedRun& b);

// Cycles per unit at `clock_ghz`.
double cycles_per_unit(const TimedRun& a, const TimedRun& b, double clock_ghz);

// The SM clock from a kernel that spun for a.units and b.units cycles (clock64): GHz.
double clock_ghz_from_spin(const TimedRun& a, const TimedRun& b);

}  // namespace ktune
