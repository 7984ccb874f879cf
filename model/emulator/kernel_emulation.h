#pragma once
// A whole kernel's predicted time from a few emulated blocks (digest-000 §2.6, with its
// waves replaced by a per-SM makespan):
//   1. occupancy (model/occupancy.h, ptxas registers and shared memory) gives the blocks
//      co-resident on one SM, fewer when the grid does not fill every SM;
//   2. each sampled block is emulated on one SM among co-resident sampled blocks, with
//      finished slots refilled, so its time includes steady contention (sm_emulator.h);
//   3. the sampled times fit time(weight) = a + b x weight (least squares, a, b >= 0), or
//      with the grid's spans time = a + b x weight + c x span, which gives every block of the
//      grid a time (a sampled block keeps its own);
//   4. blocks go in index order to whichever of the SMs x resident slots frees first, as the
//      hardware block scheduler hands them out: kernel = busiest slot + launch overhead x
//      launches;
//   5. a grid of one to four waves is timed by emulating the busiest SM of step 4 with its own
//      blocks (each played by its nearest sample): its last wave runs with fewer resident
//      blocks and less contention than step 3's times assume.
// Device-wide resources are shared by the active SMs (digest §2.6 assumption): the table's
// L2 and DRAM gaps, per SM with every SM active, shrink when fewer SMs have blocks.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "model/emulator/cache_estimate.h"
#include "model/emulator/sm_emulator.h"
#include "model/gpu_spec.h"
#include "model/trace.h"

namespace ktune {

struct KernelEmulationInput {
  std::vector<BlockTrace> samples;    // BlockTrace::block indexes block_weights
  std::vector<double> block_weights;  // one per block of the grid (e.g. summed warp_work)
  std::vector<double> block_spans;    // one per block, its longest thread's steps; or none
  int threads_per_block = 0;
  ResourceUsage usage;                // registers and static shared memory per block
  int dynamic_shared_bytes = 0;
  GpuSpec gpu;
  int launches = 1;
  std::optional<CacheRates> measured_cache;  // replaces the estimate
};

struct KernelEmulationOptions {
  int resident_blocks = 0;  // 0: by occupancy; more: a hypothetical occupancy
  bool record_ops = false;  // keep per-op issue/finish times of the SM run
};

struct SampledBlock {
  int64_t block = 0;
  double weight = 0;
  double span = 0;    // 0 when the grid has no spans
  double cycles = 0;  // its time on an SM with co-resident blocks
  size_t ops = 0;
  std::array<double, kResourceCount> transactions{};
};

struct KernelPrediction {
  double cycles = 0;  // makespan + launch overhead
  double microseconds = 0;
  double makespan_cycles = 0;
  double launch_cycles = 0;
  int resident_blocks = 0;  // co-resident blocks emulated per SM
  int active_sms = 0;
  bool tail_emulated = false;  // the makespan is the busiest SM emulated (step 5), not fitted
  double fit_intercept = 0;  // cycles
  double fit_slope = 0;      // cycles per unit of weight
  double fit_span_slope = 0; // cycles per step of span (0 without spans)
  std::array<double, kResourceCount> utilisation{};   // on the emulated SM, in [0, 1]
  std::array<double, kResourceCount> transactions{};  // whole grid, from the samples by weight
  CacheSummary cache;
  std::vector<SampledBlock> samples;
  SmRun sm_run;  // the emulated SM (per-op records when asked for)
};

// The input, lowered once (cache estimate included) so that sensitivity analysis can
// re-emulate it many times with one parameter changed.
struct PreparedKernel {
  PreparedSamples programs;
  std::vector<double> block_weights;
  std::vector<double> block_spans;      // empty when the grid has none
  std::vector<const EmuBlock*> queue;   // the SM run: typical samples as fill, each sample timed once (kernel_emulation.cpp)
  size_t first_measured = 0;            // queue positions of the timed samples begin here
  EmulatorTiming timing;                // L2/DRAM gaps already shared out over active SMs
  int resident_blocks = 0;
  int active_sms = 0;
  int64_t block_slots = 0;              // active SMs x resident blocks
  double launch_cycles = 0;
  double block_dispatch_cycles = 0;     // device-wide, between two blocks (GpuSpec)
  double clock_ghz = 0;
  bool record_ops = false;
};

// Throws InputError on inconsistent input (no samples, a sample outside the grid, a
// block that does not fit on an SM).
PreparedKernel prepare_kernel(const KernelEmulationInput& input,
                              const KernelEmulationOptions& options = {});
KernelPrediction predict_kernel(const PreparedKernel& kernel,
                                const std::optional<Perturbation>& perturbation = std::nullopt);
KernelPrediction emulate_kernel(const KernelEmulationInput& input,
                                const KernelEmulationOptions& options = {});

}  // namespace ktune
