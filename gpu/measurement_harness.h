#pragma once
// Times work on the device by DESIGN.md's "Measurement rules": warm up; unless timing hot,
// flush L2 before every run by writing twice its size; bracket each run with device events;
// repeat until the median's 95% confidence half-width (distribution-free, from order
// statistics: gpu/sample_statistics.h) is within target_rel_halfwidth of the median, or
// until max_runs or max_seconds. Runs inside the measurement worker.
#include <functional>

#include "gpu/cuda_driver.h"
#include "gpu/measurement.h"
#include "gpu/sample_statistics.h"

namespace ktune {

struct TimedRuns {
  SampleSummary summary;  // microseconds
  bool converged = false;  // the confidence target was met before a cap
};

class MeasurementHarness {
 public:
  // `flush` points to `flush_bytes` (2x L2) of device scratch, written between runs.
  MeasurementHarness(const CudaDriver& cu, CUstream stream, CUdeviceptr flush, size_t flush_bytes);

  // `run` enqueues the timed work on the harness's stream, all of it: a plan that must clear
  // what its kernels accumulate into does so in a launch of its own, timed with the rest;
  // `progress` is called after every run so that the daemon sees the worker alive. At least
  // one run is timed; max_seconds includes the warm-up.
  TimedRuns time(const std::function<void()>& run, const MeasureOptions& options,
                 const std::function<void()>& progress) const;

 private:
  const CudaDriver& cu_;
  CUstream stream_;
  CUdeviceptr flush_;
  size_t flush_bytes_;
};

}  // namespace ktune
