#pragma once
// Runs the calibration suite on a device and derives the resource table from it. How kernels
// are compiled and timed is passed in, so that the daemon times them in its measurement worker
// (a fault costs the calibration, never the daemon's context) and tests time them with a fake.
#include <functional>
#include <string>

#include "gpu/compiled_kernel.h"
#include "gpu/device_info.h"
#include "gpu/measurement.h"
#include "model/calibration/calibration.h"
#include "model/calibration/microbenchmarks.h"

namespace ktune {

using CalibrationCompiler = std::function<CompiledKernel(const CompileRequest&)>;
// Times `plan` (benchmark `b` at length n) and verifies its output, as Measurer::measure does.
using CalibrationTimer =
    std::function<Measurement(const CompiledKernel&, const LaunchPlan&, const Microbenchmark& b, int64_t n)>;

// How the suite is timed: hot (the working sets are the point), a tight confidence target.
MeasureOptions calibration_measure_options();

// Throws InputError without a device, std::runtime_error naming the benchmark when a kernel
// does not compile, fails, times out, or gives timings that make no sense.
Calibration calibrate(const DeviceInfo& device, const std::string& fingerprint, const CalibrationCompiler& compile,
                      const CalibrationTimer& time);

// The table from each benchmark's cycles per unit (by benchmark name; "clock" in GHz): what
// is measured and what is derived, and why, is in the methods it fills in. Throws InputError
// naming a missing benchmark; out.schedulers_per_sm must be set (per-scheduler gaps).
void derive_resource_table(const std::map<std::string, double>& per_unit, Calibration& out);

}  // namespace ktune
