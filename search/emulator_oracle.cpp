#include "search/emulator_oracle.h"

#include <algorithm>
#include <cmath>

#include "model/emulator/sensitivity.h"
#include "model/interp/interpreter.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

WalkBottleneck walk_bottleneck(Resource r, BoundKind kind) {
  return {resource_name(r), kind == BoundKind::Latency ? WalkBottleneckKind::Latency : WalkBottleneckKind::Throughput};
}

int warps_per_block(const StepEmulation& s) { return (s.threads_per_block + 31) / 32; }

}  // namespace

OracleView oracle_view(const CandidatePrediction& p) {
  OracleView v;
  v.time_us = p.microseconds;
  v.occupancy = p.occupancy;
  v.bottleneck = walk_bottleneck(p.bottleneck, p.bottleneck_kind);
  for (size_t r = 0; r < kResourceCount; ++r) {
    const char* name = resource_name(static_cast<Resource>(r));
    v.utilisation[name] = p.utilisation[r];
    v.transactions[name] = p.transactions[r];
  }
  return v;
}

EmulatorOracle::EmulatorOracle(const KernelFamily& family, const Workload& workload, const Problem& problem, const GpuSpec& gpu,
                               Compile compile, SaakeOracle& fallback, Log log)
    : family_(family), workload_(workload), problem_(problem), gpu_(gpu), compile_(std::move(compile)),
      fallback_(fallback), log_(std::move(log)) {}

LaunchPlan EmulatorOracle::plan_for(const Config& config) {
  LaunchPlan plan = previous_plan_ ? family_.prepare_next(workload_, problem_, config, *previous_plan_)
                                   : family_.prepare(workload_, problem_, config);
  return plan;
}

EmulatorOracle::Entry& EmulatorOracle::entry(const Config& config) {
  auto it = entries_.find(config);
  if (it != entries_.end()) return it->second;
  Entry& e = entries_[config];
  std::string why;
  try {
    if (too_large_) throw InputError(*too_large_);
    if (budget_spent())
      throw InputError(emulations_ >= budget_ ? "the walk's " + std::to_string(budget_) + " emulations are spent"
                                              : "the walk's " + std::to_string(instruction_budget_) +
                                                    " interpreted warp instructions are spent");
    if (!family_.emulable(problem_, config))
      throw InputError("the PTX interpreter does not run this configuration's instructions");
    e.kernel = compile_(config);
    if (!e.kernel || !e.kernel->ok) throw InputError("does not compile" + (e.kernel ? ": " + e.kernel->log : ""));
    LaunchPlan plan = plan_for(config);
    ++emulations_;
    e.emulated = emulate_candidate(family_, workload_, problem_, config, plan, *e.kernel, gpu_, options_);
    interpreted_ += e.emulated->warp_instructions;
    previous_plan_ = std::move(plan);
    e.view = oracle_view(*e.emulated);
  } catch (const EmulationTooLarge& err) {
    // The other configurations' programs follow the same data: none is tried after this one.
    why = err.what();
    too_large_ = why;
  } catch (const InputError& err) {
    why = err.what();
  }
  if (!e.emulated) {
    e.view = fallback_.evaluate(config);
    const std::string key = family_.space(problem_).canonical(config);
    fallbacks_[key] = why;
    if (log_) log_("emulator: " + key + " answered by the first cost model: " + why);
  }
  return e;
}

std::optional<OracleView> EmulatorOracle::evaluate(const Config& config) { return entry(config).view; }

void EmulatorOracle::absorb(EmulatorOracle&& other) {
  entries_.merge(other.entries_);
  fallbacks_.merge(other.fallbacks_);
  learn_size_from(other);
}

const CandidatePrediction* EmulatorOracle::emulation(const Config& config) const {
  auto it = entries_.find(config);
  return it != entries_.end() && it->second.emulated ? &*it->second.emulated : nullptr;
}

const KernelEmulationInput& EmulatorOracle::longest_step_input(const Config& config, const Entry& e) {
  if (input_ && input_->first == config) return input_->second;
  ++emulations_;
  // As emulate_plan does: earlier steps' sampled blocks run first, over zero-filled outputs.
  LaunchPlan plan = plan_for(config);
  if (!plan.program.empty()) throw InputError("the occupancy analysis takes plans without a program");
  const LaunchWeigher weigher = LaunchWeigher::of(family_, workload_, problem_, config, plan);
  const std::shared_ptr<const ptx::PtxModule> module = shared_ptx_module_cache().get(*e.kernel);
  interp::HostMemory memory(plan, interp::HostMemory::Fill::Zero);
  const size_t longest = e.emulated->longest_step();
  KernelEmulationInput in;
  for (size_t i = 0; i <= longest && i < plan.steps.size(); ++i) {
    const LaunchStep& step = plan.steps[i];
    std::vector<double> weights = weigher.weights(plan, step);
    const std::vector<int64_t> sampled = choose_sample_blocks(weights, CandidateEmulationOptions{}.samples);
    interp::InterpretLimits limits;
    limits.max_warp_instructions_per_block = CandidateEmulationOptions{}.max_warp_instructions_per_block;
    interp::LaunchInterpreter interpreter(module->function(step.entry), step, memory, limits);
    if (i < longest) {
      for (int64_t b : sampled) interpreter.run_block(b, false);
      continue;
    }
    for (int64_t b : sampled) in.samples.push_back(interpreter.run_block(b, true));
    in.block_weights = std::move(weights);
    in.threads_per_block = static_cast<int>(step.block.x * step.block.y * step.block.z);
    in.dynamic_shared_bytes = static_cast<int>(step.shared_bytes);
  }
  in.usage = e.emulated->steps[longest].usage;
  in.gpu = gpu_;
  previous_plan_ = std::move(plan);
  input_.emplace(config, std::move(in));
  return input_->second;
}

std::optional<WalkBottleneck> EmulatorOracle::bottleneck_at(const Config& config, double occupancy) {
  Entry& e = entry(config);
  if (!e.emulated || budget_spent()) return fallback_.bottleneck_at(config, occupancy);
  const StepEmulation& longest = e.emulated->steps[e.emulated->longest_step()];
  const int own = longest.prediction.resident_blocks;
  const int target = std::max(1, static_cast<int>(std::lround(occupancy * gpu_.max_warps_per_sm / warps_per_block(longest))));
  auto at = [&](int blocks) -> std::optional<WalkBottleneck> {
    auto key = std::make_pair(config, blocks);
    auto it = at_blocks_.find(key);
    if (it != at_blocks_.end()) return it->second;
    std::optional<WalkBottleneck> b;
    try {
      const SensitivityReport r = sensitivity_at_occupancy(longest_step_input(config, e), blocks);
      b = walk_bottleneck(r.bottleneck.resource, r.bottleneck.kind);
    } catch (const InputError& err) {
      if (log_) log_("emulator: no sensitivity analysis at " + std::to_string(blocks) + " blocks: " + err.what());
    }
    return at_blocks_[key] = b;
  };
  const std::optional<WalkBottleneck> there = at(target);
  if (!there) return std::nullopt;
  // The view's bottleneck comes from utilisation, the analysis's from elasticities: only a
  // change the analysis itself sees between the two occupancies counts as a change.
  const std::optional<WalkBottleneck> here = at(own);
  if (here && *here == *there) return e.view->bottleneck;
  return there;
}

std::vector<double> EmulatorOracle::lower_occupancies(const Config& config) {
  Entry& e = entry(config);
  if (!e.emulated) return fallback_.lower_occupancies(config);
  const StepEmulation& longest = e.emulated->steps[e.emulated->longest_step()];
  std::vector<double> levels;
  for (int k = longest.prediction.resident_blocks - 1; k >= 1; --k)
    levels.push_back(static_cast<double>(k * warps_per_block(longest)) / gpu_.max_warps_per_sm);
  return levels;
}

}  // namespace ktune
