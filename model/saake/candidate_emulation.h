#pragma once
// SAAKE for one tuning candidate (issue 4): the compiled kernel's PTX interpreted over the
// workload's real buffers on a few sampled blocks, those traces emulated on the GPU spec
// with the occupancy ptxas allows, and the whole grid's time extrapolated from them by the
// family's per-block work estimate. Every LaunchStep of the plan is emulated on its own and
// the steps' times add up (they run in order on one stream). A plan with a program is followed
// as it runs: every block of each launch it reaches runs, interpreted or by the launch's native
// twin (kernels/launch_twin.h), so that the next launch sees its effect.
//
//   plan ──► block weights (family estimate) ──► choose_sample_blocks ──► interpreter
//        ──► prepare_kernel / predict_kernel (model/emulator) [──► analyse_sensitivity]
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "kernels/kernel_family.h"
#include "model/emulator/block_sampling.h"
#include "model/emulator/kernel_emulation.h"
#include "model/emulator/sensitivity.h"
#include "model/gpu_spec.h"
#include "model/saake/emulation_memory.h"
#include "model/saake/ptx_module_cache.h"
#include "workload/input_error.h"

namespace ktune {

struct CandidateEmulationOptions {
  SamplePlan samples{};      // blocks traced per launch: the heaviest few plus a random few
  bool sensitivity = false;  // also run the sensitivity analysis (tens of re-emulations)
  SensitivityOptions sensitivity_options{};
  // A sampled block running longer than this (warp instructions) is refused as a hang.
  uint64_t max_warp_instructions_per_block = uint64_t{1} << 26;
  // A plan with a program runs every block of every launch it reaches (its loops follow the
  // data); past this many interpreted warp instructions in all (twinned launches count their
  // samples), emulate_plan gives up (EmulationTooLarge).
  // The interpreter runs about 2e7 a second on one core: this is under two seconds, where
  // PageRank on a road network of 0.3 M edges took 9e8 (45 s) per candidate.
  uint64_t max_program_warp_instructions = uint64_t{1} << 25;
  // Warp instructions traced per launch at most. A traced instruction costs about half a
  // microsecond to interpret and emulate (and 50 bytes until the launch is timed), and blocks
  // can be large: SpMM's merge-path blocks run 10^5 each, a graph's hubs millions. Past it
  // the launch's remaining sampled blocks run untraced; they come heaviest and lightest in
  // turn, and the first two always are traced (bench/NOTES.md, "The emulator's trace budget").
  uint64_t max_traced_warp_instructions_per_launch = uint64_t{1} << 15;
  // A program's launch with a native twin (LaunchPlan::twins) has only its sampled blocks
  // interpreted, then runs whole by its twin: a graph of millions of edges is followed at the
  // cost of its samples. Off: every block is interpreted (how the twins are checked).
  bool use_twins = true;
  // A program over more of the workload's nonzeros than this is declined before anything is
  // interpreted (EmulationTooLarge), twins or not: a caller's bound on the time and memory one
  // emulation may take (the tuner's: tune_emulation_options in search/explanation.h).
  uint64_t max_program_nonzeros = UINT64_MAX;
  // Time every launch a program runs; otherwise past the first 32 launches of an entry and grid
  // size class only its 64th, 128th, ... is timed, the others reusing the class's
  // timings in turn (they still run, so the program follows its data).
  bool time_every_launch = false;
  PtxModuleCache* ptx_cache = nullptr;  // nullptr: shared_ptx_module_cache()
  // Where a plan with a program reserves its scratch and output buffers before they are
  // allocated (nullptr: shared_emulation_memory()).
  EmulationMemory* memory = nullptr;
  std::optional<CacheRates> measured_cache;
};

// The plan's program needs more interpretation than the options allow: the caller ranks the
// candidate by the first model instead.
class EmulationTooLarge : public InputError {
 public:
  using InputError::InputError;
};

struct StepEmulation {
  std::string entry;
  int64_t blocks = 0;
  int threads_per_block = 0;
  ResourceUsage usage;
  KernelPrediction prediction;
  double imbalance = 1;  // busiest block slot / mean slot
  std::optional<SensitivityReport> sensitivity;
};

struct CandidatePrediction {
  double microseconds = 0;  // all steps, launch overheads included
  double cycles = 0;
  double launch_microseconds = 0;
  double occupancy = 0;  // resident warps / maximum, of the longest step
  double imbalance = 1;  // of the longest step
  std::array<double, kResourceCount> utilisation{};   // time-weighted over the steps
  std::array<double, kResourceCount> transactions{};  // whole plan
  // From the longest step's sensitivity analysis when it ran; otherwise from utilisation:
  // a resource busy >= kSaturated of the time is the throughput bottleneck, else the kernel
  // waits on the resource with the most latency exposed (transactions x latency).
  Resource bottleneck = Resource::Issue;
  BoundKind bottleneck_kind = BoundKind::Latency;
  bool bottleneck_from_sensitivity = false;
  std::vector<StepEmulation> steps;
  // Host time, seconds: tracing the samples, emulating them, and the sensitivity analysis.
  double interpret_seconds = 0;
  double emulate_seconds = 0;
  double sensitivity_seconds = 0;
  uint64_t warp_instructions = 0;  // interpreted, sampled and complete blocks together
  // What a program ran besides its kernels' work: its nodes (launches, fills, copies) and its
  // loops' iterations, charged by launch_time_us (gpu_spec.h) as the first cost model does.
  double program_nodes = 0;
  double loop_iterations = 0;

  static constexpr double kSaturated = 0.6;
  size_t longest_step() const;
};

// How the blocks of each launch weigh, the one rule every caller uses: the family's own rule
// from the plan's buffers where it has one (cheap), else the first model's estimate.
struct LaunchWeigher {
  const KernelFamily* family = nullptr;  // nullptr: the estimate alone (calibration plans)
  WorkEstimate estimate;

  // The family's weigher, with the (O(nnz) for SpMV) estimate computed only when a launch of
  // `plan` cannot be weighed from its buffers.
  static LaunchWeigher of(const KernelFamily& family, const Workload& workload, const Problem& problem,
                          const Config& config, const LaunchPlan& plan);
  std::vector<double> weights(const LaunchPlan& plan, const LaunchStep& step) const;
  std::vector<double> spans(const LaunchPlan& plan, const LaunchStep& step) const;  // empty: none
};

// The candidate as the tuner holds it: family, workload, problem, configuration, the plan
// prepared for them and the kernel compiled for them. Throws InputError (never anything else
// for bad input) when the PTX cannot be parsed or interpreted, a launch names an entry the
// kernel lacks, a block does not fit on an SM, or a sampled block hangs. A plan with a program
// on a workload of more nonzeros than options.max_program_warp_instructions is refused
// (EmulationTooLarge) before anything is interpreted, unless every launch of many blocks has a
// twin; so is one over more than options.max_program_nonzeros.
CandidatePrediction emulate_candidate(const KernelFamily& family, const Workload& workload, const Problem& problem,
                                      const Config& config, const LaunchPlan& plan, const CompiledKernel& kernel,
                                      const GpuSpec& gpu, const CandidateEmulationOptions& options = {});

// The same with the weigher at hand (the tuner computes the estimate for the first cost
// model anyway; on a large matrix it costs more than the emulation). A plan with a program
// (loops, fills, copies) is followed as it runs: every launch it executes is emulated on
// the memory the launches before it left, and their times add up.
CandidatePrediction emulate_plan(const LaunchPlan& plan, const CompiledKernel& kernel, const LaunchWeigher& weigher,
                                 const GpuSpec& gpu, const CandidateEmulationOptions& options = {});

}  // namespace ktune
