#include "model/saake/candidate_emulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <new>
#include <numeric>
#include <set>

#include "model/emulator/issue_order.h"
#include "model/interp/interpreter.h"
#include "model/saake/block_weights.h"
#include "workload/cancellation.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

ResourceUsage usage_of(const CompiledKernel& kernel, const std::string& entry) {
  auto it = kernel.usage.find(entry);
  if (it == kernel.usage.end())
    throw InputError("the compiled kernel has no ptxas resource usage for entry '" + entry +
                     "' (compile for an sm_XX target, not compute_XX, to emulate it)");
  return it->second;
}

// Busiest slot over the mean slot, the mean from the fit over every block's weight (and span).
double imbalance_of(const KernelPrediction& p, const std::vector<double>& weights, const std::vector<double>& spans,
                    int64_t slots) {
  const double total_weight = std::accumulate(weights.begin(), weights.end(), 0.0);
  const double total_span = std::accumulate(spans.begin(), spans.end(), 0.0);
  const double total = p.fit_intercept * static_cast<double>(weights.size()) + p.fit_slope * total_weight +
                       p.fit_span_slope * total_span;
  const double mean_slot = total / static_cast<double>(std::max<int64_t>(slots, 1));
  return mean_slot > 0 ? std::max(1.0, p.makespan_cycles / mean_slot) : 1.0;
}

// A program's emulation gives up past its budget of interpreted warp instructions.
void check_program_budget(uint64_t interpreted, const CandidateEmulationOptions& options) {
  if (interpreted > options.max_program_warp_instructions)
    throw EmulationTooLarge("following the plan's program on this workload takes more than " +
                            std::to_string(options.max_program_warp_instructions) +
                            " interpreted warp instructions: too large to emulate");
}

// Which launches of a program are timed. The first kTimedLaunches launches of an entry and grid
// size class are; past them only the class's 64th, 128th, 256th, ... launch, the others running
// (by their twin, or every block interpreted) and taking the class's timings in turn, so that
// the class's time is its sample's mean (a grid of one block may hold a leaf or a hub). A BFS of a
// road network runs thousands of levels of a block or two, each costing more to time (samples
// traced, their caches and issue emulated) than to run, and alike at that: timing them all made
// a tune's walk of usroads take 23 s. A power-law graph's launches of one size differ with the
// frontier's hubs, but its traversals run tens of levels, most of them timed.
class LaunchTimings {
 public:
  // The timing `step` takes, or nullptr when it is to be timed.
  const StepEmulation* reuse(const LaunchStep& step) {
    Class& c = classes_[key(step)];
    ++c.launches;
    const bool power_of_two = (c.launches & (c.launches - 1)) == 0;
    if (c.timings.empty() || c.launches <= kTimedLaunches || power_of_two) return nullptr;
    return &c.timings[static_cast<size_t>(c.launches) % c.timings.size()];
  }
  void timed(const LaunchStep& step, const StepEmulation& e) { classes_[key(step)].timings.push_back(e); }

 private:
  static constexpr int64_t kTimedLaunches = 32;
  struct Class {
    int64_t launches = 0;
    std::vector<StepEmulation> timings;
  };
  // Grids of up to 16 blocks each their own class; larger ones by a quarter of a power of two.
  static std::pair<std::string, int64_t> key(const LaunchStep& step) {
    const int64_t blocks = int64_t{step.grid.x} * step.grid.y * step.grid.z;
    const int64_t size = blocks <= 16 ? blocks : 16 + static_cast<int64_t>(std::lround(4 * std::log2(double(blocks))));
    return {step.entry, size};
  }
  std::map<std::pair<std::string, int64_t>, Class> classes_;
};

// The longest timed step so far and its prepared emulation, where the sensitivity analysis runs
// once the program is followed (tens of re-emulations: for every step of a program of thousands
// of launches, it had cost half a minute).
struct LongestStep {
  double cycles = -1;
  size_t index = 0;  // in CandidatePrediction::steps
  std::optional<PreparedKernel> prepared;
};

// `complete`: every block of the launch runs (the sampled ones traced), so that the launches
// after it see its whole effect; a plan with a program needs that to follow its control flow.
// Swaps the launch's twin saw queue on one address (PlanMemory::queue_swaps) wait in turn
// whatever else the launch does: charged as the first cost model charges them.
void charge_queued_swaps(StepEmulation& step, interp::HostMemory& memory, const GpuSpec& gpu) {
  const double us = static_cast<double>(memory.take_queued_swaps()) * gpu.queued_cas_ns / 1e3;
  step.prediction.microseconds += us;
  step.prediction.cycles += us * gpu.clock_ghz * 1e3;
}

// Sampled blocks a launch traces whatever its trace budget (emulate_step).
constexpr size_t kAlwaysTraced = 2;

StepEmulation emulate_step(const ptx::PtxModule& module, const LaunchPlan& plan, const LaunchStep& step, interp::HostMemory& memory,
                           const CompiledKernel& kernel, const LaunchWeigher& weigher, const GpuSpec& gpu,
                           const CandidateEmulationOptions& options, CandidatePrediction& totals, bool complete,
                           LongestStep& analysed, LaunchTimings* timings = nullptr) {
  StepEmulation out;
  out.entry = step.entry;
  out.blocks = int64_t{step.grid.x} * step.grid.y * step.grid.z;
  out.threads_per_block = static_cast<int>(step.block.x * step.block.y * step.block.z);
  out.usage = usage_of(kernel, step.entry);
  if (out.blocks < 1) throw InputError("launch of " + step.entry + " has an empty grid");

  const auto twin = complete && options.use_twins ? plan.twins.find(step.entry) : plan.twins.end();
  const bool twinned = twin != plan.twins.end();
  auto start = Clock::now();
  if (const StepEmulation* timing = timings ? timings->reuse(step) : nullptr) {
    if (twinned) {
      twin->second(step, memory);
    } else {
      interp::InterpretLimits limits;
      limits.max_warp_instructions_per_block = options.max_warp_instructions_per_block;
      interp::LaunchInterpreter whole(module.function(step.entry), step, memory, limits);
      for (int64_t b = 0; b < out.blocks; ++b) {
        whole.run_block(b, false);
        check_program_budget(totals.warp_instructions + whole.warp_instructions(), options);
      }
      totals.warp_instructions += whole.warp_instructions();
    }
    totals.interpret_seconds += seconds_since(start);
    StepEmulation reused = *timing;
    charge_queued_swaps(reused, memory, gpu);
    return reused;
  }
  KernelEmulationInput in;
  in.block_weights = weigher.weights(plan, step);
  in.block_spans = weigher.spans(plan, step);
  const std::vector<int64_t> sampled = choose_sample_blocks(in.block_weights, options.samples, in.block_spans);
  interp::InterpretLimits limits;
  limits.max_warp_instructions_per_block = options.max_warp_instructions_per_block;
  interp::LaunchInterpreter interpreter(module.function(step.entry), step, memory, limits);
  in.samples.reserve(sampled.size());
  // Heaviest and lightest in turn, and never fewer than two traced: a launch past its trace
  // budget still has its slowest block and a light one, for the fit of time to weight to span
  // the samples' range and the cache estimate to see sectors two blocks share (with one
  // sampled block every sector looks private, and SDDMM's L2 hits fell from 80% to 3%).
  std::vector<int64_t> trace_order = sampled;
  if (in.block_weights.size() == static_cast<size_t>(out.blocks)) {
    std::stable_sort(trace_order.begin(), trace_order.end(),
                     [&](int64_t a, int64_t b) { return in.block_weights[a] > in.block_weights[b]; });
    std::vector<int64_t> ends;
    for (size_t lo = 0, hi = trace_order.size(); lo < hi; ++lo) {
      ends.push_back(trace_order[lo]);
      if (lo + 1 < hi) ends.push_back(trace_order[--hi]);
    }
    trace_order = std::move(ends);
  }
  // A launch with a twin runs whole by the twin, from the state before the sampled blocks.
  if (twinned) memory.begin_undo();
  std::set<int64_t> done;
  for (int64_t b : trace_order) {
    if (in.samples.size() >= kAlwaysTraced && interpreter.warp_instructions() > options.max_traced_warp_instructions_per_launch) break;
    in.samples.push_back(interpreter.run_block(b, true));
    issue_like_ptxas(in.samples.back());
    done.insert(b);
  }
  std::sort(in.samples.begin(), in.samples.end(),
            [](const BlockTrace& a, const BlockTrace& b) { return a.block < b.block; });
  const auto check_budget = [&] { check_program_budget(totals.warp_instructions + interpreter.warp_instructions(), options); };
  if (twinned) {
    memory.undo();
    twin->second(step, memory);
    check_budget();
  } else if (complete) {  // every block once: the traced ones ran above
    for (int64_t b = 0; b < out.blocks; ++b) {
      if (!done.count(b)) interpreter.run_block(b, false);
      check_budget();  // block by block: one level of a large graph alone can cost minutes
    }
  }
  totals.interpret_seconds += seconds_since(start);
  totals.warp_instructions += interpreter.warp_instructions();

  start = Clock::now();
  in.threads_per_block = out.threads_per_block;
  in.usage = out.usage;
  in.dynamic_shared_bytes = static_cast<int>(step.shared_bytes);
  in.gpu = gpu;
  in.launches = 1;
  in.measured_cache = options.measured_cache;
  PreparedKernel prepared = prepare_kernel(in);
  out.prediction = predict_kernel(prepared);
  out.imbalance = imbalance_of(out.prediction, in.block_weights, in.block_spans, prepared.block_slots);
  totals.emulate_seconds += seconds_since(start);
  if (timings) timings->timed(step, out);
  charge_queued_swaps(out, memory, gpu);
  if (options.sensitivity && out.prediction.cycles > analysed.cycles) {
    analysed.cycles = out.prediction.cycles;
    analysed.index = totals.steps.size();  // where the caller puts this step
    analysed.prepared = std::move(prepared);
  }
  return out;
}

// See CandidatePrediction::bottleneck.
void name_bottleneck(CandidatePrediction& p, const GpuSpec& gpu) {
  const StepEmulation& longest = p.steps[p.longest_step()];
  if (longest.sensitivity) {
    p.bottleneck = longest.sensitivity->bottleneck.resource;
    p.bottleneck_kind = longest.sensitivity->bottleneck.kind;
    p.bottleneck_from_sensitivity = true;
    return;
  }
  const auto& u = longest.prediction.utilisation;
  const size_t busiest = static_cast<size_t>(std::max_element(u.begin(), u.end()) - u.begin());
  if (u[busiest] >= CandidatePrediction::kSaturated) {
    p.bottleneck = static_cast<Resource>(busiest);
    p.bottleneck_kind = BoundKind::Throughput;
    return;
  }
  double most_exposed = -1;
  for (size_t r = 0; r < kResourceCount; ++r) {
    const double exposed = longest.prediction.transactions[r] * gpu.timing[r].latency;
    if (static_cast<Resource>(r) != Resource::Issue && exposed > most_exposed) {
      most_exposed = exposed;
      p.bottleneck = static_cast<Resource>(r);
    }
  }
  p.bottleneck_kind = BoundKind::Latency;
}

// Follows a program as it runs (interpreter.h's run_program), emulating every launch it executes.
void emulate_program(const ptx::PtxModule& module, const LaunchPlan& plan, const std::vector<PlanOp>& ops,
                     interp::HostMemory& memory, const CompiledKernel& kernel,
                     const LaunchWeigher& weigher, const GpuSpec& gpu, const CandidateEmulationOptions& options,
                     CandidatePrediction& p, LongestStep& analysed, LaunchTimings* timings) {
  const auto counter = [&memory](const std::string& buffer, uint32_t index) { return memory.int32_at(buffer, index); };
  for (const PlanOp& op : ops) {
    throw_if_cancelled();
    if (op.kind != PlanOp::Kind::Loop) ++p.program_nodes;
    switch (op.kind) {
      case PlanOp::Kind::Launch:
        if (const std::optional<LaunchStep> step = resolve_launch(plan.steps.at(op.launch), counter))
          p.steps.push_back(
              emulate_step(module, plan, *step, memory, kernel, weigher, gpu, options, p, true, analysed, timings));
        break;
      case PlanOp::Kind::Fill: memory.fill(op.buffer, op.word); break;
      case PlanOp::Kind::Copy: memory.copy(op.from, op.buffer); break;
      case PlanOp::Kind::Loop:
        for (int i = 0; i < op.max_iterations; ++i) {
          ++p.loop_iterations;
          emulate_program(module, plan, op.body, memory, kernel, weigher, gpu, options, p, analysed, timings);
          if (memory.int32_at(op.until_zero, 0) == 0) break;
        }
        break;
    }
  }
}

CandidatePrediction emulate_plan_unguarded(const LaunchPlan& plan, const CompiledKernel& kernel,
                                           const LaunchWeigher& weigher, const GpuSpec& gpu,
                                           const CandidateEmulationOptions& options) {
  if (plan.steps.empty()) throw InputError("the launch plan has no steps to emulate");
  PtxModuleCache& cache = options.ptx_cache ? *options.ptx_cache : shared_ptx_module_cache();
  const auto start = Clock::now();
  const std::shared_ptr<const ptx::PtxModule> module = cache.get(kernel);
  CandidatePrediction p;
  LongestStep analysed;
  p.interpret_seconds += seconds_since(start);  // parsing, when the cache misses
  if (plan.program.empty()) {
    // Zero-filled (lazily, by calloc), not poisoned: sampled blocks of a later step may read
    // what the unsampled blocks of an earlier one would have written. Only the samples run.
    interp::HostMemory memory(plan, interp::HostMemory::Fill::Zero);
    for (const LaunchStep& step : plan.steps)
      p.steps.push_back(emulate_step(*module, plan, step, memory, kernel, weigher, gpu, options, p, false, analysed));
  } else {
    size_t scratch = 0;  // every buffer but the inputs, written in full
    for (const DeviceBuffer& b : plan.buffers)
      if (b.bytes.empty()) scratch += b.size;
    EmulationMemory& held = options.memory ? *options.memory : shared_emulation_memory();
    const EmulationMemory::Lease lease = held.reserve(scratch);
    interp::HostMemory memory(plan, interp::HostMemory::Fill::Poison);
    LaunchTimings timing_classes;
    LaunchTimings* timings = options.time_every_launch ? nullptr : &timing_classes;
    if (plan.alike && plan.alike->units > 1) {
      // Units are followed while the program's budget still holds one more of their mean; the
      // rest count as repeats of those followed, in turn.
      const AlikeUnits& a = *plan.alike;
      const auto op = [&plan](size_t i) { return plan.program.begin() + static_cast<std::ptrdiff_t>(i); };
      emulate_program(*module, plan, {op(0), op(a.first)}, memory, kernel, weigher, gpu, options, p, analysed, timings);
      std::vector<std::pair<size_t, size_t>> followed;  // each followed unit's steps
      std::vector<std::pair<double, double>> followed_nodes;  // and its nodes and iterations
      uint64_t unit_instructions = 0;
      for (size_t u = 0; u < a.units; ++u) {
        if (u > 0 && p.warp_instructions + unit_instructions / u > options.max_program_warp_instructions) break;
        const size_t steps = p.steps.size();
        const uint64_t instructions = p.warp_instructions;
        const double nodes = p.program_nodes, iterations = p.loop_iterations;
        const size_t from = a.first + u * a.unit;
        try {
          emulate_program(*module, plan, {op(from), op(from + a.unit)}, memory, kernel, weigher, gpu, options, p,
                          analysed, timings);
        } catch (const EmulationTooLarge&) {
          if (u == 0) throw;  // not even one unit fits
          p.steps.resize(steps);  // a unit longer than the mean: it counts as those followed
          p.warp_instructions = instructions;
          p.program_nodes = nodes;
          p.loop_iterations = iterations;
          break;
        }
        followed.emplace_back(steps, p.steps.size());
        followed_nodes.emplace_back(p.program_nodes - nodes, p.loop_iterations - iterations);
        unit_instructions += p.warp_instructions - instructions;
      }
      for (size_t u = followed.size(); u < a.units; ++u) {
        const auto [begin, end] = followed[u % followed.size()];
        for (size_t i = begin; i < end; ++i) p.steps.push_back(StepEmulation(p.steps[i]));
        p.program_nodes += followed_nodes[u % followed.size()].first;
        p.loop_iterations += followed_nodes[u % followed.size()].second;
      }
      emulate_program(*module, plan, {op(a.first + a.unit * a.units), plan.program.end()}, memory, kernel, weigher,
                      gpu, options, p, analysed, timings);
    } else {
      emulate_program(*module, plan, plan.program, memory, kernel, weigher, gpu, options, p, analysed, timings);
    }
    if (p.steps.empty()) throw InputError("the plan's program ran no launch to emulate");
  }

  if (analysed.prepared && analysed.index < p.steps.size()) {
    const auto analysis = Clock::now();
    p.steps[analysed.index].sensitivity = analyse_sensitivity(*analysed.prepared, options.sensitivity_options);
    p.sensitivity_seconds += seconds_since(analysis);
  }
  for (const StepEmulation& s : p.steps) {
    p.cycles += s.prediction.cycles;
    p.microseconds += s.prediction.microseconds;
    p.launch_microseconds += s.prediction.launch_cycles / (gpu.clock_ghz * 1e3);
    for (size_t r = 0; r < kResourceCount; ++r) p.transactions[r] += s.prediction.transactions[r];
  }
  if (p.loop_iterations > 0) {
    // A looping program runs as one graph: its nodes and iterations replace the steps' launches.
    const double launch_us = launch_time_us(gpu, p.program_nodes, p.loop_iterations);
    p.microseconds += launch_us - p.launch_microseconds;
    p.cycles += (launch_us - p.launch_microseconds) * gpu.clock_ghz * 1e3;
    p.launch_microseconds = launch_us;
  }
  for (const StepEmulation& s : p.steps)
    for (size_t r = 0; r < kResourceCount; ++r)
      p.utilisation[r] += s.prediction.utilisation[r] * (p.cycles > 0 ? s.prediction.cycles / p.cycles : 0);
  const StepEmulation& longest = p.steps[p.longest_step()];
  p.imbalance = longest.imbalance;
  const int warps_per_block = (longest.threads_per_block + 31) / 32;
  p.occupancy = static_cast<double>(longest.prediction.resident_blocks * warps_per_block) / gpu.max_warps_per_sm;
  name_bottleneck(p, gpu);
  return p;
}

}  // namespace

size_t CandidatePrediction::longest_step() const {
  size_t longest = 0;
  for (size_t i = 1; i < steps.size(); ++i)
    if (steps[i].prediction.cycles > steps[longest].prediction.cycles) longest = i;
  return longest;
}

CandidatePrediction emulate_plan(const LaunchPlan& plan, const CompiledKernel& kernel, const LaunchWeigher& weigher,
                                 const GpuSpec& gpu, const CandidateEmulationOptions& options) {
  // The interpreter and emulator report bad input as InputError; anything else escaping
  // them (an out_of_range on a malformed operand, memory for a huge trace) is still about
  // this candidate, not the daemon, and must reach the client as such.
  throw_if_cancelled();
  try {
    return emulate_plan_unguarded(plan, kernel, weigher, gpu, options);
  } catch (const InputError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw InputError("emulating the candidate ran out of memory (a sampled block's trace is too large)");
  } catch (const std::exception& e) {
    throw InputError(std::string("cannot emulate the candidate: ") + e.what());
  }
}

LaunchWeigher LaunchWeigher::of(const KernelFamily& family, const Workload& workload, const Problem& problem,
                                const Config& config, const LaunchPlan& plan) {
  LaunchWeigher w;
  w.family = &family;
  const bool weighs_itself = std::all_of(plan.steps.begin(), plan.steps.end(), [&](const LaunchStep& s) {
    return family.block_weights(plan, s).has_value();
  });
  if (!weighs_itself) w.estimate = family.estimate(workload, problem, config);
  return w;
}

std::vector<double> LaunchWeigher::weights(const LaunchPlan& plan, const LaunchStep& step) const {
  if (family)
    if (std::optional<std::vector<double>> own = family->block_weights(plan, step)) return std::move(*own);
  return block_weights_for(estimate, step);
}

std::vector<double> LaunchWeigher::spans(const LaunchPlan& plan, const LaunchStep& step) const {
  if (family)
    if (std::optional<std::vector<double>> own = family->block_spans(plan, step)) return std::move(*own);
  return {};
}

CandidatePrediction emulate_candidate(const KernelFamily& family, const Workload& workload, const Problem& problem,
                                      const Config& config, const LaunchPlan& plan, const CompiledKernel& kernel,
                                      const GpuSpec& gpu, const CandidateEmulationOptions& options) {
  // A program is followed block by block over the real data: every graph algorithm reads each
  // nonzero at least once, at several warp instructions per 32 of them. On graphs of a quarter
  // of the budget's nonzeros (R-MAT 20, 16 M edges) no recorded BFS or SSSP program fitted;
  // past the budget itself an attempt would only hold its traces and memory image beside the
  // graph until it gave up (98 MiB of a BFS tune of R-MAT 22).
  // With a twin for every launch of many blocks, only the sampled blocks are interpreted.
  const bool twinned = options.use_twins && std::all_of(plan.steps.begin(), plan.steps.end(), [&](const LaunchStep& s) {
    return plan.twins.count(s.entry) > 0 || (!s.grid_from && int64_t{s.grid.x} * s.grid.y * s.grid.z == 1);
  });
  const auto nonzeros = static_cast<uint64_t>(std::max<int64_t>(workload.matrix.nnz(), 0));
  if (!plan.program.empty() && !twinned && nonzeros > options.max_program_warp_instructions)
    throw EmulationTooLarge("a program over " + std::to_string(nonzeros) + " nonzeros, more than its budget of " +
                            std::to_string(options.max_program_warp_instructions) +
                            " interpreted warp instructions: too large to emulate (not attempted)");
  if (!plan.program.empty() && nonzeros > options.max_program_nonzeros)
    throw EmulationTooLarge("a program over " + std::to_string(nonzeros) + " nonzeros, more than the " +
                            std::to_string(options.max_program_nonzeros) + " this caller follows (not attempted)");
  return emulate_plan(plan, kernel, LaunchWeigher::of(family, workload, problem, config, plan), gpu, options);
}

}  // namespace ktune
