#include "gpu/measurement_harness.h"

#include <chrono>
#include <vector>

#include "gpu/cuda_resources.h"

namespace ktune {

MeasurementHarness::MeasurementHarness(const CudaDriver& cu, CUstream stream, CUdeviceptr flush, size_t flush_bytes)
    : cu_(cu), stream_(stream), flush_(flush), flush_bytes_(flush_bytes) {}

TimedRuns MeasurementHarness::time(const std::function<void()>& run, const MeasureOptions& options,
                                   const std::function<void()>& progress) const {
  const auto start = std::chrono::steady_clock::now();
  auto out_of_time = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= options.max_seconds;
  };
  CudaEvent begin(cu_), end(cu_);
  unsigned runs = 0;
  auto run_once = [&]() -> double {
    // A changing fill value keeps the flush from being a no-op rewrite of identical lines.
    if (!options.hot) cu_.check(cu_.memset_d8_async(flush_, static_cast<unsigned char>(runs), flush_bytes_, stream_), "flushing L2");
    ++runs;
    cu_.check(cu_.event_record(begin.get(), stream_), "recording the start event");
    run();
    cu_.check(cu_.event_record(end.get(), stream_), "recording the end event");
    cu_.check(cu_.event_synchronize(end.get()), "waiting for the timed run");
    float ms = 0;
    cu_.check(cu_.event_elapsed_time(&ms, begin.get(), end.get()), "reading the timed run's duration");
    progress();
    return static_cast<double>(ms) * 1000.0;
  };

  for (int i = 0; i < options.warmup && !out_of_time(); ++i) run_once();
  std::vector<double> samples;
  TimedRuns timed;
  do {
    samples.push_back(run_once());
    if (samples.size() >= static_cast<size_t>(options.min_runs)) {
      const SampleSummary s = summarize(samples);
      if (s.ci_halfwidth() <= options.target_rel_halfwidth * s.median) {
        timed.converged = true;
        break;
      }
    }
  } while (samples.size() < static_cast<size_t>(options.max_runs) && !out_of_time());
  timed.summary = summarize(std::move(samples));
  return timed;
}

}  // namespace ktune
