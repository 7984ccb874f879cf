#pragma once
// The SAAKE oracle over the data-aware emulator (model/saake, issue 4): every configuration
// the walk looks at is compiled (through the compile cache, so the measured search reuses
// it), its launch plan prepared over the workload's real matrix, and emulated on sampled
// blocks. A configuration the emulator cannot take (PTX it does not cover, a hang, no ptxas
// usage) is answered by the fallback oracle (the first cost model) and noted, never thrown:
// one odd candidate must not fail a tune.
//
// Views come from one emulation without the sensitivity analysis (the walk looks at dozens
// of neighbours; the analysis costs tens of re-emulations each), so their bottleneck is the
// emulator's utilisation rule (CandidatePrediction::bottleneck). bottleneck_at runs the
// sensitivity analysis at the hypothetical occupancy (sensitivity_at_occupancy) — and, so
// that the walk compares like with like, at the configuration's own occupancy too: when the
// analysis names the same bottleneck at both, the view's bottleneck is returned unchanged.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "kernels/kernel_family.h"
#include "model/gpu_spec.h"
#include "model/saake/candidate_emulation.h"
#include "search/explanation.h"
#include "search/saake_oracle.h"

namespace ktune {

class EmulatorOracle : public SaakeOracle {
 public:
  using Compile = std::function<std::shared_ptr<const CompiledKernel>(const Config&)>;
  using Log = std::function<void(const std::string&)>;

  // `fallback` answers configurations the emulator cannot take; it must outlive this oracle.
  EmulatorOracle(const KernelFamily& family, const Workload& workload, const Problem& problem, const GpuSpec& gpu,
                 Compile compile, SaakeOracle& fallback, Log log = {});

  std::optional<OracleView> evaluate(const Config& config) override;
  std::optional<WalkBottleneck> bottleneck_at(const Config& config, double occupancy) override;
  std::vector<double> lower_occupancies(const Config& config) override;

  // The emulation behind evaluate(config), when it ran (nothing after a fallback).
  const CandidatePrediction* emulation(const Config& config) const;
  // Plans prepared from here on reuse `plan`'s configuration-independent inputs (prepare_next):
  // oracles of one tune that walk side by side convert a large workload once, not each.
  void share_inputs(const LaunchPlan& plan) { previous_plan_ = plan; }
  // Takes what `other` (an oracle of the same tune) evaluated, e.g. a walk's run on its own
  // oracle, for emulation() to answer; configurations this one holds already stay as they are.
  void absorb(EmulatorOracle&& other);
  // Takes `other`'s finding that this workload's programs are too large to emulate, so that
  // this oracle answers from the fallback without trying.
  void learn_size_from(const EmulatorOracle& other) {
    if (!too_large_) too_large_ = other.too_large_;
  }
  // At most `emulations` emulations (views and sensitivity analyses), and no new one once
  // `warp_instructions` have been interpreted, from here on; past either the fallback answers. A
  // walk over a matrix of tens of millions of nonzeros prepares and emulates each configuration
  // in seconds, and one that follows SSSP's passes on a small graph interprets as long: both
  // took minutes before their first measurement.
  void set_emulation_budget(size_t emulations, uint64_t warp_instructions = UINT64_MAX) {
    budget_ = emulations;
    instruction_budget_ = warp_instructions;
  }
  // How configurations are emulated (the interpretation limits), for those evaluated from here on.
  void set_options(const CandidateEmulationOptions& options) { options_ = options; }
  // Configurations answered by the fallback, with the reason (canonical key -> message).
  const std::map<std::string, std::string>& fallbacks() const { return fallbacks_; }
  // Why this tune's programs are not emulated at all (EmulationTooLarge), once one proved it.
  const std::optional<std::string>& too_large() const { return too_large_; }

 private:
  struct Entry {
    std::shared_ptr<const CompiledKernel> kernel;
    std::optional<CandidatePrediction> emulated;
    std::optional<OracleView> view;
  };
  Entry& entry(const Config& config);
  LaunchPlan plan_for(const Config& config);
  // The longest step's emulation input, traced again (the emulation does not keep traces).
  const KernelEmulationInput& longest_step_input(const Config& config, const Entry& e);

  const KernelFamily& family_;
  const Workload& workload_;
  // Set once a configuration's program proved too large to interpret: the rest go to the fallback.
  std::optional<std::string> too_large_;
  size_t budget_ = static_cast<size_t>(-1);
  size_t emulations_ = 0;
  uint64_t instruction_budget_ = UINT64_MAX;
  uint64_t interpreted_ = 0;  // warp instructions of the emulations run
  bool budget_spent() const { return emulations_ >= budget_ || interpreted_ >= instruction_budget_; }
  Problem problem_;
  GpuSpec gpu_;
  Compile compile_;
  SaakeOracle& fallback_;
  Log log_;
  CandidateEmulationOptions options_ = tune_emulation_options();
  std::map<Config, Entry> entries_;
  std::map<std::string, std::string> fallbacks_;
  std::optional<LaunchPlan> previous_plan_;  // lends its converted inputs to the next plan
  // bottleneck_at asks about one configuration at several levels in a row: keep its input.
  std::optional<std::pair<Config, KernelEmulationInput>> input_;
  std::map<std::pair<Config, int>, std::optional<WalkBottleneck>> at_blocks_;
};

// The walk's view of an emulated candidate: resources by model/resource.h names.
OracleView oracle_view(const CandidatePrediction& p);

}  // namespace ktune
